/**
 * What the SQL repositories share: the pg type parsers (int8 as numbers), turning
 * `SqlError` into the typed storage errors, and the keyset list query.
 */
import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import type { PgClient } from "@effect/sql-pg"
import { Effect, type Option } from "effect"
import * as Page from "../Page.js"
import { DuplicateRecord, RecordNotFound, StorageError } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import type { Table } from "./Table.js"

type Parser = (value: string) => unknown

/** int8 → number. Every int8 Levy stores (minor units ≤ 99,999,999; milliseconds) is a safe integer. */
const int8: Parser = (value) => {
  const n = Number(value)
  return Number.isSafeInteger(n) ? n : BigInt(value)
}

const PARSERS: Record<number, Parser> = {
  16: (v) => v === "t", // bool
  20: int8, // int8
  21: Number, // int2
  23: Number, // int4
  26: Number, // oid
  114: JSON.parse, // json
  3802: JSON.parse, // jsonb
  700: Number, // float4
  701: Number, // float8
  1184: (v) => new Date(v), // timestamptz (the migrations table)
  1114: (v) => new Date(`${v}Z`) // timestamp
}

/**
 * The `types` option for the pg driver: our own parsers for the types Levy reads, text
 * for everything else. (`pg` is not a dependency of ours, so its defaults are not imported.)
 */
export const types = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    format === "binary" ? (v: unknown) => v : (PARSERS[oid] ?? ((v: string) => v))
} as unknown as NonNullable<PgClient.PgClientConfig["types"]>

interface PgErrorFields {
  readonly code?: string
  readonly constraint?: string
  readonly detail?: string
}

/** The pg error under a `SqlError`, when there is one. */
export const pgError = (error: SqlError): PgErrorFields =>
  typeof error.cause === "object" && error.cause !== null ? (error.cause as PgErrorFields) : {}

/** Whether the error is a unique violation (SQLSTATE 23505). */
export const isUniqueViolation = (error: SqlError): boolean => pgError(error).code === "23505"

/** Any `SqlError` as a `StorageError`. */
export const storageError = (error: SqlError): StorageError =>
  new StorageError({ message: error.message, cause: error.cause ?? error })

/** Maps `SqlError` to `StorageError` on an effect. */
export const orStorageError = <A, E, R>(
  effect: Effect.Effect<A, E | SqlError, R>
): Effect.Effect<A, Exclude<E, SqlError> | StorageError, R> =>
  Effect.catchIf(
    effect,
    (e): e is SqlError => (e as { _tag?: string })._tag === "SqlError",
    (e) => Effect.fail(storageError(e))
  ) as Effect.Effect<A, Exclude<E, SqlError> | StorageError, R>

/** How many rows a statement returned (a `DELETE … RETURNING 1`: how many it deleted). */
export const rowCount = <E, R>(
  statement: Effect.Effect<ReadonlyArray<unknown>, E | SqlError, R>
): Effect.Effect<number, Exclude<E, SqlError> | StorageError, R> =>
  Effect.map(orStorageError(statement), (rows) => rows.length)

/** Maps a unique violation to `DuplicateRecord(entity, id)` and any other `SqlError` to `StorageError`. */
export const orDuplicate =
  (entity: string, id: string) =>
  <A, E, R>(
    effect: Effect.Effect<A, E | SqlError, R>
  ): Effect.Effect<A, Exclude<E, SqlError> | StorageError | DuplicateRecord, R> =>
    Effect.catchIf(
      effect,
      (e): e is SqlError => (e as { _tag?: string })._tag === "SqlError",
      (e) =>
        Effect.fail(isUniqueViolation(e) ? new DuplicateRecord({ entity, id }) : storageError(e))
    ) as Effect.Effect<A, Exclude<E, SqlError> | StorageError | DuplicateRecord, R>

/** What a keyset list needs to know: its table, the tenant, the page and its filters. */
export interface ListSpec<A> {
  readonly table: Table<A>
  readonly entity: string
  readonly tenant: Tenant
  readonly request: Page.PageRequest
  /** Extra conditions (customer, type, charge, ...), ANDed with the tenant and range. */
  readonly filters?: ReadonlyArray<Fragment>
}

/**
 * One page as a keyset range scan over `(account_id, livemode, created DESC, id DESC)`,
 * in ONE query however deep the cursor: the cursor's `created` comes from a scalar
 * subquery (an init plan, so the row comparison stays an index condition), `limit + 1`
 * rows are read so `hasMore` is exact, and new rows never shift a page. Only an empty
 * page costs a second query, to tell "nothing more" from "no such cursor" (another
 * account's id is no such cursor).
 */
export const list = <A>(
  sql: SqlClient.SqlClient,
  spec: ListSpec<A>
): Effect.Effect<Page.Page<A>, StorageError | RecordNotFound> =>
  Effect.gen(function* () {
    const { tenant, request } = spec
    const limit = Page.limitOf(request)
    const table = sql(spec.table.name)
    const cursorId = request.endingBefore ?? request.startingAfter
    const mine = [sql`account_id = ${tenant.accountId}`, sql`livemode = ${tenant.livemode}`]
    const conditions: Array<Fragment> = [...mine, ...(spec.filters ?? [])]
    const range = request.created
    if (range?.gt !== undefined) conditions.push(sql`created > ${range.gt}`)
    if (range?.gte !== undefined) conditions.push(sql`created >= ${range.gte}`)
    if (range?.lt !== undefined) conditions.push(sql`created < ${range.lt}`)
    if (range?.lte !== undefined) conditions.push(sql`created <= ${range.lte}`)
    const backwards = request.endingBefore !== undefined
    if (cursorId !== undefined) {
      const cursorCreated = sql`(SELECT created FROM ${table} WHERE ${sql.and([...mine, sql`id = ${cursorId}`])})`
      conditions.push(
        backwards
          ? sql`(created, id) > (${cursorCreated}, ${cursorId})`
          : sql`(created, id) < (${cursorCreated}, ${cursorId})`
      )
    }
    const order = backwards
      ? sql`ORDER BY created ASC, id ASC`
      : sql`ORDER BY created DESC, id DESC`
    const rows = yield* sql`SELECT ${spec.table.select(sql)} FROM ${table}
      WHERE ${sql.and(conditions)} ${order} LIMIT ${limit + 1}`
    if (rows.length === 0 && cursorId !== undefined) {
      const found =
        yield* sql`SELECT 1 FROM ${table} WHERE ${sql.and([...mine, sql`id = ${cursorId}`])}`
      if (found.length === 0)
        return yield* Effect.fail(new RecordNotFound({ entity: spec.entity, id: cursorId }))
    }
    const hasMore = rows.length > limit
    const kept = rows.slice(0, limit)
    if (backwards) kept.reverse()
    return { data: yield* spec.table.decodeAll(kept), hasMore }
  }).pipe(orStorageError)

/**
 * A JSON value as a query parameter for a json/jsonb column. (pg would turn a JS array
 * into a PostgreSQL array literal, so every value is serialized here.)
 */
export const json = (value: unknown): string => JSON.stringify(value)

/** The first row decoded by `table`, or `RecordNotFound(entity, id)` when there is none. */
export const one =
  <A>(table: Table<A>, entity: string, id: string) =>
  (rows: ReadonlyArray<unknown>): Effect.Effect<A, RecordNotFound | StorageError> =>
    rows[0] === undefined ? Effect.fail(new RecordNotFound({ entity, id })) : table.decode(rows[0])

/** The first row decoded by `table`, if there is one. */
export const maybeOne =
  <A>(table: Table<A>) =>
  (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<A>, StorageError> =>
    rows[0] === undefined ? Effect.succeedNone : Effect.asSome(table.decode(rows[0]))

/** The row a write returned (`INSERT … RETURNING`), decoded by `table`. */
export const returned =
  <A>(table: Table<A>) =>
  (rows: ReadonlyArray<unknown>): Effect.Effect<A, StorageError> =>
    rows[0] === undefined
      ? Effect.fail(new StorageError({ message: `a write to ${table.name} returned no row` }))
      : table.decode(rows[0])

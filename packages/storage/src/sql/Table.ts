/**
 * A table's columns, written once: the column list every query selects and returns, the row
 * every insert writes, and the decoding of every column read back. Scalar columns are checked
 * by type; JSON columns are decoded by their own schema. A row that does not decode is a
 * `StorageError` naming the table, the row and the column, never a silently wrong value.
 */
import type { SqlClient } from "@effect/sql"
import type { Fragment, RecordInsertHelper } from "@effect/sql/Statement"
import { Effect, Either, ParseResult, type Schema } from "effect"
import { StorageError } from "../StorageError.js"

/** One column: its PostgreSQL type and how a value read from it is checked. */
export interface Column<A> {
  /** The column's name when it is not the field's name in snake_case. */
  readonly name?: string | undefined
  /** The PostgreSQL type, for typed parameters (`INSERT … SELECT $1::bigint`). */
  readonly type: string
  /** Stored as JSON text (written with `JSON.stringify`). */
  readonly json: boolean
  /** The value as read, or why it is not one. */
  readonly check: (u: unknown) => Either.Either<A, string>
}

const describe = (u: unknown): string =>
  u === null ? "null" : typeof u === "bigint" ? `bigint ${u}` : `${typeof u} ${JSON.stringify(u)}`

const scalar =
  <A>(type: string, expected: string, is: (u: unknown) => u is A) =>
  (name?: string): Column<A> => ({
    name,
    type,
    json: false,
    check: (u) =>
      is(u) ? Either.right(u) : Either.left(`expected ${expected}, got ${describe(u)}`)
  })

const orNull =
  <A>(column: (name?: string) => Column<A>) =>
  (name?: string): Column<A | null> => {
    const inner = column(name)
    return { ...inner, check: (u) => (u === null ? Either.right(null) : inner.check(u)) }
  }

const isString = (u: unknown): u is string => typeof u === "string"
const isBoolean = (u: unknown): u is boolean => typeof u === "boolean"
// int8 columns are parsed to numbers when safe (`SqlSupport.types`); anything else is not ours.
const isSafeInteger = (u: unknown): u is number => Number.isSafeInteger(u)

export const text = scalar("text", "text", isString)
export const nullableText = orNull(text)
export const bigint = scalar("bigint", "a safe integer", isSafeInteger)
export const nullableBigint = orNull(bigint)
export const integer = scalar("integer", "an integer", isSafeInteger)
export const nullableInteger = orNull(integer)
export const boolean = scalar("boolean", "a boolean", isBoolean)

/** A text column holding one of `values`. */
export const literal =
  <const L extends ReadonlyArray<string>>(...values: L) =>
  (name?: string): Column<L[number]> =>
    scalar("text", values.join(" | "), (u): u is L[number] => values.includes(u as string))(name)

/** A jsonb column decoded by `schema` (extra object keys are kept, never dropped). */
export const json = <A, I>(schema: Schema.Schema<A, I>, name?: string): Column<A> => {
  const decode = ParseResult.decodeUnknownEither(schema, { onExcessProperty: "preserve" })
  return {
    name,
    type: "jsonb",
    json: true,
    check: (u) =>
      Either.mapLeft(decode(u), (issue) => ParseResult.TreeFormatter.formatIssueSync(issue))
  }
}

/** `json(schema)` or SQL NULL. */
export const nullableJson = <A, I>(schema: Schema.Schema<A, I>, name?: string): Column<A | null> =>
  orNull((n?: string) => json(schema, n))(name)

/** A table: its columns by the field each decodes to. */
export interface Table<A> {
  readonly name: string
  /** `a, b, c`: the select and returning list. */
  readonly list: string
  readonly columns: ReadonlyArray<{ readonly field: string; readonly column: string }>
  /** The select list, its columns qualified by `alias` when given. */
  readonly select: (sql: SqlClient.SqlClient, alias?: string) => Fragment
  /** The row as decoded, or a `StorageError` saying which column is not what it should be. */
  readonly decode: (row: unknown) => Effect.Effect<A, StorageError>
  readonly decodeAll: (rows: ReadonlyArray<unknown>) => Effect.Effect<Array<A>, StorageError>
  /** The record as the row to insert (JSON columns as text), for `sql.insert`. */
  readonly row: (record: A) => Record<string, unknown>
  /**
   * The record's values in column order (JSON columns as text): the parameters of a
   * statement written once with `placeholders`.
   */
  readonly values: (record: A) => Array<unknown>
  /** `$n::text, $n+1::bigint, …` from `$first`: one typed placeholder per column, in order. */
  readonly placeholders: (first: number) => string
  /** `(a, b, c) VALUES (…)` of one or several records. */
  readonly insert: (sql: SqlClient.SqlClient, records: A | ReadonlyArray<A>) => RecordInsertHelper
  /**
   * `$1::text, $2::bigint, …`: the record as typed values, for `INSERT … SELECT`; a field in
   * `computed` is that SQL expression instead (`{ attempt: sql\`attempts + 1\` }`).
   */
  readonly typedValues: (
    sql: SqlClient.SqlClient,
    record: A,
    computed?: { readonly [K in keyof A]?: Fragment }
  ) => Fragment
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/**
 * A table of records `A`: one column per field of `A`, named after the field in snake_case
 * unless the column says otherwise. (Curried so that `A` is given and the fields are checked
 * against it: a missing or mistyped column does not compile.)
 */
export const make =
  <A extends object>() =>
  (name: string, fields: { readonly [K in keyof A]-?: Column<A[K]> }): Table<A> => {
    const columns = Object.entries(fields as Record<string, Column<unknown>>).map(([field, c]) => ({
      field,
      column: c.name ?? snakeCase(field),
      spec: c
    }))
    const list = columns.map((c) => c.column).join(", ")
    const decodeSync = (row: unknown): Either.Either<A, StorageError> => {
      const r = row as Record<string, unknown>
      const out: Record<string, unknown> = {}
      for (const c of columns) {
        const checked = c.spec.check(r[c.column])
        if (Either.isLeft(checked)) {
          const id = typeof r.id === "string" ? ` ${r.id}` : ""
          return Either.left(
            new StorageError({
              message: `${name} row${id} does not decode: column ${c.column}: ${checked.left}`
            })
          )
        }
        out[c.field] = checked.right
      }
      return Either.right(out as A)
    }
    const cell = (record: A, c: (typeof columns)[number]): unknown => {
      const value = (record as Record<string, unknown>)[c.field] ?? null
      return c.spec.json && value !== null ? JSON.stringify(value) : value
    }
    const row = (record: A): Record<string, unknown> => {
      const out: Record<string, unknown> = {}
      for (const c of columns) out[c.column] = cell(record, c)
      return out
    }
    return {
      name,
      list,
      columns: columns.map(({ field, column }) => ({ field, column })),
      select: (sql, alias) =>
        sql.literal(
          alias === undefined ? list : columns.map((c) => `${alias}.${c.column}`).join(", ")
        ),
      decode: (r) => Effect.suspend(() => decodeSync(r)),
      decodeAll: (rows) =>
        Effect.suspend((): Either.Either<Array<A>, StorageError> => {
          const out: Array<A> = []
          for (const r of rows) {
            const decoded = decodeSync(r)
            if (Either.isLeft(decoded)) return Either.left(decoded.left)
            out.push(decoded.right)
          }
          return Either.right(out)
        }),
      row,
      values: (record) => columns.map((c) => cell(record, c)),
      placeholders: (first) => columns.map((c, i) => `$${first + i}::${c.spec.type}`).join(", "),
      insert: (sql, records) =>
        Array.isArray(records)
          ? sql.insert((records as ReadonlyArray<A>).map(row))
          : sql.insert(row(records as A)),
      typedValues: (sql, record, computed = {}) => {
        const values = row(record)
        const given = computed as Record<string, Fragment | undefined>
        return sql.join(
          ", ",
          false
        )(
          columns.map(
            (c) => given[c.field] ?? sql`${values[c.column]}::${sql.literal(c.spec.type)}`
          )
        )
      }
    }
  }

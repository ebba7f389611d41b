/**
 * Events: the outbox. Every state change writes its event in the same transaction as the
 * change (docs/design.md §8); the webhook dispatcher turns events into deliveries.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import type { JsonObject } from "./Json.js"
import * as MemoryStore from "./memory/MemoryStore.js"
import type * as Page from "./Page.js"
import { DuplicateRecord, RecordNotFound, type StorageError } from "./StorageError.js"
import * as SqlSupport from "./sql/SqlSupport.js"
import type { Tenant } from "./Tenant.js"

/** An event. `data` is `{object: <resource>}`; `created` in Unix seconds. */
export interface Event {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly type: string
  readonly data: JsonObject
  /** The request that caused it (`{id, idempotencyKey}`), when there was one. */
  readonly request: JsonObject | null
  readonly created: number
}

/** Which event: its tenant and id. */
export interface EventRef {
  readonly accountId: string
  readonly livemode: boolean
  readonly id: string
}

/** The events among `found` that `refs` name (same account, mode and id). */
const named = (refs: ReadonlyArray<EventRef>, found: ReadonlyArray<Event>) => {
  const wanted = new Set(refs.map((r) => `${r.accountId}/${r.livemode}/${r.id}`))
  return found.filter((e) => wanted.has(`${e.accountId}/${e.livemode}/${e.id}`))
}

/** Events. */
export interface EventRepositoryService {
  readonly insert: (event: Event) => Effect.Effect<Event, DuplicateRecord | StorageError>
  readonly get: (tenant: Tenant, id: string) => Effect.Effect<Event, RecordNotFound | StorageError>
  /** The events of several tenants at once (the webhook dispatcher's batches); missing ones are left out. */
  readonly getMany: (
    refs: ReadonlyArray<EventRef>
  ) => Effect.Effect<ReadonlyArray<Event>, StorageError>
  readonly list: (
    tenant: Tenant,
    request: Page.PageRequest & { readonly type?: string | undefined }
  ) => Effect.Effect<Page.Page<Event>, RecordNotFound | StorageError>
}

interface Row {
  account_id: string
  id: string
  livemode: boolean
  type: string
  data: JsonObject
  request: JsonObject | null
  created: number
}

const fromRow = (r: Row): Event => ({
  id: r.id,
  accountId: r.account_id,
  livemode: r.livemode,
  type: r.type,
  data: r.data,
  request: r.request,
  created: r.created
})

/** The SQL implementation. */
export const makeSql = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const service: EventRepositoryService = {
    insert: (e) =>
      sql`INSERT INTO events (account_id, id, livemode, type, data, request, created)
        VALUES (${e.accountId}, ${e.id}, ${e.livemode}, ${e.type}, ${SqlSupport.json(e.data)},
          ${e.request === null ? null : SqlSupport.json(e.request)}, ${e.created})`.pipe(
        SqlSupport.orDuplicate("event", e.id),
        Effect.as(e)
      ),
    get: (tenant, id) =>
      sql<Row>`SELECT * FROM events
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows[0]
            ? Effect.succeed(fromRow(rows[0]))
            : Effect.fail(new RecordNotFound({ entity: "event", id }))
        )
      ),
    // Both IN lists let the primary key (account_id, id) serve the lookup; the exact pairs
    // are then picked out.
    getMany: (refs) =>
      refs.length === 0
        ? Effect.succeed([])
        : sql<Row>`SELECT * FROM events
            WHERE account_id IN ${sql.in([...new Set(refs.map((r) => r.accountId))])}
              AND id IN ${sql.in(refs.map((r) => r.id))}`.pipe(
            SqlSupport.orStorageError,
            Effect.map((rows) => named(refs, rows.map(fromRow)))
          ),
    list: (tenant, request) =>
      SqlSupport.listRaw(sql, {
        table: "events",
        entity: "event",
        tenant,
        request,
        filters: request.type !== undefined ? [sql`type = ${request.type}`] : [],
        decode: fromRow
      })
  }
  return service
})

const TABLE = "events"

/** The in-memory implementation. */
export const makeMemory = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const events = store.table<Event>(TABLE)
  const key = (accountId: string, id: string) => `${accountId}/${id}`
  const service: EventRepositoryService = {
    insert: (e) =>
      store.write((w) => {
        if (events.has(key(e.accountId, e.id)))
          return Effect.fail(new DuplicateRecord({ entity: "event", id: e.id }))
        w.put(TABLE, key(e.accountId, e.id), e)
        return Effect.succeed(e)
      }),
    get: (tenant, id) =>
      Effect.flatMap(
        store.read(() => events.get(key(tenant.accountId, id))),
        (e) =>
          e && e.livemode === tenant.livemode
            ? Effect.succeed(e)
            : Effect.fail(new RecordNotFound({ entity: "event", id }))
      ),
    getMany: (refs) =>
      store.read(() =>
        named(refs, [
          ...new Set(
            refs.flatMap((r) => {
              const e = events.get(key(r.accountId, r.id))
              return e === undefined ? [] : [e]
            })
          )
        ])
      ),
    list: (tenant, request) =>
      MemoryStore.list<Event>(
        store,
        TABLE,
        "event",
        tenant,
        request,
        (e) => request.type === undefined || e.type === request.type
      )
  }
  return service
})

/** Events, as a service. */
export class EventRepository extends Context.Tag("@levy/storage/EventRepository")<
  EventRepository,
  EventRepositoryService
>() {
  static readonly layerSql = Layer.effect(EventRepository, makeSql)
  static readonly layerMemory = Layer.effect(EventRepository, makeMemory)
}

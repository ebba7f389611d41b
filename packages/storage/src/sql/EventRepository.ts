/** Events on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { EventRepository, type EventRepositoryService, named } from "../EventRepository.js"
import * as SqlSupport from "./SqlSupport.js"
import { events } from "./Tables.js"

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const columns = events.select(sql)
  const service: EventRepositoryService = {
    insert: (e) =>
      sql`INSERT INTO events ${events.insert(sql, e)}`.pipe(
        SqlSupport.orDuplicate("event", e.id),
        Effect.as(e)
      ),
    get: (tenant, id) =>
      sql`SELECT ${columns} FROM events
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.one(events, "event", id))
      ),
    // Both IN lists let the primary key (account_id, id) serve the lookup; the exact pairs
    // are then picked out.
    getMany: (refs) =>
      refs.length === 0
        ? Effect.succeed([])
        : sql`SELECT ${columns} FROM events
            WHERE account_id IN ${sql.in([...new Set(refs.map((r) => r.accountId))])}
              AND id IN ${sql.in(refs.map((r) => r.id))}`.pipe(
            SqlSupport.orStorageError,
            Effect.flatMap(events.decodeAll),
            Effect.map((found) => named(refs, found))
          ),
    list: (tenant, request) =>
      SqlSupport.list(sql, {
        table: events,
        entity: "event",
        tenant,
        request,
        filters: request.type !== undefined ? [sql`type = ${request.type}`] : []
      })
  }
  return service
})

export const layer = Layer.effect(EventRepository, make)

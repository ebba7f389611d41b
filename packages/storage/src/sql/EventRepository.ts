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
      }),
    // Events being fanned out are locked: skipped, and kept once their deliveries exist.
    purge: (before, limit) =>
      sql`DELETE FROM events WHERE (account_id, id) IN (
          SELECT e.account_id, e.id FROM events e
          WHERE e.created < ${before} AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
            WHERE d.account_id = e.account_id AND d.event_id = e.id)
          ORDER BY e.created LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING 1`.pipe(SqlSupport.rowCount)
  }
  return service
})

export const layer = Layer.effect(EventRepository, make)

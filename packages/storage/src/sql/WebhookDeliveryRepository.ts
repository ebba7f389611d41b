/** Webhook deliveries and attempts on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Clock, Effect, Layer } from "effect"
import { Ids } from "../Ids.js"
import { LeaseLost, RecordNotFound } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import {
  INSERT_CHUNK,
  statusOf,
  subscribes,
  type WebhookAttempt,
  type WebhookDelivery,
  WebhookDeliveryRepository,
  type WebhookDeliveryRepositoryService
} from "../WebhookDeliveryRepository.js"
import * as SqlSupport from "./SqlSupport.js"
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "./Tables.js"

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const ids = yield* Ids
  const columns = webhookDeliveries.select(sql)
  const attemptColumns = webhookDeliveryAttempts.select(sql)
  /** `enqueue`, or with `again` `redeliver`: one statement per endpoint, in one transaction. */
  const queue = (
    tenant: Tenant,
    eventId: string,
    endpointIds: ReadonlyArray<string>,
    again: boolean
  ) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const created = Math.floor(now / 1000)
      // The event and every endpoint must be this tenant's (the foreign keys do not see modes).
      // The event is locked first, as the fan-out locks it before writing its deliveries: a
      // delivery written before waiting on the event's lock (the foreign key's) would make the
      // fan-out wait on it in turn, a deadlock PostgreSQL ends by failing one of them.
      const event = yield* sql`SELECT 1 FROM events
          WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${eventId}
          FOR KEY SHARE`
      if (event.length === 0)
        return yield* Effect.fail(new RecordNotFound({ entity: "event", id: eventId }))
      const known = yield* sql<{ id: string }>`SELECT id FROM webhook_endpoints
          WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
            AND id IN ${sql.in(endpointIds.length > 0 ? endpointIds : [""])}`
      const missing = endpointIds.find((id) => !known.some((k) => k.id === id))
      if (missing !== undefined) {
        return yield* Effect.fail(new RecordNotFound({ entity: "webhook_endpoint", id: missing }))
      }
      const out: Array<WebhookDelivery> = []
      for (const endpointId of endpointIds) {
        const id = yield* ids.make("wd")
        const fresh: WebhookDelivery = {
          id,
          accountId: tenant.accountId,
          livemode: tenant.livemode,
          endpointId,
          eventId,
          status: "pending",
          attempts: 0,
          attemptsAtQueue: 0,
          nextAttemptAtMs: now,
          leaseOwner: null,
          leaseExpiresAtMs: null,
          created
        }
        const rows =
          yield* sql`INSERT INTO webhook_deliveries ${webhookDeliveries.insert(sql, fresh)}
            ON CONFLICT (account_id, endpoint_id, event_id) ${
              again
                ? sql`DO UPDATE SET status = 'pending', created = EXCLUDED.created,
                    attempts_at_queue = webhook_deliveries.attempts,
                    next_attempt_at_ms = LEAST(webhook_deliveries.next_attempt_at_ms, EXCLUDED.next_attempt_at_ms)`
                : sql`DO NOTHING`
            }
            RETURNING ${columns}`
        if (rows[0]) out.push(yield* webhookDeliveries.decode(rows[0]))
      }
      return out
    }).pipe(sql.withTransaction, SqlSupport.orStorageError)
  const service: WebhookDeliveryRepositoryService = {
    fanOut: (limit) =>
      Effect.gen(function* () {
        // Index order, never a sort of the whole backlog (see `claim`).
        yield* sql`SET LOCAL enable_sort = off`
        // Only what the fan-out needs of each event (not its data): a narrow read of the queue.
        const events = yield* sql<{
          account_id: string
          id: string
          livemode: boolean
          type: string
        }>`SELECT account_id, id, livemode, type FROM events WHERE NOT fanned_out
          ORDER BY created, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`
        if (events.length === 0) return { events: 0, deliveries: 0 }
        const accounts = [...new Set(events.map((e) => e.account_id))]
        const endpoints = yield* sql`SELECT ${webhookEndpoints.select(sql)} FROM webhook_endpoints
          WHERE status = 'enabled' AND account_id IN ${sql.in(accounts)}`.pipe(
          Effect.flatMap(webhookEndpoints.decodeAll)
        )
        const now = yield* Clock.currentTimeMillis
        // What differs from row to row; the rest is the same for every new delivery.
        const rows: Array<{
          id: string
          account_id: string
          livemode: boolean
          endpoint_id: string
          event_id: string
        }> = []
        for (const e of events) {
          for (const ep of endpoints) {
            if (ep.accountId !== e.account_id || ep.livemode !== e.livemode) continue
            if (!subscribes(ep.enabledEvents, e.type)) continue
            rows.push({
              id: yield* ids.make("wd"),
              account_id: e.account_id,
              livemode: e.livemode,
              endpoint_id: ep.id,
              event_id: e.id
            })
          }
        }
        // The rows as one JSON parameter, not 11 parameters a row. In chunks, to bound a
        // statement's size.
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          yield* sql`INSERT INTO webhook_deliveries (id, account_id, livemode, endpoint_id, event_id,
              status, attempts, next_attempt_at_ms, lease_owner, lease_expires_at_ms, created)
            SELECT id, account_id, livemode, endpoint_id, event_id, 'pending', 0, ${now}::bigint,
              NULL, NULL, ${Math.floor(now / 1000)}::bigint
            FROM jsonb_to_recordset(${SqlSupport.json(rows.slice(i, i + INSERT_CHUNK))}::jsonb)
              AS t(id text, account_id text, livemode boolean, endpoint_id text, event_id text)
            ON CONFLICT (account_id, endpoint_id, event_id) DO NOTHING`
        }
        for (const account of accounts) {
          const mine = events.filter((e) => e.account_id === account).map((e) => e.id)
          yield* sql`UPDATE events SET fanned_out = true
            WHERE account_id = ${account} AND id IN ${sql.in(mine)}`
        }
        return { events: events.length, deliveries: rows.length }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    enqueue: (tenant, eventId, endpointIds) => queue(tenant, eventId, endpointIds, false),
    redeliver: (tenant, eventId, endpointIds) => queue(tenant, eventId, endpointIds, true),

    // The queue is read in index order (`webhook_deliveries_due`), stopping after `limit`
    // rows. With stale statistics (a backlog that grew faster than autovacuum analyzes) the
    // planner would rather collect every due row and sort them, on every claim; sorting is
    // turned off for this one transaction so the cost never grows with the backlog.
    claim: ({ owner, limit, leaseMs }) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        sql`SET LOCAL enable_sort = off`.pipe(
          Effect.zipRight(sql`WITH due AS (
            SELECT account_id, id FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at_ms <= ${now}
              AND (lease_expires_at_ms IS NULL OR lease_expires_at_ms <= ${now})
            ORDER BY next_attempt_at_ms
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          )
          UPDATE webhook_deliveries d SET lease_owner = ${owner}, lease_expires_at_ms = ${now + leaseMs}
          FROM due WHERE d.account_id = due.account_id AND d.id = due.id
          RETURNING ${webhookDeliveries.select(sql, "d")}`),
          sql.withTransaction,
          SqlSupport.orStorageError,
          Effect.flatMap(webhookDeliveries.decodeAll)
        )
      ),
    // One statement (one round trip, atomic on its own): the dispatcher records an attempt
    // per delivery, so this is on its hot path. The row is locked by the first CTE; when it
    // returns nothing, a second look tells a missing delivery from a lost lease.
    recordAttempt: (tenant, deliveryId, owner, outcome) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const attemptId = yield* ids.make("wda")
        const next = outcome.next
        // `attempt` is counted from the locked row, in the statement.
        const attempt: WebhookAttempt = {
          id: attemptId,
          accountId: tenant.accountId,
          livemode: tenant.livemode,
          deliveryId,
          attempt: 0,
          statusCode: outcome.statusCode,
          error: outcome.error,
          durationMs: outcome.durationMs,
          created: Math.floor(now / 1000)
        }
        const rows = yield* sql<{ a: unknown }>`WITH current AS (
            SELECT account_id, id, attempts FROM webhook_deliveries
            WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${deliveryId}
              AND lease_owner = ${owner} AND status = 'pending'
            FOR UPDATE
          ), attempt AS (
            INSERT INTO webhook_delivery_attempts (${attemptColumns})
            SELECT ${webhookDeliveryAttempts.typedValues(sql, attempt, { attempt: sql`attempts + 1` })}
            FROM current
            RETURNING ${attemptColumns}
          )
          UPDATE webhook_deliveries d SET
            attempts = current.attempts + 1, status = ${statusOf(next)},
            next_attempt_at_ms = ${typeof next === "object" ? sql`${next.retryAtMs}::bigint` : sql`d.next_attempt_at_ms`},
            lease_owner = NULL, lease_expires_at_ms = NULL
          FROM current, attempt
          WHERE d.account_id = current.account_id AND d.id = current.id
          RETURNING ${webhookDeliveries.select(sql, "d")}, row_to_json(attempt.*) AS a`
        const row = rows[0]
        if (row) {
          const { a, ...delivery } = row
          return {
            delivery: yield* webhookDeliveries.decode(delivery),
            attempt: yield* webhookDeliveryAttempts.decode(a)
          }
        }
        const exists = yield* sql`SELECT 1 FROM webhook_deliveries
          WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${deliveryId}`
        return yield* Effect.fail(
          exists.length === 0
            ? new RecordNotFound({ entity: "webhook_delivery", id: deliveryId })
            : new LeaseLost({ deliveryId })
        )
      }).pipe(SqlSupport.orStorageError),
    recordAttempts: (owner, attempts) =>
      Effect.gen(function* () {
        if (attempts.length === 0) return []
        const now = yield* Clock.currentTimeMillis
        const input: Array<Record<string, unknown>> = []
        for (const { tenant, deliveryId, outcome } of attempts) {
          input.push({
            account_id: tenant.accountId,
            livemode: tenant.livemode,
            id: deliveryId,
            attempt_id: yield* ids.make("wda"),
            status_code: outcome.statusCode,
            error: outcome.error,
            duration_ms: outcome.durationMs,
            status: statusOf(outcome.next),
            next_at: typeof outcome.next === "object" ? outcome.next.retryAtMs : null
          })
        }
        const rows = yield* sql<{ id: string }>`WITH input AS (
            SELECT * FROM jsonb_to_recordset(${SqlSupport.json(input)}::jsonb) AS t(account_id text,
              livemode boolean, id text, attempt_id text, status_code integer, error text,
              duration_ms integer, status text, next_at bigint)
          ), current AS (
            -- Row by row through the primary key (a lateral, locking sub-select is never
            -- flattened into a join): a plain join lets the planner scan every pending delivery.
            SELECT d.account_id, d.id, d.livemode, d.attempts, input.attempt_id, input.status_code,
              input.error, input.duration_ms, input.status, input.next_at
            FROM input, LATERAL (
              SELECT w.account_id, w.id, w.livemode, w.attempts FROM webhook_deliveries w
              WHERE w.account_id = input.account_id AND w.id = input.id AND w.livemode = input.livemode
                AND w.lease_owner = ${owner} AND w.status = 'pending'
              FOR UPDATE
            ) d
          ), attempt AS (
            INSERT INTO webhook_delivery_attempts
              (account_id, id, livemode, delivery_id, attempt, status_code, error, duration_ms, created)
            SELECT account_id, attempt_id, livemode, id, attempts + 1, status_code, error, duration_ms,
              ${Math.floor(now / 1000)}::bigint
            FROM current
          )
          UPDATE webhook_deliveries d SET
            attempts = current.attempts + 1, status = current.status,
            next_attempt_at_ms = COALESCE(current.next_at, d.next_attempt_at_ms),
            lease_owner = NULL, lease_expires_at_ms = NULL
          FROM current
          WHERE d.account_id = current.account_id AND d.id = current.id
          RETURNING d.id`
        return rows.map((r) => r.id)
      }).pipe(SqlSupport.orStorageError),
    // Oldest first through the age indexes, a bounded batch per statement, so a long backlog
    // is deleted in short transactions.
    purgeAttempts: (before, limit) =>
      sql`DELETE FROM webhook_delivery_attempts WHERE (account_id, id) IN (
          SELECT account_id, id FROM webhook_delivery_attempts
          WHERE created < ${before} ORDER BY created LIMIT ${limit})
        RETURNING 1`.pipe(SqlSupport.rowCount),
    // A resend makes a finished delivery pending again (and young): the rows are locked as they
    // are chosen, and one being resent meanwhile is skipped.
    purgeFinished: (before, limit) =>
      sql`DELETE FROM webhook_deliveries WHERE (account_id, id) IN (
          SELECT account_id, id FROM webhook_deliveries
          WHERE status <> 'pending' AND created < ${before} ORDER BY created LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING 1`.pipe(SqlSupport.rowCount),
    get: (tenant, id) =>
      sql`SELECT ${columns} FROM webhook_deliveries
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.one(webhookDeliveries, "webhook_delivery", id))
      ),
    list: (tenant, request) =>
      SqlSupport.list(sql, {
        table: webhookDeliveries,
        entity: "webhook_delivery",
        tenant,
        request,
        filters: request.endpoint !== undefined ? [sql`endpoint_id = ${request.endpoint}`] : []
      }),
    listAttempts: (tenant, deliveryId, request) =>
      Effect.zipRight(
        service.get(tenant, deliveryId),
        SqlSupport.list(sql, {
          table: webhookDeliveryAttempts,
          entity: "webhook_attempt",
          tenant,
          request,
          filters: [sql`delivery_id = ${deliveryId}`]
        })
      )
  }
  return service
})

export const layer = Layer.effect(WebhookDeliveryRepository, make)

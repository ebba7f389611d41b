/**
 * Webhook deliveries (one per endpoint and event) and their attempts. Workers claim due
 * deliveries with a lease: PostgreSQL's `FOR UPDATE SKIP LOCKED` plus a lease column, so
 * two workers never hold the same delivery, and a delivery whose worker died (lease
 * expired) is claimable again. Several server processes can share one database.
 */
import { PgClient } from "@effect/sql-pg"
import { Clock, Context, Effect, Layer } from "effect"
import type { Event } from "./EventRepository.js"
import { Ids } from "./Ids.js"
import * as MemoryStore from "./memory/MemoryStore.js"
import type * as Page from "./Page.js"
import { LeaseLost, RecordNotFound, type StorageError } from "./StorageError.js"
import * as SqlSupport from "./sql/SqlSupport.js"
import type { Tenant } from "./Tenant.js"
import type { WebhookEndpoint } from "./WebhookEndpointRepository.js"

/** A delivery. `created` in Unix seconds; the other times in Unix milliseconds. */
export interface WebhookDelivery {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly endpointId: string
  readonly eventId: string
  readonly status: "pending" | "succeeded" | "failed"
  readonly attempts: number
  readonly nextAttemptAtMs: number
  readonly leaseOwner: string | null
  readonly leaseExpiresAtMs: number | null
  readonly created: number
}

/** One attempt to deliver. */
export interface WebhookAttempt {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly deliveryId: string
  /** 1 for the first attempt. */
  readonly attempt: number
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
  readonly created: number
}

/** What happened on an attempt and what to do next. */
export interface AttemptOutcome {
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
  /** `succeeded` (2xx), `failed` (given up) or a retry at the given Unix milliseconds. */
  readonly next: "succeeded" | "failed" | { readonly retryAtMs: number }
}

/** One attempt to record: which delivery, and what happened. */
export interface AttemptRecord {
  readonly tenant: Tenant
  readonly deliveryId: string
  readonly outcome: AttemptOutcome
}

/** A claim request. */
export interface Claim {
  readonly owner: string
  readonly limit: number
  readonly leaseMs: number
}

/** Rows per multi-row INSERT of the fan-out. */
const INSERT_CHUNK = 1000

/** What one `fanOut` call did. */
export interface FanOut {
  /** Events taken and marked fanned out (0: none was waiting). */
  readonly events: number
  /** Deliveries created for them. */
  readonly deliveries: number
}

/** Whether an endpoint with these subscriptions receives events of `type`. */
const subscribes = (enabledEvents: ReadonlyArray<string>, type: string) =>
  enabledEvents.includes("*") || enabledEvents.includes(type)

/** Webhook deliveries and attempts. */
export interface WebhookDeliveryRepositoryService {
  /**
   * Fans out up to `limit` events not yet fanned out (of every account, oldest first): one
   * pending delivery, due now, per enabled endpoint of the event's account and mode that
   * subscribes to its type; the events are marked in the same transaction, so each is
   * fanned out once. Concurrent callers (other processes) take different events.
   */
  readonly fanOut: (limit: number) => Effect.Effect<FanOut, StorageError>
  /** Creates a pending delivery of `eventId` to each endpoint (none twice), due now. */
  readonly enqueue: (
    tenant: Tenant,
    eventId: string,
    endpointIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<WebhookDelivery>, RecordNotFound | StorageError>
  /**
   * Queues `eventId` again to each endpoint (`POST /v1/events/{id}/resend`): a new pending
   * delivery, or the existing one made pending and due now, counted from now for the give-up
   * horizon (its attempts so far are kept). One being attempted right now is left to finish.
   */
  readonly redeliver: (
    tenant: Tenant,
    eventId: string,
    endpointIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<WebhookDelivery>, RecordNotFound | StorageError>
  /** Leases up to `limit` due deliveries of any account to `owner`; never one leased to another. */
  readonly claim: (claim: Claim) => Effect.Effect<ReadonlyArray<WebhookDelivery>, StorageError>
  /** Records an attempt by the lease holder and moves the delivery on; releases the lease. */
  readonly recordAttempt: (
    tenant: Tenant,
    deliveryId: string,
    owner: string,
    outcome: AttemptOutcome
  ) => Effect.Effect<
    { readonly delivery: WebhookDelivery; readonly attempt: WebhookAttempt },
    RecordNotFound | LeaseLost | StorageError
  >
  /**
   * `recordAttempt` for many deliveries in one statement (the dispatcher's hot path). Those
   * not leased to `owner` (lease lost, or deleted) are skipped; returns the ids recorded.
   */
  readonly recordAttempts: (
    owner: string,
    attempts: ReadonlyArray<AttemptRecord>
  ) => Effect.Effect<ReadonlyArray<string>, StorageError>
  readonly get: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<WebhookDelivery, RecordNotFound | StorageError>
  readonly list: (
    tenant: Tenant,
    request: Page.PageRequest & { readonly endpoint?: string | undefined }
  ) => Effect.Effect<Page.Page<WebhookDelivery>, RecordNotFound | StorageError>
  readonly listAttempts: (
    tenant: Tenant,
    deliveryId: string,
    request: Page.PageRequest
  ) => Effect.Effect<Page.Page<WebhookAttempt>, RecordNotFound | StorageError>
}

interface Row {
  account_id: string
  id: string
  livemode: boolean
  endpoint_id: string
  event_id: string
  status: WebhookDelivery["status"]
  attempts: number
  next_attempt_at_ms: number
  lease_owner: string | null
  lease_expires_at_ms: number | null
  created: number
}

const fromRow = (r: Row): WebhookDelivery => ({
  id: r.id,
  accountId: r.account_id,
  livemode: r.livemode,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAtMs: r.next_attempt_at_ms,
  leaseOwner: r.lease_owner,
  leaseExpiresAtMs: r.lease_expires_at_ms,
  created: r.created
})

interface AttemptRow {
  account_id: string
  id: string
  livemode: boolean
  delivery_id: string
  attempt: number
  status_code: number | null
  error: string | null
  duration_ms: number
  created: number
}

const attemptFromRow = (r: AttemptRow): WebhookAttempt => ({
  id: r.id,
  accountId: r.account_id,
  livemode: r.livemode,
  deliveryId: r.delivery_id,
  attempt: r.attempt,
  statusCode: r.status_code,
  error: r.error,
  durationMs: r.duration_ms,
  created: r.created
})

const statusOf = (next: AttemptOutcome["next"]): WebhookDelivery["status"] =>
  next === "succeeded" ? "succeeded" : next === "failed" ? "failed" : "pending"

/** The SQL implementation. */
export const makeSql = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const ids = yield* Ids
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
      const event = yield* sql`SELECT 1 FROM events
          WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${eventId}`
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
        const rows = yield* sql<Row>`INSERT INTO webhook_deliveries
              (account_id, id, livemode, endpoint_id, event_id, status, next_attempt_at_ms, created)
            VALUES (${tenant.accountId}, ${id}, ${tenant.livemode}, ${endpointId}, ${eventId}, 'pending', ${now},
              ${created})
            ON CONFLICT (account_id, endpoint_id, event_id) ${
              again
                ? sql`DO UPDATE SET status = 'pending', created = EXCLUDED.created,
                    next_attempt_at_ms = LEAST(webhook_deliveries.next_attempt_at_ms, EXCLUDED.next_attempt_at_ms)`
                : sql`DO NOTHING`
            }
            RETURNING *`
        if (rows[0]) out.push(fromRow(rows[0]))
      }
      return out
    }).pipe(sql.withTransaction, SqlSupport.orStorageError)
  const service: WebhookDeliveryRepositoryService = {
    fanOut: (limit) =>
      Effect.gen(function* () {
        // Index order, never a sort of the whole backlog (see `claim`).
        yield* sql`SET LOCAL enable_sort = off`
        const events = yield* sql<{
          account_id: string
          id: string
          livemode: boolean
          type: string
        }>`SELECT account_id, id, livemode, type FROM events WHERE NOT fanned_out
          ORDER BY created, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`
        if (events.length === 0) return { events: 0, deliveries: 0 }
        const accounts = [...new Set(events.map((e) => e.account_id))]
        const endpoints = yield* sql<{
          account_id: string
          id: string
          livemode: boolean
          enabled_events: ReadonlyArray<string>
        }>`SELECT account_id, id, livemode, enabled_events FROM webhook_endpoints
          WHERE status = 'enabled' AND account_id IN ${sql.in(accounts)}`
        const now = yield* Clock.currentTimeMillis
        const rows: Array<Omit<Row, "lease_owner" | "lease_expires_at_ms">> = []
        for (const e of events) {
          for (const ep of endpoints) {
            if (ep.account_id !== e.account_id || ep.livemode !== e.livemode) continue
            if (!subscribes(ep.enabled_events, e.type)) continue
            rows.push({
              account_id: e.account_id,
              id: yield* ids.make("wd"),
              livemode: e.livemode,
              endpoint_id: ep.id,
              event_id: e.id,
              status: "pending",
              attempts: 0,
              next_attempt_at_ms: now,
              created: Math.floor(now / 1000)
            })
          }
        }
        // In chunks: a statement takes at most 65,535 parameters (9 per row).
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          yield* sql`INSERT INTO webhook_deliveries ${sql.insert(rows.slice(i, i + INSERT_CHUNK))}
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
          Effect.zipRight(sql<Row>`WITH due AS (
            SELECT account_id, id FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at_ms <= ${now}
              AND (lease_expires_at_ms IS NULL OR lease_expires_at_ms <= ${now})
            ORDER BY next_attempt_at_ms
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          )
          UPDATE webhook_deliveries d SET lease_owner = ${owner}, lease_expires_at_ms = ${now + leaseMs}
          FROM due WHERE d.account_id = due.account_id AND d.id = due.id
          RETURNING d.*`),
          sql.withTransaction,
          SqlSupport.orStorageError,
          Effect.map((rows) => rows.map(fromRow))
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
        const rows = yield* sql<Row & { a: AttemptRow }>`WITH current AS (
            SELECT account_id, id, attempts FROM webhook_deliveries
            WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${deliveryId}
              AND lease_owner = ${owner} AND status = 'pending'
            FOR UPDATE
          ), attempt AS (
            INSERT INTO webhook_delivery_attempts
              (account_id, id, livemode, delivery_id, attempt, status_code, error, duration_ms, created)
            SELECT ${tenant.accountId}, ${attemptId}, ${tenant.livemode}, ${deliveryId}, attempts + 1,
              ${outcome.statusCode}::integer, ${outcome.error}::text, ${outcome.durationMs}::integer,
              ${Math.floor(now / 1000)}::bigint
            FROM current
            RETURNING *
          )
          UPDATE webhook_deliveries d SET
            attempts = current.attempts + 1, status = ${statusOf(next)},
            next_attempt_at_ms = ${typeof next === "object" ? sql`${next.retryAtMs}::bigint` : sql`d.next_attempt_at_ms`},
            lease_owner = NULL, lease_expires_at_ms = NULL
          FROM current, attempt
          WHERE d.account_id = current.account_id AND d.id = current.id
          RETURNING d.*, row_to_json(attempt.*) AS a`
        const row = rows[0]
        if (row) {
          const { a, ...delivery } = row
          return { delivery: fromRow(delivery), attempt: attemptFromRow(a) }
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
    get: (tenant, id) =>
      sql<Row>`SELECT * FROM webhook_deliveries
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows[0]
            ? Effect.succeed(fromRow(rows[0]))
            : Effect.fail(new RecordNotFound({ entity: "webhook_delivery", id }))
        )
      ),
    list: (tenant, request) =>
      SqlSupport.listRaw(sql, {
        table: "webhook_deliveries",
        entity: "webhook_delivery",
        tenant,
        request,
        filters: request.endpoint !== undefined ? [sql`endpoint_id = ${request.endpoint}`] : [],
        decode: fromRow
      }),
    listAttempts: (tenant, deliveryId, request) =>
      Effect.zipRight(
        service.get(tenant, deliveryId),
        SqlSupport.listRaw(sql, {
          table: "webhook_delivery_attempts",
          entity: "webhook_attempt",
          tenant,
          request,
          filters: [sql`delivery_id = ${deliveryId}`],
          decode: attemptFromRow
        })
      )
  }
  return service
})

const DELIVERIES = "webhook_deliveries"
const ATTEMPTS = "webhook_delivery_attempts"
/** Keys (`account/event`) of the events already fanned out: the SQL stores' `fanned_out` column. */
const FANNED_OUT = "events_fanned_out"

/** The in-memory implementation. */
export const makeMemory = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const ids = yield* Ids
  const deliveries = store.table<WebhookDelivery>(DELIVERIES)
  const key = (accountId: string, id: string) => `${accountId}/${id}`
  const find = (tenant: Tenant, id: string): Effect.Effect<WebhookDelivery, RecordNotFound> => {
    const d = deliveries.get(key(tenant.accountId, id))
    return d && d.livemode === tenant.livemode
      ? Effect.succeed(d)
      : Effect.fail(new RecordNotFound({ entity: "webhook_delivery", id }))
  }
  /** `enqueue`, or with `again` `redeliver`. */
  const queue = (
    tenant: Tenant,
    eventId: string,
    endpointIds: ReadonlyArray<string>,
    again: boolean
  ) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const fresh: Array<string> = []
      for (const _ of endpointIds) fresh.push(yield* ids.make("wd"))
      return yield* store.write((w) => {
        const mine = (a: { readonly accountId: string; readonly livemode: boolean } | undefined) =>
          a !== undefined && a.accountId === tenant.accountId && a.livemode === tenant.livemode
        if (!mine(store.table<Event>("events").get(key(tenant.accountId, eventId)))) {
          return Effect.fail(new RecordNotFound({ entity: "event", id: eventId }))
        }
        const endpoints = store.table<WebhookEndpoint>("webhook_endpoints")
        const missing = endpointIds.find((id) => !mine(endpoints.get(key(tenant.accountId, id))))
        if (missing !== undefined) {
          return Effect.fail(new RecordNotFound({ entity: "webhook_endpoint", id: missing }))
        }
        const out: Array<WebhookDelivery> = []
        endpointIds.forEach((endpointId, i) => {
          const existing = [...deliveries.values()].find(
            (d) =>
              d.accountId === tenant.accountId &&
              d.endpointId === endpointId &&
              d.eventId === eventId
          )
          if (existing !== undefined) {
            if (!again) return
            const rearmed: WebhookDelivery = {
              ...existing,
              status: "pending",
              created: Math.floor(now / 1000),
              nextAttemptAtMs: Math.min(existing.nextAttemptAtMs, now)
            }
            w.put(DELIVERIES, key(tenant.accountId, existing.id), rearmed)
            out.push(rearmed)
            return
          }
          const d: WebhookDelivery = {
            id: fresh[i]!,
            accountId: tenant.accountId,
            livemode: tenant.livemode,
            endpointId,
            eventId,
            status: "pending",
            attempts: 0,
            nextAttemptAtMs: now,
            leaseOwner: null,
            leaseExpiresAtMs: null,
            created: Math.floor(now / 1000)
          }
          w.put(DELIVERIES, key(tenant.accountId, d.id), d)
          out.push(d)
        })
        return Effect.succeed(out)
      })
    })
  const service: WebhookDeliveryRepositoryService = {
    fanOut: (limit) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        return yield* store.write((w) =>
          Effect.gen(function* () {
            const done = store.table<true>(FANNED_OUT)
            const events = [...store.table<Event>("events").entries()]
              .filter(([k]) => !done.has(k))
              .sort(([, a], [, b]) => a.created - b.created || (a.id < b.id ? -1 : 1))
              .slice(0, Math.max(0, limit))
            const endpoints = [...store.table<WebhookEndpoint>("webhook_endpoints").values()]
            // As the unique key does in SQL: none twice (a resend may have come first).
            const existing = new Set(
              [...deliveries.values()].map((d) => `${d.endpointId}/${d.eventId}`)
            )
            let created = 0
            for (const [k, e] of events) {
              w.put(FANNED_OUT, k, true)
              for (const ep of endpoints) {
                if (ep.accountId !== e.accountId || ep.livemode !== e.livemode) continue
                if (ep.status !== "enabled" || !subscribes(ep.enabledEvents, e.type)) continue
                if (existing.has(`${ep.id}/${e.id}`)) continue
                const d: WebhookDelivery = {
                  id: yield* ids.make("wd"),
                  accountId: e.accountId,
                  livemode: e.livemode,
                  endpointId: ep.id,
                  eventId: e.id,
                  status: "pending",
                  attempts: 0,
                  nextAttemptAtMs: now,
                  leaseOwner: null,
                  leaseExpiresAtMs: null,
                  created: Math.floor(now / 1000)
                }
                w.put(DELIVERIES, key(d.accountId, d.id), d)
                created++
              }
            }
            return { events: events.length, deliveries: created }
          })
        )
      }),
    enqueue: (tenant, eventId, endpointIds) => queue(tenant, eventId, endpointIds, false),
    redeliver: (tenant, eventId, endpointIds) => queue(tenant, eventId, endpointIds, true),
    claim: ({ owner, limit, leaseMs }) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        store.write((w) => {
          const due = [...deliveries.values()]
            .filter(
              (d) =>
                d.status === "pending" &&
                d.nextAttemptAtMs <= now &&
                (d.leaseExpiresAtMs === null || d.leaseExpiresAtMs <= now)
            )
            .sort((a, b) => a.nextAttemptAtMs - b.nextAttemptAtMs)
            .slice(0, Math.max(0, limit))
            .map(
              (d): WebhookDelivery => ({ ...d, leaseOwner: owner, leaseExpiresAtMs: now + leaseMs })
            )
          for (const d of due) w.put(DELIVERIES, key(d.accountId, d.id), d)
          return Effect.succeed(due)
        })
      ),
    recordAttempt: (tenant, deliveryId, owner, outcome) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const attemptId = yield* ids.make("wda")
        return yield* store.write((w) =>
          Effect.flatMap(find(tenant, deliveryId), (current) => {
            if (current.leaseOwner !== owner || current.status !== "pending") {
              return Effect.fail(new LeaseLost({ deliveryId }))
            }
            const attempt: WebhookAttempt = {
              id: attemptId,
              accountId: tenant.accountId,
              livemode: tenant.livemode,
              deliveryId,
              attempt: current.attempts + 1,
              statusCode: outcome.statusCode,
              error: outcome.error,
              durationMs: outcome.durationMs,
              created: Math.floor(now / 1000)
            }
            const next = outcome.next
            const delivery: WebhookDelivery = {
              ...current,
              attempts: current.attempts + 1,
              status: statusOf(next),
              nextAttemptAtMs: typeof next === "object" ? next.retryAtMs : current.nextAttemptAtMs,
              leaseOwner: null,
              leaseExpiresAtMs: null
            }
            w.put(ATTEMPTS, key(tenant.accountId, attemptId), attempt)
            w.put(DELIVERIES, key(tenant.accountId, deliveryId), delivery)
            return Effect.succeed({ delivery, attempt })
          })
        )
      }),
    recordAttempts: (owner, attempts) =>
      Effect.map(
        Effect.forEach(attempts, ({ tenant, deliveryId, outcome }) =>
          service.recordAttempt(tenant, deliveryId, owner, outcome).pipe(
            Effect.as([deliveryId]),
            Effect.catchTags({
              RecordNotFound: () => Effect.succeed([]),
              LeaseLost: () => Effect.succeed([])
            })
          )
        ),
        (recorded) => recorded.flat()
      ),
    get: (tenant, id) => Effect.flatten(store.read(() => find(tenant, id))),
    list: (tenant, request) =>
      MemoryStore.list<WebhookDelivery>(
        store,
        DELIVERIES,
        "webhook_delivery",
        tenant,
        request,
        (d) => request.endpoint === undefined || d.endpointId === request.endpoint
      ),
    listAttempts: (tenant, deliveryId, request) =>
      Effect.zipRight(
        service.get(tenant, deliveryId),
        MemoryStore.list<WebhookAttempt>(
          store,
          ATTEMPTS,
          "webhook_attempt",
          tenant,
          request,
          (a) => a.deliveryId === deliveryId
        )
      )
  }
  return service
})

/** Webhook deliveries, as a service. */
export class WebhookDeliveryRepository extends Context.Tag(
  "@levy/storage/WebhookDeliveryRepository"
)<WebhookDeliveryRepository, WebhookDeliveryRepositoryService>() {
  static readonly layerSql = Layer.effect(WebhookDeliveryRepository, makeSql)
  static readonly layerMemory = Layer.effect(WebhookDeliveryRepository, makeMemory)
}

/** Webhook deliveries and attempts in the in-memory store. */
import { Clock, Effect, Layer } from "effect"
import type { Event } from "../EventRepository.js"
import { Ids } from "../Ids.js"
import { LeaseLost, RecordNotFound } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import {
  statusOf,
  subscribes,
  type WebhookAttempt,
  type WebhookDelivery,
  WebhookDeliveryRepository,
  type WebhookDeliveryRepositoryService
} from "../WebhookDeliveryRepository.js"
import type { WebhookEndpoint } from "../WebhookEndpointRepository.js"
import * as MemoryStore from "./MemoryStore.js"

const DELIVERIES = "webhook_deliveries"
const ATTEMPTS = "webhook_delivery_attempts"
/** Keys (`account/event`) of the events already fanned out: the SQL stores' `fanned_out` column. */
const FANNED_OUT = "events_fanned_out"

export const make = Effect.gen(function* () {
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
              attemptsAtQueue: existing.attempts,
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
            attemptsAtQueue: 0,
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
                  attemptsAtQueue: 0,
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
    purgeAttempts: (before, limit) =>
      MemoryStore.purge<WebhookAttempt>(
        store,
        ATTEMPTS,
        (a) => a.created < before,
        (a) => a.created,
        limit
      ),
    purgeFinished: (before, limit) =>
      MemoryStore.purge<WebhookDelivery>(
        store,
        DELIVERIES,
        (d) => d.status !== "pending" && d.created < before,
        (d) => d.created,
        limit,
        // Its attempts with it, as the foreign key's cascade does in SQL.
        (w, _, d) => {
          for (const [k, a] of store.table<WebhookAttempt>(ATTEMPTS)) {
            if (a.accountId === d.accountId && a.deliveryId === d.id) w.remove(ATTEMPTS, k)
          }
        }
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

export const layer = Layer.effect(WebhookDeliveryRepository, make)

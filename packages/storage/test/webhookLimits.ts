/**
 * Bounds the store keeps on webhook work and on what it stores (docs/design.md §8,
 * docs/storage.md "Retention"), part of the conformance suite: at most 16 endpoints per
 * account and mode, disabled ones included, even when created all at once; a resend counts
 * the delivery's attempts from there; and the retention purge deletes old attempts, finished
 * deliveries, events nothing refers to and processor notifications, in bounded batches,
 * never a delivery still being retried nor its event.
 */
import { expect } from "@effect/vitest"
import { Clock, Effect, Either } from "effect"
import { EventRepository } from "../src/EventRepository.js"
import { timeOrdered } from "../src/Ids.js"
import { ProcessorNotificationRepository } from "../src/ProcessorNotificationRepository.js"
import type { Tenant } from "../src/Tenant.js"
import { WebhookDeliveryRepository } from "../src/WebhookDeliveryRepository.js"
import { MAX_ENDPOINTS, WebhookEndpointRepository } from "../src/WebhookEndpointRepository.js"
import type { EffectIt } from "./chargePhases.js"
import { freshTenants } from "./processorNotifications.js"

const nextId = timeOrdered()
const T0 = 1_760_000_000

const newEndpoint = (tenant: Tenant) => ({
  id: nextId("we"),
  accountId: tenant.accountId,
  livemode: tenant.livemode,
  url: "http://127.0.0.1:9/hook",
  enabledEvents: ["*"],
  status: "enabled" as const,
  description: null,
  created: T0,
  secret: "whsec_dev_limits"
})

/** Runs `effect` with the clock stopped at `ms` (Unix milliseconds). */
const at =
  (ms: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withClock(effect, {
      [Clock.ClockTypeId]: Clock.ClockTypeId,
      unsafeCurrentTimeMillis: () => ms,
      currentTimeMillis: Effect.succeed(ms),
      unsafeCurrentTimeNanos: () => BigInt(ms) * 1_000_000n,
      currentTimeNanos: Effect.succeed(BigInt(ms) * 1_000_000n),
      sleep: Effect.sleep
    })

/** Calls a purge of `limit` rows until it deletes none; the count of each call. */
const drain = (purge: (limit: number) => Effect.Effect<number, unknown>, limit: number) =>
  Effect.gen(function* () {
    const counts: Array<number> = []
    for (;;) {
      const n = yield* purge(limit)
      counts.push(n)
      if (n === 0) return counts
    }
  })

/**
 * Old enough for the purge below, and older than anything another test of the suite writes
 * (they share the store): every row this test dates before `CUTOFF` is its own.
 */
const OLD = 1_000
const CUTOFF = 2_000

export const webhookLimitCases = (it: EffectIt) => {
  it.effect(
    "at most 16 endpoints per account and mode, disabled ones included, even created all at once",
    () =>
      Effect.gen(function* () {
        const [test, live] = yield* freshTenants
        const endpoints = yield* WebhookEndpointRepository
        expect(MAX_ENDPOINTS).toBe(16)
        // Twenty creates at once: exactly sixteen are stored, whatever the interleaving.
        const results = yield* Effect.all(
          Array.from({ length: 20 }, () => Effect.either(endpoints.create(newEndpoint(test)))),
          { concurrency: "unbounded" }
        )
        const made = results.filter(Either.isRight).map((r) => r.right)
        expect(made).toHaveLength(16)
        for (const r of results.filter(Either.isLeft)) {
          expect(r.left).toMatchObject({
            _tag: "LimitReached",
            entity: "webhook_endpoint",
            limit: 16
          })
        }
        expect((yield* endpoints.list(test, { limit: 100 })).data).toHaveLength(16)
        // A disabled endpoint still counts; deleting one makes room for one.
        yield* endpoints.update(test, made[0]!.id, { status: "disabled" })
        const full = yield* Effect.either(endpoints.create(newEndpoint(test)))
        expect(Either.isLeft(full) && full.left._tag).toBe("LimitReached")
        yield* endpoints.remove(test, made[1]!.id)
        yield* endpoints.create(newEndpoint(test))
        const again = yield* Effect.either(endpoints.create(newEndpoint(test)))
        expect(Either.isLeft(again) && again.left._tag).toBe("LimitReached")
        // The other mode has its own sixteen.
        yield* endpoints.create(newEndpoint(live))
      })
  )

  it.effect("a resend counts the delivery's attempts from there", () =>
    Effect.gen(function* () {
      const [test] = yield* freshTenants
      const endpoint = yield* (yield* WebhookEndpointRepository).create(newEndpoint(test))
      const events = yield* EventRepository
      const deliveries = yield* WebhookDeliveryRepository
      const event = yield* events.insert({
        id: nextId("evt"),
        ...test,
        type: "charge.succeeded",
        data: { object: { id: "ch_1" } },
        request: null,
        created: T0
      })
      // Due at 3,000 s: only this test's delivery, whatever else the shared store holds (and
      // after the retention case's cutoff).
      const [queued] = yield* at(3_000_000)(deliveries.enqueue(test, event.id, [endpoint.id]))
      expect(queued).toMatchObject({ attempts: 0, attemptsAtQueue: 0 })
      const owner = `resend-${test.accountId}`
      for (const next of [{ retryAtMs: 3_000_000 }, "failed"] as const) {
        const claimed = yield* at(3_000_000)(deliveries.claim({ owner, limit: 10, leaseMs: 1_000 }))
        expect(claimed.map((d) => d.id)).toContain(queued!.id)
        yield* deliveries.recordAttempt(test, queued!.id, owner, {
          statusCode: 500,
          error: "HTTP 500",
          durationMs: 1,
          next
        })
      }
      const [resent] = yield* deliveries.redeliver(test, event.id, [endpoint.id])
      expect(resent).toMatchObject({ status: "pending", attempts: 2, attemptsAtQueue: 2 })
      expect(yield* deliveries.get(test, queued!.id)).toMatchObject({ attemptsAtQueue: 2 })
    })
  )

  it.effect(
    "retention: old attempts, finished deliveries, unreferenced events and notifications go, in batches; a delivery still retried and its event stay",
    () =>
      Effect.gen(function* () {
        const [test] = yield* freshTenants
        const endpoint = yield* (yield* WebhookEndpointRepository).create(newEndpoint(test))
        const events = yield* EventRepository
        const deliveries = yield* WebhookDeliveryRepository
        const notifications = yield* ProcessorNotificationRepository
        const event = (created: number) =>
          events.insert({
            id: nextId("evt"),
            ...test,
            type: "charge.succeeded",
            data: { object: { id: nextId("ch") } },
            request: null,
            created
          })
        const delivered = yield* event(OLD)
        const retrying = yield* event(OLD)
        const failed = yield* event(OLD)
        const undelivered = yield* event(OLD)
        const young = yield* event(CUTOFF + 1)
        // Queued, attempted and finished long ago (the clock stopped at `OLD`).
        const old = at(OLD * 1000)
        const queued = yield* old(
          Effect.forEach([delivered, retrying, failed], (e) =>
            Effect.map(deliveries.enqueue(test, e.id, [endpoint.id]), (d) => d[0]!)
          )
        )
        const owner = `retention-${test.accountId}`
        const claimed = yield* old(deliveries.claim({ owner, limit: 100, leaseMs: 1_000 }))
        expect(claimed.map((d) => d.id)).toEqual(expect.arrayContaining(queued.map((d) => d.id)))
        const outcomes = ["succeeded", { retryAtMs: 1_900_000_000_000 }, "failed"] as const
        const recorded = yield* old(
          deliveries.recordAttempts(
            owner,
            queued.map((d, i) => ({
              tenant: test,
              deliveryId: d.id,
              outcome: { statusCode: 500, error: "HTTP 500", durationMs: 1, next: outcomes[i]! }
            }))
          )
        )
        expect(recorded).toHaveLength(3)
        const [doneOne, stillRetried, failedOne] = queued as [
          (typeof queued)[0],
          (typeof queued)[0],
          (typeof queued)[0]
        ]
        yield* notifications.record({
          accountId: test.accountId,
          livemode: false,
          processor: "stripe",
          notificationId: "evt_old",
          receivedMs: OLD * 1000
        })
        yield* notifications.record({
          accountId: test.accountId,
          livemode: false,
          processor: "stripe",
          notificationId: "evt_young",
          receivedMs: (CUTOFF + 1) * 1000
        })

        // One row per batch: every batch is bounded, and the purge goes on until none is left.
        expect(yield* drain((n) => deliveries.purgeAttempts(CUTOFF, n), 1)).toEqual([1, 1, 1, 0])
        expect(yield* drain((n) => deliveries.purgeFinished(CUTOFF, n), 1)).toEqual([1, 1, 0])
        expect(yield* drain((n) => events.purge(CUTOFF, n), 2)).toEqual([2, 1, 0])
        // Other cases of the suite record notifications received at 1 ms: counted here too.
        const purged = yield* drain((n) => notifications.purge(CUTOFF * 1000, n), 1)
        expect(purged.at(-1)).toBe(0)
        expect(purged.slice(0, -1).every((n) => n === 1)).toBe(true)

        const present = <A, E>(effect: Effect.Effect<A, E>) =>
          Effect.map(Effect.either(effect), Either.isRight)
        // The delivery still being retried, and its event, are kept; its old attempt is not.
        expect(yield* deliveries.get(test, stillRetried.id)).toMatchObject({ status: "pending" })
        expect((yield* deliveries.listAttempts(test, stillRetried.id, {})).data).toEqual([])
        expect(yield* present(events.get(test, retrying.id))).toBe(true)
        expect(yield* present(events.get(test, young.id))).toBe(true)
        for (const d of [doneOne, failedOne]) {
          expect(yield* present(deliveries.get(test, d.id))).toBe(false)
        }
        for (const e of [delivered, failed, undelivered]) {
          expect(yield* present(events.get(test, e.id))).toBe(false)
        }
        // A purged notification is new again; the young one is still a redelivery.
        const again = (notificationId: string) =>
          notifications.record({
            accountId: test.accountId,
            livemode: false,
            processor: "stripe",
            notificationId,
            receivedMs: Date.now()
          })
        expect(yield* again("evt_old")).toBe(true)
        expect(yield* again("evt_young")).toBe(false)
        // A purged event is never fanned out later: the young one is, the others are gone.
        while ((yield* deliveries.fanOut(10_000)).events > 0) {}
        const left = (yield* deliveries.list(test, { limit: 100 })).data
        expect(left.map((d) => d.eventId).sort()).toEqual([retrying.id, young.id].sort())
      })
  )
}

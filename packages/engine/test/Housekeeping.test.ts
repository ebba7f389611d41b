/**
 * The background sweep (Housekeeping.ts): expired idempotency records, and records past their
 * retention (docs/storage.md "Retention"), on the memory store under the test clock. The
 * purges themselves are checked on every store by the storage conformance suite.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  AccountRepository,
  EventRepository,
  IdempotencyRepository,
  Ids,
  ProcessorNotificationRepository,
  Storage,
  Tenant,
  WebhookDeliveryRepository,
  WebhookEndpointRepository
} from "@levy/storage"
import { Clock, ConfigProvider, Duration, Effect, Either, Layer, TestClock } from "effect"
import * as Housekeeping from "../src/Housekeeping.js"

const tenant = Tenant.make("acct_1", false)
const store = Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))

const present = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.either(effect), Either.isRight)

/**
 * At the test clock's now: an event delivered (succeeded), one still being retried, one never
 * delivered, and a processor notification; their ids.
 */
const history = (tag: string) =>
  Effect.gen(function* () {
    const events = yield* EventRepository
    const deliveries = yield* WebhookDeliveryRepository
    const created = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const event = (name: string) =>
      events.insert({
        id: `evt_${tag}_${name}`,
        ...tenant,
        type: "charge.succeeded",
        data: { object: { id: `ch_${tag}_${name}` } },
        request: null,
        created
      })
    const delivered = yield* event("delivered")
    const retried = yield* event("retried")
    const alone = yield* event("alone")
    const [done] = yield* deliveries.enqueue(tenant, delivered.id, ["we_1"])
    const [pending] = yield* deliveries.enqueue(tenant, retried.id, ["we_1"])
    const owner = `owner_${tag}`
    yield* deliveries.claim({ owner, limit: 10, leaseMs: 1000 })
    yield* deliveries.recordAttempts(owner, [
      {
        tenant,
        deliveryId: done!.id,
        outcome: { statusCode: 200, error: null, durationMs: 1, next: "succeeded" }
      },
      {
        tenant,
        deliveryId: pending!.id,
        // Retried for longer than the retention: an operator's horizon may be.
        outcome: { statusCode: 500, error: "HTTP 500", durationMs: 1, next: { retryAtMs: 1e15 } }
      }
    ])
    yield* (yield* ProcessorNotificationRepository).record({
      ...tenant,
      processor: "adyen",
      notificationId: `n_${tag}`,
      receivedMs: yield* Clock.currentTimeMillis
    })
    return { delivered, retried, alone, done: done!, pending: pending! }
  })

/** What of `history(tag)` is still stored. */
const left = (h: Effect.Effect.Success<ReturnType<typeof history>>, tag: string) =>
  Effect.gen(function* () {
    const events = yield* EventRepository
    const deliveries = yield* WebhookDeliveryRepository
    return {
      events: {
        delivered: yield* present(events.get(tenant, h.delivered.id)),
        retried: yield* present(events.get(tenant, h.retried.id)),
        alone: yield* present(events.get(tenant, h.alone.id))
      },
      done: yield* present(deliveries.get(tenant, h.done.id)),
      pending: yield* present(deliveries.get(tenant, h.pending.id)),
      pendingAttempts: (yield* deliveries.listAttempts(tenant, h.pending.id, {})).data.length,
      // Recording it again says whether it was still there (false: a redelivery).
      notificationGone: yield* (yield* ProcessorNotificationRepository).record({
        ...tenant,
        processor: "adyen",
        notificationId: `n_${tag}`,
        receivedMs: 0
      })
    }
  })

const setUp = Effect.gen(function* () {
  yield* (yield* AccountRepository).createAccount({ id: tenant.accountId, name: "h", created: 0 })
  yield* (yield* WebhookEndpointRepository).create({
    id: "we_1",
    ...tenant,
    url: "https://hooks.example.com/x",
    enabledEvents: ["*"],
    status: "enabled",
    description: null,
    created: 0,
    secret: "whsec_dev_h"
  })
})

describe("Housekeeping", () => {
  it.scoped("deletes idempotency records once expired, and only those, on each sweep", () =>
    Effect.gen(function* () {
      const idempotency = yield* IdempotencyRepository
      const presentKey = (key: string) => present(idempotency.get(tenant, key))
      yield* idempotency.begin(tenant, "old", "fp")
      yield* Effect.forkScoped(Housekeeping.sweep({ every: Duration.hours(1) }))
      yield* TestClock.adjust(Duration.hours(20))
      yield* idempotency.begin(tenant, "young", "fp")
      yield* TestClock.adjust(Duration.hours(5))
      // 25 h: "old" (24 h) has expired and a sweep ran since; "young" has 19 h to go.
      expect(yield* presentKey("old")).toBe(false)
      expect(yield* presentKey("young")).toBe(true)
      yield* TestClock.adjust(Duration.hours(20))
      expect(yield* presentKey("young")).toBe(false)
    }).pipe(Effect.provide(store))
  )

  it.scoped(
    "purges events, finished deliveries, attempts and notifications past the retention (30 days by default); a delivery still retried and its event stay",
    () =>
      Effect.gen(function* () {
        // The second security review, item 6: nothing but idempotency records was ever deleted.
        yield* setUp
        yield* TestClock.adjust(Duration.days(1))
        const old = yield* history("old")
        yield* Effect.forkScoped(Housekeeping.sweep({ every: Duration.hours(12) }))
        yield* TestClock.adjust(Duration.days(30))
        const young = yield* history("young")
        // Exactly 30 days after the old history: nothing is past the retention yet.
        expect((yield* left(old, "old")).events).toEqual({
          delivered: true,
          retried: true,
          alone: true
        })
        yield* TestClock.adjust(Duration.hours(13))
        expect(yield* left(old, "old")).toEqual({
          events: { delivered: false, retried: true, alone: false },
          done: false,
          pending: true,
          pendingAttempts: 0,
          // Processor notifications are kept 35 days whatever the retention.
          notificationGone: false
        })
        expect((yield* left(young, "young")).events).toEqual({
          delivered: true,
          retried: true,
          alone: true
        })
        yield* TestClock.adjust(Duration.days(5))
        expect((yield* left(old, "old")).notificationGone).toBe(true)
      }).pipe(Effect.provide(store))
  )

  it.scoped("the retention is configurable; processor notifications still stay 35 days", () =>
    Effect.gen(function* () {
      yield* setUp
      const h = yield* history("week")
      yield* Effect.forkScoped(
        Housekeeping.sweep({ every: Duration.hours(12), retention: Duration.days(7) })
      )
      yield* TestClock.adjust(Duration.sum(Duration.days(7), Duration.hours(13)))
      expect((yield* left(h, "week")).events).toEqual({
        delivered: false,
        retried: true,
        alone: false
      })
      yield* TestClock.adjust(Duration.days(20))
      expect((yield* left(h, "week")).notificationGone).toBe(false)
      yield* TestClock.adjust(Duration.days(9))
      expect((yield* left(h, "week")).notificationGone).toBe(true)
    }).pipe(Effect.provide(store))
  )

  it.scoped("LEVY_RETENTION_DAYS sets the retention; a value below 1 fails the layer", () =>
    Effect.gen(function* () {
      const withEnv = (days: string) =>
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["LEVY_RETENTION_DAYS", days]])))
      const bad = yield* Effect.either(Layer.build(Housekeeping.layerFromEnv).pipe(withEnv("0")))
      expect(Either.isLeft(bad) && bad.left._tag).toBe("ConfigError")
      yield* setUp
      const h = yield* history("env")
      yield* Layer.build(Housekeeping.layerFromEnv).pipe(withEnv("2"))
      yield* TestClock.adjust(Duration.sum(Duration.days(2), Duration.hours(2)))
      expect((yield* left(h, "env")).events).toEqual({
        delivered: false,
        retried: true,
        alone: false
      })
    }).pipe(Effect.provide(store))
  )

  it.effect("purges in batches of 1,000 until none is left", () =>
    Effect.gen(function* () {
      const events = yield* EventRepository
      yield* Effect.forEach(
        Array.from({ length: 2_345 }, (_, i) => i),
        (i) =>
          events.insert({
            id: `evt_batch_${i}`,
            ...tenant,
            type: "charge.succeeded",
            data: {},
            request: null,
            created: 0
          }),
        { discard: true }
      )
      yield* TestClock.adjust(Duration.days(31))
      const deleted = yield* Housekeeping.purgeOld(Housekeeping.DEFAULT_RETENTION)
      expect(deleted.events).toBe(2_345)
      expect((yield* events.list(tenant, { limit: 10 })).data).toEqual([])
    }).pipe(Effect.provide(store))
  )
})

/**
 * The webhook dispatcher (docs/design.md §8): two loops side by side,
 * 1. fan-out: turns new events into deliveries (`WebhookDeliveryRepository.fanOut`: the
 *    outbox is read from storage, so nothing is lost to a crash or restart);
 * 2. delivery: claims due deliveries under a lease (`claim`: `FOR UPDATE SKIP LOCKED`), as
 *    many as it has free slots, and runs each attempt in its own fiber (a slow receiver
 *    holds one slot, not the loop); outcomes are recorded in batches (`recordAttempts`),
 *    which also releases the leases.
 * Each sleeps `pollIntervalMs` when it has nothing to do, unless woken: fan-out by a commit
 * in this process (`Wake`), delivery by new deliveries or freed slots. Several processes may run it against one database: a
 * delivery is held by one at a time, and a dead process's deliveries are claimed again when
 * their leases expire (at least once, never lost).
 *
 * Why fan-out by the dispatcher rather than enqueueing in each writer's transaction: events
 * are written in several places (`ChargeRepository.create`'s single statement, and
 * `EventRepository.insert` from charges, refunds, fee configurations), and will be in more;
 * the `fanned_out` flag, set in the transaction that creates the deliveries, covers every
 * writer, present and future, exactly once and durably, and keeps the request path's
 * transactions short. The cost is one extra query per round, and an endpoint receives the
 * events that are fanned out after it exists (a few hundred milliseconds after commit).
 */
import { hostname } from "node:os"
import {
  type AttemptRecord,
  type Event,
  EventRepository,
  type WebhookDelivery,
  WebhookDeliveryRepository
} from "@levy/storage"
import { Chunk, Effect, FiberSet, Option, Queue } from "effect"
import * as Attempt from "./Attempt.js"
import type { DispatcherConfig } from "./DispatcherConfig.js"
import { makeSignal, Wake } from "./Wake.js"

/** Runs the dispatcher until interrupted (in-flight attempts are interrupted with it). */
export const run = (config: DispatcherConfig) =>
  Effect.scoped(
    Effect.gen(function* () {
      const deliveries = yield* WebhookDeliveryRepository
      const events = yield* EventRepository
      const wake = yield* Wake
      // Deliveries may be due: new ones fanned out, or slots freed.
      const work = yield* makeSignal
      const attempt = yield* Attempt.make
      const fibers = yield* FiberSet.make<void, never>()
      // Unique per dispatcher: the lease holder recorded on each claimed delivery.
      const owner = `${hostname()}/${process.pid}/${Math.random().toString(36).slice(2, 10)}`
      // Only this loop's fiber and its children touch it; JavaScript runs them one at a time.
      let inFlight = 0
      const lowWater = Math.floor(config.concurrency / 2)

      // Attempts are recorded in batches by one fiber: one statement for many deliveries.
      // Until recorded a delivery stays leased, so no other process takes it meanwhile.
      const outcomes = yield* Queue.unbounded<AttemptRecord>()
      const record = (batch: ReadonlyArray<AttemptRecord>) =>
        deliveries.recordAttempts(owner, batch).pipe(
          // Store unavailable: the leases lapse and the deliveries are tried again.
          Effect.catchAllCause((cause) => Effect.logWarning("webhook attempts not recorded", cause))
        )
      const recorder = Effect.forever(
        Effect.flatMap(Queue.takeBetween(outcomes, 1, config.batchSize), (batch) =>
          record(Chunk.toReadonlyArray(batch))
        )
      )
      // On shutdown, what was already sent is still recorded (else it would be sent again).
      yield* Effect.addFinalizer(() =>
        Effect.flatMap(Queue.takeAll(outcomes), (rest) => record(Chunk.toReadonlyArray(rest)))
      )

      const deliver = (d: WebhookDelivery, event: Event | undefined) =>
        attempt(config, d, event).pipe(
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.void,
              onSome: (outcome) =>
                Queue.offer(outcomes, {
                  tenant: { accountId: d.accountId, livemode: d.livemode },
                  deliveryId: d.id,
                  outcome
                })
            })
          ),
          // Store unavailable: the lease lapses and the delivery is tried again.
          Effect.catchAllCause((cause) =>
            Effect.logWarning("webhook attempt failed", cause).pipe(
              Effect.annotateLogs({ delivery: d.id })
            )
          ),
          Effect.ensuring(
            Effect.suspend(() => {
              inFlight--
              // Claim again once half the slots are free: one claim per many deliveries.
              return inFlight === lowWater ? work.signal : Effect.void
            })
          ),
          Effect.asVoid
        )

      /** One fan-out step; whether another should follow at once (a full batch). */
      const fanOut = Effect.gen(function* () {
        const done = yield* deliveries.fanOut(config.fanOutBatchSize)
        if (done.deliveries > 0) yield* work.signal
        return done.events === config.fanOutBatchSize
      })

      /** One delivery round; whether another should follow at once. */
      const round = Effect.gen(function* () {
        const free = config.concurrency - inFlight
        if (free <= 0) return false
        const limit = Math.min(free, config.batchSize)
        const claimed = yield* deliveries.claim({ owner, limit, leaseMs: config.leaseMs })
        // The batch's events in one read.
        const found = yield* events.getMany(
          claimed.map((d) => ({ accountId: d.accountId, livemode: d.livemode, id: d.eventId }))
        )
        const byId = new Map(found.map((e) => [`${e.accountId}/${e.livemode}/${e.id}`, e]))
        for (const d of claimed) {
          inFlight++
          yield* FiberSet.run(
            fibers,
            deliver(d, byId.get(`${d.accountId}/${d.livemode}/${d.eventId}`))
          )
        }
        return claimed.length === limit && inFlight < config.concurrency
      })

      /** Repeats `step` at once while it says so, else after a signal or the poll interval. */
      const loop = (name: string, step: Effect.Effect<boolean, unknown>, signal: typeof work) =>
        Effect.gen(function* () {
          for (;;) {
            const again = yield* step.pipe(
              Effect.catchAllCause((cause) =>
                Effect.as(Effect.logWarning(`webhook ${name} failed`, cause), false)
              )
            )
            if (!again) yield* signal.wait(config.pollIntervalMs)
          }
        })

      yield* Effect.logInfo("webhook dispatcher started").pipe(Effect.annotateLogs({ owner }))
      // Fan-out and delivery run side by side: a burst of new events never holds up
      // deliveries, and slow deliveries never hold up fan-out.
      return yield* Effect.all(
        [loop("fan-out", fanOut, wake), loop("delivery", round, work), recorder],
        { concurrency: "unbounded", discard: true }
      ).pipe(Effect.zipRight(Effect.never))
    })
  )

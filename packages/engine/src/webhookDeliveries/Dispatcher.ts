/**
 * The webhook dispatcher (docs/design.md §8): two loops side by side,
 * 1. fan-out: turns new events into deliveries (`WebhookDeliveryRepository.fanOut`: the
 *    outbox is read from storage, so nothing is lost to a crash or restart);
 * 2. delivery: claims due deliveries under a lease (`claim`: `FOR UPDATE SKIP LOCKED`), as
 *    many as it has free slots, and runs the attempts to each endpoint in a fiber of their
 *    own (`Attempt`: a slow receiver holds its slots, not the loop nor other endpoints);
 *    outcomes are recorded in batches (`recordAttempts`), which also releases the leases.
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
import { type AttemptRecord, EventRepository, WebhookDeliveryRepository } from "@levy/storage"
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
      // Only this loop's fiber, its children and their callbacks touch it; JavaScript runs
      // them one at a time.
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

      /** Frees `n` slots; claims again once half are free: one claim per many deliveries. */
      const release = (n: number) => {
        const before = inFlight
        inFlight -= n
        if (before > lowWater && inFlight <= lowWater) work.unsafeSignal()
      }

      /** The attempts at one claim's deliveries to one endpoint, in one fiber. */
      const deliver = (items: ReadonlyArray<Attempt.Item>) => {
        let left = items.length
        const done: Attempt.Done = (d, outcome) => {
          // After the group ended (interrupted), its slots are already free.
          if (left === 0) return
          left--
          if (Option.isSome(outcome)) {
            outcomes.unsafeOffer({
              tenant: { accountId: d.accountId, livemode: d.livemode },
              deliveryId: d.id,
              outcome: outcome.value
            })
          }
          release(1)
        }
        return attempt(config, items, done).pipe(
          // Store unavailable: the leases lapse and the deliveries are tried again.
          Effect.catchAllCause((cause) =>
            Effect.logWarning("webhook attempts failed", cause).pipe(
              Effect.annotateLogs({ deliveries: items.map((i) => i.delivery.id).join(",") })
            )
          ),
          Effect.ensuring(
            Effect.sync(() => {
              const rest = left
              left = 0
              if (rest > 0) release(rest)
            })
          )
        )
      }

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
        // One group, and one fiber, per endpoint: its deliveries share the endpoint's read
        // and URL check, and a slow endpoint holds up only its own.
        const groups = new Map<string, Array<Attempt.Item>>()
        for (const d of claimed) {
          const key = `${d.accountId}/${d.livemode}/${d.endpointId}`
          const item = { delivery: d, event: byId.get(`${d.accountId}/${d.livemode}/${d.eventId}`) }
          const group = groups.get(key)
          if (group === undefined) groups.set(key, [item])
          else group.push(item)
        }
        inFlight += claimed.length
        for (const group of groups.values()) yield* FiberSet.run(fibers, deliver(group))
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

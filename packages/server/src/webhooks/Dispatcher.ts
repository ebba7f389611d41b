/**
 * The webhook dispatcher (decisions §8): a loop that, each round,
 * 1. fans out new events into deliveries (`WebhookDeliveryRepository.fanOut`: the outbox is
 *    read from storage, so nothing is lost to a crash or restart), then
 * 2. claims due deliveries under a lease (`claim`: `FOR UPDATE SKIP LOCKED`), as many as it
 *    has free slots, and runs each attempt in its own fiber (a slow receiver holds one slot,
 *    not the loop), recording it with `recordAttempt`, which also releases the lease.
 * It sleeps `pollIntervalMs` when there is nothing to do, unless woken (`Wake`) by a commit
 * in this process or a freed slot. Several processes may run it against one database: a
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
import { type WebhookDelivery, WebhookDeliveryRepository } from "@levy/storage"
import { Effect, FiberSet, Option } from "effect"
import * as Attempt from "./Attempt.js"
import type { DispatcherConfig } from "./DispatcherConfig.js"
import { Wake } from "./Wake.js"

/** Fan-out rounds per loop round at most, so deliveries are never starved by a burst of events. */
const MAX_FAN_OUT_ROUNDS = 10

/** Runs the dispatcher until interrupted (in-flight attempts are interrupted with it). */
export const run = (config: DispatcherConfig) =>
  Effect.scoped(
    Effect.gen(function* () {
      const deliveries = yield* WebhookDeliveryRepository
      const wake = yield* Wake
      const attempt = yield* Attempt.make
      const fibers = yield* FiberSet.make<void, never>()
      // Unique per dispatcher: the lease holder recorded on each claimed delivery.
      const owner = `${hostname()}/${process.pid}/${Math.random().toString(36).slice(2, 10)}`
      // Only this loop's fiber and its children touch it; JavaScript runs them one at a time.
      let inFlight = 0

      const deliver = (d: WebhookDelivery) =>
        attempt(config, d).pipe(
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.void,
              onSome: (outcome) =>
                Effect.asVoid(
                  deliveries.recordAttempt(
                    { accountId: d.accountId, livemode: d.livemode },
                    d.id,
                    owner,
                    outcome
                  )
                )
            })
          ),
          // Endpoint deleted meanwhile (its deliveries too); or our lease lapsed and another
          // process has the delivery: nothing to record either way.
          Effect.catchTags({
            RecordNotFound: () => Effect.void,
            LeaseLost: () => Effect.void
          }),
          // Store unavailable: the lease lapses and the delivery is tried again.
          Effect.catchAllCause((cause) =>
            Effect.logWarning("webhook attempt not recorded", cause).pipe(
              Effect.annotateLogs({ delivery: d.id })
            )
          ),
          Effect.ensuring(
            Effect.suspend(() => {
              inFlight--
              return wake.signal
            })
          )
        )

      const fanOut = Effect.gen(function* () {
        for (let i = 0; i < MAX_FAN_OUT_ROUNDS; i++) {
          const done = yield* deliveries.fanOut(config.batchSize)
          if (done.events < config.batchSize) return
        }
      })

      /** One round; whether another should follow at once. */
      const round = Effect.gen(function* () {
        yield* fanOut
        const free = config.concurrency - inFlight
        if (free <= 0) return false
        const limit = Math.min(free, config.batchSize)
        const claimed = yield* deliveries.claim({ owner, limit, leaseMs: config.leaseMs })
        for (const d of claimed) {
          inFlight++
          yield* FiberSet.run(fibers, deliver(d))
        }
        return claimed.length === limit && inFlight < config.concurrency
      })

      yield* Effect.logInfo("webhook dispatcher started").pipe(Effect.annotateLogs({ owner }))
      for (;;) {
        const again = yield* round.pipe(
          Effect.catchAllCause((cause) =>
            Effect.as(Effect.logWarning("webhook dispatcher round failed", cause), false)
          )
        )
        if (!again) yield* wake.wait(config.pollIntervalMs)
      }
    })
  )

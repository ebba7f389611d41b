/**
 * What a running server tidies in the background: idempotency records are kept 24 hours
 * (docs/design.md §7); once expired they are only replaced on reuse, so without a sweep the table
 * grows with every key ever sent. Several processes may sweep at once: a purge deletes only
 * expired rows, so running it twice is harmless.
 */
import { IdempotencyRepository } from "@levy/storage"
import { Duration, Effect, Layer, Schedule } from "effect"

/** How often expired idempotency records are deleted by default: every hour. */
export const DEFAULT_EVERY = Duration.hours(1)

/** Deletes expired idempotency records now and then every `every`; a failed sweep waits for the next. */
export const sweep = (every: Duration.DurationInput = DEFAULT_EVERY) =>
  Effect.gen(function* () {
    const idempotency = yield* IdempotencyRepository
    const once = idempotency.purgeExpired.pipe(
      Effect.tap((count) =>
        count > 0 ? Effect.logInfo("expired idempotency records deleted", { count }) : Effect.void
      ),
      Effect.catchAll((error) => Effect.logWarning("idempotency sweep failed", error))
    )
    return yield* Effect.repeat(once, Schedule.spaced(every))
  })

/** The sweep in a background fiber for the layer's lifetime. */
export const layer = (every?: Duration.DurationInput) =>
  Layer.scopedDiscard(Effect.forkScoped(sweep(every)))

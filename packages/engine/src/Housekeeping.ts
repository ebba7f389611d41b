/**
 * What a running server tidies in the background, every hour by default:
 * - idempotency records, kept 24 hours (docs/design.md §7): once expired they are only
 *   replaced on reuse, so without a sweep the table grows with every key ever sent;
 * - the retention purge (docs/storage.md "Retention"): events, webhook deliveries and their
 *   attempts, and processor notifications older than the retention (30 days by default,
 *   `LEVY_RETENTION_DAYS`), so that what one event costs in storage has an end. A delivery
 *   still being retried is never deleted, nor its event; processor notifications are kept at
 *   least `NOTIFICATION_RETENTION`, longer than any processor redelivers one.
 * Every purge deletes in batches of `BATCH` rows, oldest first, each its own short statement.
 * Several processes may sweep at once: each deletes only what is old enough, so running it
 * twice is harmless.
 */
import {
  EventRepository,
  IdempotencyRepository,
  ProcessorNotificationRepository,
  WebhookDeliveryRepository
} from "@levy/storage"
import { Clock, Duration, Effect, Layer, Option, Schedule } from "effect"
import { positive } from "./settings/EnvSetting.js"

/** How often the sweep runs by default: every hour. */
export const DEFAULT_EVERY = Duration.hours(1)

/** How long events, deliveries and attempts are kept by default (Stripe keeps events 30 days). */
export const DEFAULT_RETENTION = Duration.days(30)

/**
 * Processor notifications are kept at least this long, whatever the retention: a record
 * deleted while the processor may still redeliver its notification would let the redelivery
 * apply again. Adyen retries for up to 30 days, Stripe for up to 3 (docs/processors.md
 * "Processor webhooks"); 5 days more for a retry queue that started late.
 */
export const NOTIFICATION_RETENTION = Duration.days(35)

/** Rows per purge statement at most. */
export const BATCH = 1000

/** Runs `purge` in batches until a batch is not full; how many rows it deleted in all. */
const drain = <E, R>(purge: (limit: number) => Effect.Effect<number, E, R>) =>
  Effect.iterate(
    { total: 0, last: BATCH },
    {
      while: ({ last }) => last === BATCH,
      body: ({ total }) => Effect.map(purge(BATCH), (n) => ({ total: total + n, last: n }))
    }
  ).pipe(Effect.map(({ total }) => total))

/** Deletes what is older than `retention` (notifications: older than the longer of the two). */
export const purgeOld = (retention: Duration.DurationInput) =>
  Effect.gen(function* () {
    const deliveries = yield* WebhookDeliveryRepository
    const events = yield* EventRepository
    const notifications = yield* ProcessorNotificationRepository
    const nowMs = yield* Clock.currentTimeMillis
    const keepMs = Duration.toMillis(retention)
    const before = Math.floor((nowMs - keepMs) / 1000)
    // Attempts first, then the deliveries done with, then the events none refers to any more.
    const deleted = {
      attempts: yield* drain((n) => deliveries.purgeAttempts(before, n)),
      deliveries: yield* drain((n) => deliveries.purgeFinished(before, n)),
      events: yield* drain((n) => events.purge(before, n)),
      notifications: yield* drain((n) =>
        notifications.purge(nowMs - Math.max(keepMs, Duration.toMillis(NOTIFICATION_RETENTION)), n)
      )
    }
    if (Object.values(deleted).some((n) => n > 0)) {
      yield* Effect.logInfo("records past their retention deleted", deleted)
    }
    return deleted
  })

const purgeExpiredIdempotency = Effect.gen(function* () {
  const count = yield* (yield* IdempotencyRepository).purgeExpired
  if (count > 0) yield* Effect.logInfo("expired idempotency records deleted", { count })
})

/** What the sweep is told: how often, and how long records are kept. */
export interface Settings {
  readonly every?: Duration.DurationInput | undefined
  readonly retention?: Duration.DurationInput | undefined
}

/** Sweeps now and then every `every`; a failed sweep (the store down) waits for the next. */
export const sweep = (settings: Settings = {}) =>
  Effect.repeat(
    Effect.all(
      [
        purgeExpiredIdempotency.pipe(
          Effect.catchAll((error) => Effect.logWarning("idempotency sweep failed", error))
        ),
        purgeOld(settings.retention ?? DEFAULT_RETENTION).pipe(
          Effect.catchAll((error) => Effect.logWarning("retention purge failed", error))
        )
      ],
      { discard: true }
    ),
    Schedule.spaced(settings.every ?? DEFAULT_EVERY)
  )

/** The sweep in a background fiber for the layer's lifetime. */
export const layer = (settings?: Settings) =>
  Layer.scopedDiscard(Effect.forkScoped(sweep(settings)))

/** The sweep with the retention of `LEVY_RETENTION_DAYS` (whole days, at least 1; default 30). */
export const layerFromEnv = Layer.unwrapEffect(
  Effect.map(positive("LEVY_RETENTION_DAYS"), (days) =>
    layer({
      retention: Option.match(days, { onNone: () => DEFAULT_RETENTION, onSome: Duration.days })
    })
  )
)

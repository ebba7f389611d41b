/**
 * The recovery sweeper (docs/design.md §4, docs/processors.md "How recovery works"): charges
 * and refunds left `pending` by a request that died or met an unanswering processor are
 * settled in the background. It takes only records whose lease expired (`ChargePhases.LEASE_MS`
 * after the request last held them, far beyond the longest a request runs), so it never races
 * a live request; the store hands each record to one sweeper per lease, so several processes
 * may sweep at once. For each: the processor is asked first (`lookup`: found → settle with that
 * outcome; none → the call is repeated with the same key, which cannot pay twice); a processor
 * that does not answer leaves the record for the next round. Settling stores the response the
 * request would have answered, so the client's retry with its Idempotency-Key replays it.
 */
import { ChargeRepository, type StoredCharge, type StoredRefund, Tenant } from "@levy/storage"
import { Config, Duration, Effect, Layer, Option, Schedule } from "effect"
import { PaymentProcessors } from "../processors/PaymentProcessors.js"
import * as RefundPhases from "../refunds/RefundPhases.js"
import * as ChargePhases from "./ChargePhases.js"

/** How often the sweeper runs by default (`LEVY_RECOVERY_INTERVAL`, seconds). */
export const DEFAULT_EVERY = Duration.seconds(15)

/** Records taken per round and kind; the rest wait for the next round. */
const BATCH = 50

/** What one round settled (records left pending are not counted). */
export interface Swept {
  readonly charges: number
  readonly refunds: number
}

/** The processor of a record's tenant, when it is the one the record was made with. */
const processorOf = (record: StoredCharge | StoredRefund) =>
  Effect.gen(function* () {
    const processors = yield* PaymentProcessors
    const found = yield* processors.forTenant(Tenant.make(record.accountId, record.livemode))
    if (
      Option.isNone(found) ||
      (record.processor !== null && found.value.name !== record.processor)
    ) {
      yield* Effect.logWarning("pending record's processor is not configured; left pending", {
        id: record.id,
        processor: record.processor
      })
      return Option.none()
    }
    return found
  })

/** Settles one pending charge, or leaves it (logged) for the next round. */
const recoverCharge = (charge: StoredCharge) =>
  Effect.gen(function* () {
    const processor = yield* processorOf(charge)
    if (Option.isNone(processor)) return false
    const after = yield* ChargePhases.run(processor.value, charge, true)
    if (after.status !== "pending") {
      yield* Effect.logInfo("pending charge recovered", { id: charge.id, status: after.status })
    }
    return after.status !== "pending"
  }).pipe(
    Effect.catchAll((error) =>
      Effect.as(Effect.logWarning("charge recovery deferred", { id: charge.id, error }), false)
    )
  )

/** Settles one pending refund, or leaves it (logged) for the next round. */
const recoverRefund = (refund: StoredRefund) =>
  Effect.gen(function* () {
    const processor = yield* processorOf(refund)
    if (Option.isNone(processor)) return false
    const charges = yield* ChargeRepository
    const charge = (yield* charges.get(refund, refund.chargeId)) as StoredCharge
    const after = yield* RefundPhases.run(processor.value, refund, charge)
    yield* Effect.logInfo("pending refund recovered", {
      id: refund.id,
      status: after.refund.status
    })
    return true
  }).pipe(
    Effect.catchAll((error) =>
      Effect.as(Effect.logWarning("refund recovery deferred", { id: refund.id, error }), false)
    )
  )

/** One round: takes the due pending charges and refunds and settles what it can. */
export const sweepOnce = (options: { readonly now?: number } = {}) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    const claim = { now: options.now ?? Date.now(), leaseMs: ChargePhases.LEASE_MS, limit: BATCH }
    const dueCharges = yield* charges.claimPendingCharges(claim)
    const settledCharges = yield* Effect.forEach(dueCharges, recoverCharge)
    const dueRefunds = yield* charges.claimPendingRefunds(claim)
    const settledRefunds = yield* Effect.forEach(dueRefunds, recoverRefund)
    return {
      charges: settledCharges.filter(Boolean).length,
      refunds: settledRefunds.filter(Boolean).length
    } satisfies Swept
  })

/** Sweeps now and then every `every`; a failed round (the store down) waits for the next. */
export const sweep = (every: Duration.DurationInput = DEFAULT_EVERY) =>
  Effect.repeat(
    sweepOnce().pipe(Effect.catchAll((error) => Effect.logWarning("recovery sweep failed", error))),
    Schedule.spaced(every)
  )

/** The sweeper in a background fiber for the layer's lifetime. */
export const layer = (every?: Duration.DurationInput) =>
  Layer.scopedDiscard(Effect.forkScoped(sweep(every)))

/** The sweeper every `LEVY_RECOVERY_INTERVAL` seconds (default 15). */
export const layerFromEnv = Layer.unwrapEffect(
  Effect.map(
    Config.integer("LEVY_RECOVERY_INTERVAL").pipe(
      Config.validate({ message: "must be at least 1 (seconds)", validation: (n) => n >= 1 }),
      Config.option
    ),
    (seconds) =>
      layer(Option.match(seconds, { onNone: () => DEFAULT_EVERY, onSome: Duration.seconds }))
  )
)

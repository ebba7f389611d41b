/**
 * The recovery sweeper (docs/design.md §4, docs/processors.md "How recovery works"): charges
 * and refunds left `pending` by a request that died or met an unanswering processor are
 * settled in the background. It takes only records whose lease expired (`ChargePhases.LEASE_MS`
 * after the request last held them, far beyond the longest a request runs), so it never races
 * a live request; the store hands each record to one sweeper per lease, so several processes
 * may sweep at once. For each: the processor is asked first (`lookup`, `lookupRefund`: found →
 * settle with that outcome; none → the call is repeated with the same key, which cannot pay
 * twice); a processor that does not answer leaves the record for the next round. A processor
 * that cannot be asked is trusted only inside its idempotency key window (KeyWindow.ts): a
 * record older than that is held for manual review (an error log line, and never taken again)
 * instead of repeating a call that could move money twice. Settling stores the response the
 * request would have answered, so the client's retry with its Idempotency-Key replays it.
 */
import { ChargeRepository, type StoredCharge, type StoredRefund, Tenant } from "@levy/storage"
import { Config, Duration, Effect, Layer, Option, Schedule } from "effect"
import * as ChargePhases from "../charges/ChargePhases.js"
import * as KeyWindow from "../processors/KeyWindow.js"
import type { PaymentProcessor } from "../processors/PaymentProcessor.js"
import { PaymentProcessors } from "../processors/PaymentProcessors.js"
import * as RefundPhases from "../refunds/RefundPhases.js"

/** How often the sweeper runs by default (`LEVY_RECOVERY_INTERVAL`, seconds). */
export const DEFAULT_EVERY = Duration.seconds(15)

/** Records taken per round and kind; the rest wait for the next round. */
const BATCH = 50

/** What one round settled (records left pending are not counted). */
export interface Swept {
  readonly charges: number
  readonly refunds: number
}

/**
 * The lease of a record held for manual review: never due, so no sweeper takes it again (a
 * processor notification, or a client's retry that renews the lease, still reaches it). How
 * a held record is told from the others: `recoverAfterMs` (SQL `recover_after`) equals this.
 */
export const HELD_FOR_REVIEW = Number.MAX_SAFE_INTEGER

/** Whether a pending record is held for manual review. */
export const isHeldForReview = (record: StoredCharge | StoredRefund): boolean =>
  record.status === "pending" && record.recoverAfterMs === HELD_FOR_REVIEW

/**
 * Holds a pending record whose call the key window guard will not repeat (KeyWindow.ts): says
 * so at error level, with what to check in the processor's dashboard, and takes it out of the
 * sweeper's rounds. Whether this round held it: past the window, and no lookup.
 */
const heldForReview = (
  processor: PaymentProcessor,
  kind: KeyWindow.Kind,
  record: StoredCharge | StoredRefund,
  now: number
) =>
  Effect.gen(function* () {
    const createdMs = record.created * 1000
    if (KeyWindow.step(processor, kind, { resumed: true, createdMs, now }) !== "review") {
      return false
    }
    const charges = yield* ChargeRepository
    const tenant = Tenant.make(record.accountId, record.livemode)
    yield* kind === "charge"
      ? charges.leaseCharge(tenant, record.id, HELD_FOR_REVIEW)
      : charges.leaseRefund(tenant, record.id, HELD_FOR_REVIEW)
    const key = record.processorKey ?? `levy_${record.id}`
    yield* Effect.logError(
      `pending ${kind} needs manual review: it is older than ${processor.name}'s idempotency key window and ${processor.name} cannot be asked whether it went through, so recovery will not repeat it; left pending and not retried automatically`,
      {
        account: record.accountId,
        livemode: record.livemode,
        [kind]: record.id,
        processor: processor.name,
        processorKey: key,
        created: new Date(createdMs).toISOString(),
        keyWindow: Duration.format(processor.idempotency.keyWindow),
        check: KeyWindow.whatToCheck(processor, kind, key)
      }
    )
    return true
  })

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

/** Settles one pending charge, or leaves it (logged) for the next round or for a person. */
const recoverCharge = (now: number) => (charge: StoredCharge) =>
  Effect.gen(function* () {
    const processor = yield* processorOf(charge)
    if (Option.isNone(processor)) return false
    if (yield* heldForReview(processor.value, "charge", charge, now)) return false
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

/** Settles one pending refund, or leaves it (logged) for the next round or for a person. */
const recoverRefund = (now: number) => (refund: StoredRefund) =>
  Effect.gen(function* () {
    const processor = yield* processorOf(refund)
    if (Option.isNone(processor)) return false
    if (yield* heldForReview(processor.value, "refund", refund, now)) return false
    const charges = yield* ChargeRepository
    const charge = (yield* charges.get(refund, refund.chargeId)) as StoredCharge
    const after = yield* RefundPhases.run(processor.value, refund, charge, true)
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
    const settledCharges = yield* Effect.forEach(dueCharges, recoverCharge(claim.now))
    const dueRefunds = yield* charges.claimPendingRefunds(claim)
    const settledRefunds = yield* Effect.forEach(dueRefunds, recoverRefund(claim.now))
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

/**
 * Refunds from processor notifications (docs/design.md §8). A refund Levy made is recognised
 * by its processor reference, or by the idempotency key it was made with: a settled one
 * changes nothing, a pending one is settled by it; the base payment's refund that unwinds a
 * failed `separate` charge is Levy's too.
 * Any other refund of a charge Levy made was made in the processor's dashboard: it becomes a
 * Levy refund (`re_…`) with the fee part pro rata (RefundSplit.ts), added to the charge's
 * refunded amounts, with `charge.refunded`.
 */
import { Charge as ChargeApi } from "@levy/api"
import {
  ChargeRepository,
  type EventRepository,
  Ids,
  type Json,
  ProcessorNotificationRepository,
  type StorageError,
  type StoredCharge,
  type StoredRefund,
  Tenant
} from "@levy/storage"
import { Effect, Option, Schema } from "effect"
import * as ChargeWire from "../charges/ChargeWire.js"
import * as Outbox from "../events/Outbox.js"
import type { RefundMade } from "../processors/PaymentProcessor.js"
import * as RefundPhases from "../refunds/RefundPhases.js"
import type { Change } from "./Change.js"
import * as RefundSplit from "./RefundSplit.js"

const encodeCharge = Schema.encodeSync(ChargeApi.Charge)
const now = () => Math.floor(Date.now() / 1000)

/** The suffixes phases give the keys of a charge's other processor calls (charges/Collect.ts). */
const FEE_SUFFIX = ":fee"
const UNWIND_SUFFIX = ":unwind"

/** The key of the Levy refund a processor refund's key belongs to. */
const refundKeyOf = (key: string) =>
  key.endsWith(FEE_SUFFIX) ? key.slice(0, -FEE_SUFFIX.length) : key

/**
 * Levy's own refund this one is: found by its reference, or by the key it was made with
 * (`none` when it is not Levy's; `unwind` for the base given back after a failed fee part).
 */
const levysRefund = (tenant: Tenant.Tenant, n: RefundMade) =>
  Effect.gen(function* () {
    const repo = yield* ProcessorNotificationRepository
    const byReference = yield* repo.refundByReference(tenant, n.refundReference)
    if (Option.isSome(byReference) || n.idempotencyKey === null) return byReference
    if (n.idempotencyKey.endsWith(UNWIND_SUFFIX)) return "unwind" as const
    return yield* repo.refundByProcessorKey(tenant, refundKeyOf(n.idempotencyKey))
  })

/**
 * Settles Levy's pending refund with the processor's word that it was made, as its own phase 3
 * does (refunds/RefundPhases.ts: `charge.refunded` and the stored response); Levy's request or
 * the sweeper then finds it settled. A `separate` charge's refund is two processor refunds, and
 * one whose amount differs is not this one alone: both are left to Levy's own phases.
 */
const settlePending = (refund: StoredRefund, charge: StoredCharge, n: RefundMade) =>
  Effect.gen(function* () {
    if (feePaymentOf(charge, n.paymentReference) !== undefined || n.amount !== refund.amount) {
      return "known" as const
    }
    const eventId = yield* Effect.flatMap(Ids, (ids) => ids.make("evt"))
    const charges = yield* ChargeRepository
    const settled = yield* charges
      .settleRefund(
        refund,
        refund.id,
        {
          status: "succeeded",
          amount: refund.amount,
          feeAmount: refund.feeAmount,
          processorReference: n.refundReference
        },
        (r, c) => ({
          events: [
            {
              id: eventId,
              accountId: c.accountId,
              livemode: c.livemode,
              type: "charge.refunded",
              data: { object: encodeCharge(ChargeWire.toWire(c)) as unknown as Json },
              request: r.idempotencyKey === null ? null : { idempotencyKey: r.idempotencyKey },
              created: now()
            }
          ],
          idempotency:
            r.idempotencyKey === null
              ? undefined
              : {
                  key: r.idempotencyKey,
                  fingerprint: r.requestFingerprint,
                  response: RefundPhases.responseOf(r, c.currency)
                }
        })
      )
      .pipe(Effect.catchTag("RecordNotFound", Effect.die))
    return settled.won ? ("applied" as const) : ("known" as const)
  })

/** Which payment of a `separate` charge was refunded; undefined for `direct` billing. */
const feePaymentOf = (charge: StoredCharge, paymentReference: string): boolean | undefined => {
  const details = ChargeWire.detailsOf(charge)
  if (details.billingMode !== "separate") return undefined
  return details.transactions?.find((t) => t.reference === paymentReference)?.part === "fee"
}

/** Books a refund made in the processor's dashboard on `charge`. */
const book = (processor: string, charge: StoredCharge, n: RefundMade) =>
  Effect.gen(function* () {
    const tenant = Tenant.make(charge.accountId, charge.livemode)
    const parts = RefundSplit.split(charge, n.amount, feePaymentOf(charge, n.paymentReference))
    if (parts === undefined || n.currency.toLowerCase() !== charge.currency.toLowerCase()) {
      // The processor moved money Levy's books say it could not: someone must look.
      yield* Effect.logError("a processor refund does not fit its charge; not booked", {
        charge: charge.id,
        refund: n.refundReference,
        amount: n.amount,
        currency: n.currency
      })
      return "known" as const
    }
    const id = yield* Effect.flatMap(Ids, (ids) => ids.make("re"))
    const created = now()
    const done = yield* Effect.flatMap(ChargeRepository, (charges) =>
      charges.refund({
        id,
        accountId: charge.accountId,
        livemode: charge.livemode,
        chargeId: charge.id,
        amount: parts.total,
        feeAmount: parts.fee,
        reason: null,
        status: "succeeded",
        created,
        metadata: {},
        processor,
        processorReference: n.refundReference
      })
    ).pipe(
      // The charge is locked in this transaction and the split fits what it has left.
      Effect.catchTags({
        RecordNotFound: Effect.die,
        RefundTooLarge: Effect.die,
        StaleCharge: Effect.die,
        DuplicateRecord: Effect.die
      })
    )
    yield* Outbox.record(
      tenant,
      "charge.refunded",
      encodeCharge(ChargeWire.toWire(done.charge)),
      created
    )
    return "applied" as const
  })

/** Applies a processor's refund notification to `tenant`'s state. */
export const apply = (
  tenant: Tenant.Tenant,
  processor: string,
  n: RefundMade
): Effect.Effect<
  Change,
  StorageError,
  ProcessorNotificationRepository | ChargeRepository | Ids | EventRepository
> =>
  Effect.gen(function* () {
    const repo = yield* ProcessorNotificationRepository
    const charge = yield* repo.chargeByReference(tenant, n.paymentReference)
    if (Option.isNone(charge)) return "unknown_payment"
    const levys = yield* levysRefund(tenant, n)
    if (levys === "unwind") return "known"
    if (Option.isNone(levys)) return yield* book(processor, charge.value, n)
    return levys.value.status === "pending"
      ? yield* settlePending(levys.value, charge.value, n)
      : "known"
  })

/**
 * Phases 2 and 3 of a refund (docs/design.md §4), shared by the request, a retry with the same
 * Idempotency-Key and the recovery sweeper. The refund was written `pending` with its
 * processor key, its amounts reserved on the charge; the processor gives the money back under
 * that key (a `separate` charge's two payments each give back their part: the base under
 * `<key>`, the fee under `<key>:fee`), and the refund settles with `charge.refunded` and the
 * stored response — or fails, releasing the reservation, when the processor refused. Each part
 * goes through the key window guard (KeyWindow.ts): a resumed refund asks the processor first
 * (`lookupRefund`) and is repeated under its key only when the processor has none, or, where it
 * cannot be asked, only inside the processor's key window.
 */
import { Refund as RefundApi } from "@levy/api"
import {
  ChargeRepository,
  type Event,
  Ids,
  type Json,
  type RefundSettlement,
  StorageError,
  type StoredCharge,
  type StoredRefund,
  type StoredResponse,
  storedFailure,
  storedSuccess
} from "@levy/storage"
import { Effect, Schema } from "effect"
import * as ChargeWire from "../charges/ChargeWire.js"
import * as TestCrash from "../charges/TestCrash.js"
import * as KeyWindow from "../processors/KeyWindow.js"
import type { PaymentProcessor, ProcessorUnavailable } from "../processors/PaymentProcessor.js"
import * as RefundWire from "./RefundWire.js"

const encodeRefund = Schema.encodeSync(RefundApi.Refund)
const now = () => Math.floor(Date.now() / 1000)

/** One part of a refund at the processor: which payment, how much, under which key. */
interface Part {
  readonly key: string
  readonly paymentReference: string
  readonly amount: number
  readonly fee: number
}

/** The payment a part of the charge was collected in (`amount` or `fee`). */
const referenceOf = (charge: StoredCharge, part: "amount" | "fee") => {
  const details = ChargeWire.detailsOf(charge)
  return (
    details.transactions?.find((t) => t.part === part)?.reference ??
    charge.processorReference ??
    charge.id
  )
}

/** The processor calls of a refund: one for `direct` billing, one per payment for `separate`. */
export const partsOf = (refund: StoredRefund, charge: StoredCharge): ReadonlyArray<Part> => {
  const key = refund.processorKey ?? `levy_${refund.id}`
  const separate = ChargeWire.detailsOf(charge).billingMode === "separate"
  if (!separate) {
    return [
      {
        key,
        paymentReference: referenceOf(charge, "amount"),
        amount: refund.amount,
        fee: refund.feeAmount
      }
    ]
  }
  const base = refund.amount - refund.feeAmount
  return [
    { key, paymentReference: referenceOf(charge, "amount"), amount: base, fee: 0 },
    {
      key: `${key}:fee`,
      paymentReference: referenceOf(charge, "fee"),
      amount: refund.feeAmount,
      fee: refund.feeAmount
    }
  ].filter((p) => p.amount > 0)
}

/**
 * The response a settled refund's request stores for its key: the refund, or its failure (read
 * back from the refund on replay).
 */
export const responseOf = (refund: StoredRefund, currency: string): StoredResponse =>
  refund.status === "failed"
    ? storedFailure("refund")
    : storedSuccess(encodeRefund(RefundWire.toWire(refund, currency)) as unknown as Json)

/** Gives back the parts (each found first when resuming); what the processor kept is the settlement. */
const collect = (
  processor: PaymentProcessor,
  refund: StoredRefund,
  charge: StoredCharge,
  resumed: boolean
): Effect.Effect<RefundSettlement, ProcessorUnavailable> =>
  Effect.gen(function* () {
    let amount = 0
    let feeAmount = 0
    let reference: string | null = null
    let refused: { code: string; message: string } | undefined
    for (const part of partsOf(refund, charge)) {
      const outcome = yield* KeyWindow.once({
        processor,
        kind: "refund",
        key: part.key,
        resumed,
        createdMs: refund.created * 1000,
        lookup: processor.lookupRefund({
          idempotencyKey: part.key,
          paymentReference: part.paymentReference
        }),
        call: processor
          .refund({
            idempotencyKey: part.key,
            paymentReference: part.paymentReference,
            amount: part.amount,
            currency: charge.currency
          })
          .pipe(
            Effect.catchTag("ProcessorRefused", (e) =>
              Effect.succeed({
                _tag: "RefundFailed" as const,
                code: e.code ?? "processor_refused",
                message: e.message
              })
            )
          )
      })
      if (outcome._tag === "Refunded") {
        amount += part.amount
        feeAmount += part.fee
        reference ??= outcome.reference
      } else {
        refused ??= { code: outcome.code, message: outcome.message }
      }
    }
    return amount > 0
      ? { status: "succeeded", amount, feeAmount, processorReference: reference }
      : {
          status: "failed",
          amount: 0,
          feeAmount: 0,
          processorReference: null,
          failureCode: refused?.code ?? "refund_failed",
          failureMessage: refused?.message ?? "refused"
        }
  })

/**
 * Phases 2 and 3 for a pending refund: the refund and its charge as stored afterwards, settled
 * by this call or by whoever came first. `resumed`: after a crash or an unanswered call (look
 * the refund up before repeating it). Fails `ProcessorUnavailable` (the refund stays pending,
 * its amounts reserved) or `StorageError`.
 */
export const run = (
  processor: PaymentProcessor,
  refund: StoredRefund,
  charge: StoredCharge,
  resumed: boolean
): Effect.Effect<
  { readonly refund: StoredRefund; readonly charge: StoredCharge },
  ProcessorUnavailable | StorageError,
  ChargeRepository | Ids
> =>
  Effect.gen(function* () {
    const settlement = yield* collect(processor, refund, charge, resumed)
    yield* TestCrash.afterProcessor(refund.idempotencyKey)
    const charges = yield* ChargeRepository
    const eventId = yield* Effect.flatMap(Ids, (ids) => ids.make("evt"))
    const settled = yield* charges.settleRefund(refund, refund.id, settlement, (r, c) => {
      const events: Array<Event> =
        r.status === "succeeded"
          ? [
              {
                id: eventId,
                accountId: c.accountId,
                livemode: c.livemode,
                type: "charge.refunded",
                data: { object: ChargeWire.toWire(c) as unknown as Json },
                request: r.idempotencyKey === null ? null : { idempotencyKey: r.idempotencyKey },
                created: now()
              }
            ]
          : []
      return {
        events,
        idempotency:
          r.idempotencyKey === null
            ? undefined
            : {
                key: r.idempotencyKey,
                fingerprint: r.requestFingerprint,
                response: responseOf(r, c.currency)
              }
      }
    })
    return settled.record
  }).pipe(
    Effect.catchTag("RecordNotFound", (e) =>
      Effect.fail(new StorageError({ message: `pending refund ${e.id} vanished` }))
    )
  )

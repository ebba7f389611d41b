/**
 * Phase 2 of a charge (docs/design.md §4): the processor calls, each with a key fixed in the
 * pending row. `direct` billing is one payment of the total under the charge's key; `separate`
 * is the base under `<key>` and the fee under `<key>:fee`. When the fee part fails after the
 * base was taken, the base is refunded under `<key>:unwind` and the charge fails: a charge
 * never keeps a base without its fee. Each call goes through the key window guard
 * (KeyWindow.ts): a resumed charge asks the processor first (`lookup`, `lookupRefund` for the
 * unwind) and repeats a call with the same key only when the processor has nothing under it,
 * or, where it cannot be asked, only inside the processor's key window.
 *
 * Only `ProcessorUnavailable` fails: the outcome is unknown and the charge stays pending.
 */
import type { Charge as Wire } from "@levy/api"
import { Effect } from "effect"
import * as KeyWindow from "../processors/KeyWindow.js"
import type {
  ChargeOutcome,
  PaymentProcessor,
  ProcessorRefused,
  ProcessorUnavailable,
  SourceInvalid
} from "../processors/PaymentProcessor.js"

/** What to collect, from the pending charge as stored. */
export interface Plan {
  readonly key: string
  readonly source: string
  readonly currency: string
  readonly billingMode: Wire.Charge["billingMode"]
  readonly base: number
  readonly fee: number
  readonly description?: string | undefined
  readonly metadata: Readonly<Record<string, string>>
  /** Resuming after a crash or an unanswered call: look each payment up before repeating it. */
  readonly resumed: boolean
  /** When the charge was written pending (Unix ms): how old its keys can be at most. */
  readonly createdMs: number
}

/** The base refunded after the fee part failed (`separate` billing). */
export type Unwind =
  | { readonly status: "refunded"; readonly reference: string }
  | { readonly status: "failed"; readonly code: string; readonly message: string }

export type Collected =
  | {
      readonly _tag: "Succeeded"
      readonly reference: string
      readonly transactions: ReadonlyArray<Wire.Transaction>
      readonly dispute?: { readonly reason: string } | undefined
    }
  | {
      readonly _tag: "Declined"
      readonly code: string
      readonly message: string
      readonly declineCode: string
      readonly unwind?: Unwind | undefined
    }
  | {
      readonly _tag: "Refused"
      readonly error: ProcessorRefused | SourceInvalid
      readonly unwind?: Unwind | undefined
    }
  | { readonly _tag: "Pending"; readonly reference: string }

type Paid =
  | ChargeOutcome
  | { readonly _tag: "Refused"; readonly error: ProcessorRefused | SourceInvalid }

/** The processor's keys of a charge's payments. */
export const keys = (key: string) => ({ base: key, fee: `${key}:fee`, unwind: `${key}:unwind` })

/** One payment under `key`: found at the processor when resuming, else made (KeyWindow.ts). */
const pay = (
  processor: PaymentProcessor,
  plan: Plan,
  key: string,
  amount: number,
  fee: number
): Effect.Effect<Paid, ProcessorUnavailable> =>
  KeyWindow.once({
    processor,
    kind: "charge",
    key,
    resumed: plan.resumed,
    createdMs: plan.createdMs,
    lookup: processor.lookup(key),
    call: processor
      .charge({
        idempotencyKey: key,
        source: plan.source,
        amount,
        currency: plan.currency,
        fee,
        ...(plan.description === undefined ? {} : { description: plan.description }),
        metadata: plan.metadata
      })
      .pipe(
        Effect.catchTags({
          ProcessorRefused: (error) => Effect.succeed<Paid>({ _tag: "Refused", error }),
          SourceInvalid: (error) => Effect.succeed<Paid>({ _tag: "Refused", error })
        })
      )
  })

/** The outcome of a payment that did not succeed, as the charge's. */
const unsuccessful = (
  paid: Exclude<Paid, { readonly _tag: "Succeeded" }>,
  unwind?: Unwind
): Collected => {
  switch (paid._tag) {
    case "Declined":
      return {
        _tag: "Declined",
        code: paid.code,
        message: paid.message,
        declineCode: paid.declineCode,
        unwind
      }
    case "Refused":
      return { _tag: "Refused", error: paid.error, unwind }
    case "Pending":
      return { _tag: "Pending", reference: paid.reference }
  }
}

/** Refunds the base of a `separate` charge whose fee part failed. */
const unwindBase = (
  processor: PaymentProcessor,
  plan: Plan,
  baseReference: string
): Effect.Effect<Unwind, ProcessorUnavailable> =>
  KeyWindow.once({
    processor,
    kind: "refund",
    key: keys(plan.key).unwind,
    resumed: plan.resumed,
    createdMs: plan.createdMs,
    lookup: processor.lookupRefund({
      idempotencyKey: keys(plan.key).unwind,
      paymentReference: baseReference
    }),
    call: processor.refund({
      idempotencyKey: keys(plan.key).unwind,
      paymentReference: baseReference,
      amount: plan.base,
      currency: plan.currency
    })
  }).pipe(
    Effect.map(
      (outcome): Unwind =>
        outcome._tag === "Refunded"
          ? { status: "refunded", reference: outcome.reference }
          : { status: "failed", code: outcome.code, message: outcome.message }
    ),
    Effect.catchTag("ProcessorRefused", (e) =>
      Effect.succeed<Unwind>({
        status: "failed",
        code: e.code ?? "processor_refused",
        message: e.message
      })
    ),
    Effect.tap((unwind) =>
      unwind.status === "failed"
        ? Effect.logError(
            "the base of a separate charge could not be refunded after its fee failed",
            {
              key: plan.key,
              baseReference,
              ...unwind
            }
          )
        : Effect.void
    )
  )

/** Collects the charge `plan` describes. */
export const collect = (
  processor: PaymentProcessor,
  plan: Plan
): Effect.Effect<Collected, ProcessorUnavailable> =>
  Effect.gen(function* () {
    const k = keys(plan.key)
    if (plan.billingMode === "direct") {
      const paid = yield* pay(processor, plan, k.base, plan.base + plan.fee, plan.fee)
      if (paid._tag !== "Succeeded") return unsuccessful(paid)
      return {
        _tag: "Succeeded",
        reference: paid.reference,
        transactions: [{ part: "amount", amount: plan.base + plan.fee, reference: paid.reference }],
        dispute: paid.dispute
      }
    }
    const base = yield* pay(processor, plan, k.base, plan.base, 0)
    if (base._tag !== "Succeeded") return unsuccessful(base)
    const transactions: Array<Wire.Transaction> = [
      { part: "amount", amount: plan.base, reference: base.reference }
    ]
    if (plan.fee > 0) {
      const fee = yield* pay(processor, plan, k.fee, plan.fee, plan.fee)
      if (fee._tag === "Pending") return unsuccessful(fee)
      if (fee._tag !== "Succeeded") {
        return unsuccessful(fee, yield* unwindBase(processor, plan, base.reference))
      }
      transactions.push({ part: "fee", amount: plan.fee, reference: fee.reference })
    }
    return { _tag: "Succeeded", reference: base.reference, transactions, dispute: base.dispute }
  })

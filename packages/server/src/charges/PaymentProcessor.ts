/**
 * The payment processor port (docs/design.md §4): what collects a charge's money. Test mode runs
 * the built-in simulator; live mode runs the processor configured for the account, and an
 * account without one cannot charge (`processor_not_configured`), never a silent success.
 */

import type { Tenant } from "@levy/storage"
import { Context, type Effect, type Either, Layer, Option } from "effect"
import * as Simulator from "./Simulator.js"

/** One collection to make: the charge id is the processor's idempotency reference. */
export interface CollectRequest {
  readonly chargeId: string
  readonly source: string
  readonly currency: string
  /** The amounts to collect, in order: one with `direct` billing, base then fee with `separate`. */
  readonly parts: ReadonlyArray<{ readonly part: "amount" | "fee"; readonly amount: number }>
}

/** What the processor did. */
export type CollectOutcome =
  | {
      readonly _tag: "Succeeded"
      readonly transactions: ReadonlyArray<{
        readonly part: "amount" | "fee"
        readonly amount: number
        readonly reference: string
      }>
      /** The cardholder disputed the charge at once (the simulator's `tok_chargeDispute`). */
      readonly dispute: Option.Option<{ readonly reason: string }>
    }
  | {
      readonly _tag: "Declined"
      readonly failureCode: string
      readonly failureMessage: string
      readonly declineCode: string
    }

/** A processor. */
export interface PaymentProcessor {
  /**
   * The card a source stands for, when the processor knows it before charging; a source it
   * cannot use at all fails with the reason.
   */
  readonly describe: (source: string) => Either.Either<Option.Option<Simulator.Card>, string>
  readonly collect: (request: CollectRequest) => Effect.Effect<CollectOutcome>
}

/** The processor of each tenant, if any. */
export class PaymentProcessors extends Context.Tag("@levy/server/PaymentProcessors")<
  PaymentProcessors,
  { readonly forTenant: (tenant: Tenant.Tenant) => Option.Option<PaymentProcessor> }
>() {
  /** The simulator in test mode; no live processor for any account. */
  static readonly layerTestOnly = Layer.succeed(PaymentProcessors, {
    forTenant: (tenant) => (tenant.livemode ? Option.none() : Option.some(Simulator.processor))
  })
}

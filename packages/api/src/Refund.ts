/**
 * A refund (`object: "refund"`, id `re_…`) of part or all of a charge; the fee goes back pro
 * rata unless the request said otherwise (docs/design.md §3–§4).
 */
import { Schema } from "effect"
import { ChargeId } from "./Charge.js"
import { CurrencyCode, Livemode, MinorUnits, oneOf, PrefixedId, Timestamp } from "./Field.js"
import { Metadata } from "./Metadata.js"

/** A refund id, `re_…`. */
export const RefundId = PrefixedId("re")

/** Why the merchant refunds. */
export const RefundReason = oneOf("requested_by_customer", "duplicate", "fraudulent")
export type RefundReason = typeof RefundReason.Type

/** The refund. */
export const Refund = Schema.Struct({
  id: RefundId,
  object: Schema.Literal("refund"),
  charge: ChargeId,
  amount: MinorUnits.annotations({ description: "Part of the base amount refunded, minor units." }),
  convenienceFee: MinorUnits.annotations({ description: "Part of the fee refunded, minor units." }),
  totalAmount: MinorUnits.annotations({
    description: "amount + convenienceFee: what the payer gets back."
  }),
  currency: CurrencyCode,
  status: Schema.Literal("pending", "succeeded", "failed"),
  failureCode: Schema.optional(Schema.String).annotations({
    description:
      "When `failed`: why, in the processor's words as Levy normalizes them (e.g. `refund_failed`, `expired_or_canceled_card`)."
  }),
  failureMessage: Schema.optional(Schema.String).annotations({
    description: "When `failed`: a sentence fit to show the merchant."
  }),
  reason: Schema.NullOr(RefundReason),
  metadata: Schema.optionalWith(
    Metadata.annotations({ description: "The pairs the refund was created with." }),
    // Refunds recorded before the field existed (stored events, replayed responses) read {}.
    { default: () => ({}) }
  ),
  created: Timestamp,
  livemode: Livemode
}).annotations({ identifier: "Refund" })
export type Refund = typeof Refund.Type

/**
 * A charge (`object: "charge"`, id `ch_…`): the base amount plus a compliant fee, collected
 * through the payment processor (docs/design.md §2–§4). Refunds never change `status`; they move
 * `amountRefunded` and `refunded`.
 */
import type { Estimate as CoreEstimate } from "@levy/core"
import { Schema } from "effect"
import { Compliance, fromVerdict } from "./Compliance.js"
import * as ConfiguredFee from "./ConfiguredFee.js"
import { FeeBreakdown, FeeStructure } from "./Estimate.js"
import {
  BillingMode,
  CardType,
  CurrencyCode,
  Livemode,
  MinorUnits,
  PrefixedId,
  SignedMinorUnits,
  Timestamp
} from "./Field.js"
import { Metadata } from "./Metadata.js"
import * as Quote from "./Quote.js"

/** A charge id, `ch_…`. */
export const ChargeId = PrefixedId("ch")

/** `pending` while the processor runs, then `succeeded` or `failed`. */
export const ChargeStatus = Schema.Literal("pending", "succeeded", "failed").annotations({
  identifier: "ChargeStatus"
})
export type ChargeStatus = typeof ChargeStatus.Type

/** One processor transaction of a charge: with `separate` billing, the base and the fee each have one. */
export const Transaction = Schema.Struct({
  part: Schema.Literal("amount", "fee").annotations({
    description: "`amount`: the base amount; `fee`: the convenience fee."
  }),
  amount: MinorUnits,
  reference: Schema.String.annotations({ description: "The processor's transaction reference." })
}).annotations({ identifier: "Transaction" })
export type Transaction = typeof Transaction.Type

/** The charge. */
export const Charge = Schema.Struct({
  id: ChargeId,
  object: Schema.Literal("charge"),
  amount: MinorUnits.annotations({ description: "Base amount, minor units." }),
  convenienceFee: MinorUnits,
  totalAmount: MinorUnits.annotations({ description: "amount + convenienceFee." }),
  currency: CurrencyCode,
  status: ChargeStatus,
  created: Timestamp,
  livemode: Livemode,
  customer: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  metadata: Metadata,
  region: Schema.NullOr(Schema.String),
  cardType: Schema.NullOr(CardType),
  feeStructure: FeeStructure,
  feeBreakdown: FeeBreakdown,
  adjustment: SignedMinorUnits.annotations({
    description:
      "What limits or compliance changed: feeBreakdown.percentage + feeBreakdown.flatFee + adjustment = convenienceFee."
  }),
  compliance: Compliance.annotations({
    description:
      "The verdict on the fee collected (convenienceFee); disclosureText is the text to show the payer for it. Why a fee was lowered is in configured."
  }),
  configured: Schema.optional(ConfiguredFee.ConfiguredFee).annotations({
    description:
      "The configured fee and the verdict on it: when not compliant, why the fee collected was lowered (see adjustment). Absent on charges stored before the field existed, whose compliance is the configured fee's verdict."
  }),
  failureCode: Schema.optional(Schema.String),
  failureMessage: Schema.optional(Schema.String),
  amountRefunded: MinorUnits.annotations({ description: "Total refunded so far, minor units." }),
  refunded: Schema.Boolean.annotations({
    description: "true once the whole totalAmount is refunded."
  }),
  billingMode: BillingMode,
  transactions: Schema.optional(Schema.Array(Transaction)),
  estimate: Schema.optional(
    Quote.EstimateId.annotations({
      description: "The estimate the charge honoured: its fee is never more than the one quoted."
    })
  ),
  card: Schema.optional(
    Quote.Card.annotations({ description: "The card charged, as the processor described it." })
  )
}).annotations({ identifier: "Charge" })
export type Charge = typeof Charge.Type

/** The fee fields of a charge from the engine's charge quote: what the server stores with it. */
export const quoteFields = (quote: CoreEstimate.ChargeQuote) => ({
  amount: quote.baseAmount,
  convenienceFee: quote.convenienceFee,
  totalAmount: quote.totalAmount,
  currency: quote.currency,
  region: quote.region,
  feeStructure: quote.feeStructure,
  feeBreakdown: quote.feeBreakdown,
  adjustment: quote.adjustment,
  compliance: fromVerdict(quote.compliance),
  configured: ConfiguredFee.fromEngine(quote.configured)
})

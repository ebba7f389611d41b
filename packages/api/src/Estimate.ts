/**
 * An estimate (`object: "estimate"`): the fee a charge with the same inputs collects (the
 * configured fee lowered to the largest compliant one), with the configured fee and the verdict
 * on it beside it (docs/design.md §2–§3).
 */
import type { Estimate as CoreEstimate } from "@levy/core"
import { Schema } from "effect"
import { Compliance, fromVerdict } from "./Compliance.js"
import * as ConfiguredFee from "./ConfiguredFee.js"
import {
  CurrencyCode,
  FeeModel,
  MajorUnits,
  MinorUnits,
  Percent,
  RoundingMode,
  SignedMinorUnits,
  Timestamp
} from "./Field.js"
import * as Quote from "./Quote.js"

/** The configured rate in reference units: percent and major units ({2.9, 0.30}). */
export const FeeStructure = Schema.Struct({
  percentage: Percent,
  flatFee: MajorUnits
}).annotations({
  identifier: "FeeStructure",
  description:
    "The configured rate: percent and major units, e.g. {percentage: 2.9, flatFee: 0.30}."
})
export type FeeStructure = typeof FeeStructure.Type

/** The applied fee in minor units before limits ({290, 30} on 10000). */
export const FeeBreakdown = Schema.Struct({
  percentage: MinorUnits,
  flatFee: MinorUnits
}).annotations({
  identifier: "FeeBreakdown",
  description:
    "The applied fee in minor units before limits, e.g. {percentage: 290, flatFee: 30} on 10000."
})
export type FeeBreakdown = typeof FeeBreakdown.Type

/** The estimate. */
export const Estimate = Schema.Struct({
  id: Schema.optional(
    Quote.EstimateId.annotations({
      description:
        "The quote: a charge that names it (estimate) collects no more than convenienceFee. Absent on a what-if (whatIf)."
    })
  ),
  object: Schema.Literal("estimate"),
  expiresAt: Schema.optional(
    Timestamp.annotations({
      description: "Until when a charge may name this quote (Unix seconds)."
    })
  ),
  baseAmount: MinorUnits,
  convenienceFee: MinorUnits.annotations({
    description:
      "The fee a charge with the same inputs collects: the configured fee, lowered to the largest compliant one when it is not (see configured)."
  }),
  totalAmount: MinorUnits.annotations({
    description: "baseAmount + convenienceFee: what a charge with the same inputs collects."
  }),
  currency: CurrencyCode,
  compliant: Schema.Boolean.annotations({
    description:
      "Whether convenienceFee is allowed for the region and card (false only where no fee can be made compliant, e.g. an unknown region)."
  }),
  region: Schema.NullOr(Schema.String).annotations({
    description: "The region the rules came from; null when none applied."
  }),
  feeStructure: FeeStructure,
  feeBreakdown: FeeBreakdown,
  adjustment: SignedMinorUnits.annotations({
    description:
      "What minFee/maxFee limits and compliance changed: feeBreakdown.percentage + feeBreakdown.flatFee + adjustment = convenienceFee."
  }),
  rounding: RoundingMode,
  model: FeeModel,
  compliance: Compliance.annotations({
    description:
      "The verdict on convenienceFee; disclosureText is the text to show the payer for it (null when the fee is 0)."
  }),
  configured: ConfiguredFee.ConfiguredFee,
  card: Schema.optional(
    Quote.Card.annotations({ description: "With source: the card the fee was quoted for." })
  ),
  whatIf: Schema.optional(
    Schema.Literal(true).annotations({
      description:
        "Present when the estimate was asked for another day (date) or another cost of acceptance than the account's: a what-if that no charge will collect, since a charge is judged on the server's day with the configured cost of acceptance."
    })
  )
}).annotations({ identifier: "Estimate" })
export type Estimate = typeof Estimate.Type

/** The engine's estimate as the wire shows it. */
export const fromEngine = (estimate: CoreEstimate.Estimate): Estimate => ({
  object: "estimate",
  baseAmount: estimate.baseAmount,
  convenienceFee: estimate.convenienceFee,
  totalAmount: estimate.totalAmount,
  currency: estimate.currency,
  compliant: estimate.compliant,
  region: estimate.region,
  feeStructure: estimate.feeStructure,
  feeBreakdown: estimate.feeBreakdown,
  adjustment: estimate.adjustment,
  rounding: estimate.rounding,
  model: estimate.model,
  compliance: fromVerdict(estimate.compliance),
  configured: ConfiguredFee.fromEngine(estimate.configured)
})

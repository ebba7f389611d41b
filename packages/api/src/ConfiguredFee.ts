/**
 * The configured fee beside the fee an estimate quotes or a charge collects: what the account's
 * configuration asks for before compliance lowers it, and the verdict on it, which says why it
 * was lowered (docs/design.md §3).
 */
import type { Estimate as CoreEstimate } from "@levy/core"
import { Schema } from "effect"
import { ReasonCode } from "./Compliance.js"
import { MinorUnits } from "./Field.js"

export const ConfiguredFee = Schema.Struct({
  convenienceFee: MinorUnits.annotations({
    description: "The fee the configuration gives, before compliance lowered it."
  }),
  totalAmount: MinorUnits.annotations({ description: "baseAmount + the configured fee." }),
  compliant: Schema.Boolean.annotations({
    description:
      "Whether the configured fee is allowed. When false, the fee quoted or collected was lowered to the largest compliant one (or the charge refused, with nonCompliant: reject)."
  }),
  reasonCode: Schema.NullOr(ReasonCode),
  reason: Schema.NullOr(Schema.String).annotations({
    description: "Why the configured fee is not compliant: why it was lowered. Null when compliant."
  })
}).annotations({
  identifier: "ConfiguredFee",
  description: "The configured fee and the verdict on it, beside the fee actually quoted."
})
export type ConfiguredFee = typeof ConfiguredFee.Type

/** The engine's configured fee as the wire shows it. */
export const fromEngine = (configured: CoreEstimate.Configured): ConfiguredFee => ({
  convenienceFee: configured.convenienceFee,
  totalAmount: configured.totalAmount,
  compliant: configured.compliant,
  reasonCode: configured.reasonCode,
  reason: configured.reason
})

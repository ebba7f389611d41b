/**
 * The compliance verdict as estimates, charges and checks report it (docs/design.md §3): whether
 * the fee is allowed, a machine reason code, the caps that apply and the ruleset version.
 */
import { Compliance as CoreCompliance } from "@levy/core"
import { Schema } from "effect"
import { MinorUnits } from "./Field.js"

/** Why a fee is not compliant: the engine's own codes. */
export const ReasonCode = CoreCompliance.ReasonCode.annotations({ identifier: "ReasonCode" })
export type ReasonCode = typeof ReasonCode.Type

/** A verdict on a fee. */
export const Compliance = Schema.Struct({
  compliant: Schema.Boolean,
  reasonCode: Schema.NullOr(ReasonCode),
  reason: Schema.NullOr(Schema.String).annotations({
    description: "Why the fee is not compliant; null when it is."
  }),
  maxPercentage: Schema.NullOr(Schema.Number).annotations({
    description: "Binding cap on the effective rate fee/amount, percent; null for none."
  }),
  maxFee: Schema.NullOr(MinorUnits).annotations({
    description: "Largest compliant fee in minor units when the amount is known; null otherwise."
  }),
  disclosureText: Schema.NullOr(Schema.String),
  rulesetVersion: Schema.String,
  rules: Schema.Array(Schema.String).annotations({
    description: "Codes of the rules that applied (place, country, card networks)."
  })
}).annotations({ identifier: "Compliance" })
export type Compliance = typeof Compliance.Type

/** The engine's verdict as the wire shows it (its `region` is reported beside it). */
export const fromVerdict = (verdict: CoreCompliance.ComplianceVerdict): Compliance => ({
  compliant: verdict.compliant,
  reasonCode: verdict.reasonCode,
  reason: verdict.reason,
  maxPercentage: verdict.maxPercentage,
  maxFee: verdict.maxFee,
  disclosureText: verdict.disclosureText,
  rulesetVersion: verdict.rulesetVersion,
  rules: verdict.rules
})

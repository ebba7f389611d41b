/**
 * The body of `POST /v1/fee-configs` (docs/design.md §6): every field optional, rates as JSON
 * numbers (percent and major units, checked for decimal places), `null` clears an optional
 * limit. Unknown fields are refused, naming the field.
 */
import { Schema } from "effect"
import {
  BillingMode,
  closed,
  FeeModel,
  FlatFeeRate,
  MinorUnits,
  oneOf,
  PercentRate,
  RegionCode,
  RoundingMode
} from "./Field.js"

/** What a non-compliant fee does on a charge: lowered to the largest compliant one, or refused. */
export const NonCompliant = oneOf("adjust", "reject")
export type NonCompliant = typeof NonCompliant.Type

/** Most region codes an account may list. */
export const MAX_REGION_CODES = 100

/** The configurable fields, all optional; shared with the pending change's `changes`. */
export const fields = {
  percentage: Schema.optional(PercentRate),
  flatFee: Schema.optional(FlatFeeRate),
  minAmount: Schema.optional(
    MinorUnits.annotations({ description: "Smallest base amount accepted, minor units." })
  ),
  maxAmount: Schema.optional(
    Schema.NullOr(MinorUnits).annotations({
      description: "Largest base amount accepted, minor units; null for no maximum."
    })
  ),
  billingMode: Schema.optional(BillingMode),
  rounding: Schema.optional(RoundingMode),
  model: Schema.optional(FeeModel),
  minFee: Schema.optional(Schema.NullOr(MinorUnits)),
  maxFee: Schema.optional(Schema.NullOr(MinorUnits)),
  costOfAcceptance: Schema.optional(Schema.NullOr(PercentRate)),
  defaultRegion: Schema.optional(Schema.NullOr(RegionCode)),
  nonCompliant: Schema.optional(NonCompliant),
  allowUncertain: Schema.optional(Schema.Boolean),
  regionCodes: Schema.optional(Schema.Array(RegionCode).pipe(Schema.maxItems(MAX_REGION_CODES)))
} as const

/** The update request. */
export const FeeConfigUpdate = closed(Schema.Struct(fields), "FeeConfigUpdate")
export type FeeConfigUpdate = typeof FeeConfigUpdate.Type

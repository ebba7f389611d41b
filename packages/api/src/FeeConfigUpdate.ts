/**
 * The body of `POST /v1/fee-configs` (docs/design.md §6): every field optional, rates as JSON
 * numbers (percent and major units, checked for decimal places), `null` clears an optional
 * limit. Unknown fields are refused, naming the field.
 */
import { Schema } from "effect"
import {
  BillingMode,
  CurrencyCode,
  closed,
  FeeModel,
  FlatFeeRate,
  MerchantCategoryCode,
  MinorUnits,
  oneOf,
  PercentRate,
  RegionCode,
  RoundingMode
} from "./Field.js"
import { Pin } from "./RulesetVersion.js"

/** What a non-compliant fee does on a charge: lowered to the largest compliant one, or refused. */
export const NonCompliant = oneOf("adjust", "reject")
export type NonCompliant = typeof NonCompliant.Type

/** A currency's own flat fee and fee limits; an absent field takes the configuration's. */
export const CurrencyFees = Schema.Struct({
  flatFee: Schema.optional(FlatFeeRate),
  minFee: Schema.optional(Schema.NullOr(MinorUnits)),
  maxFee: Schema.optional(Schema.NullOr(MinorUnits))
}).annotations({
  identifier: "CurrencyFees",
  parseOptions: { onExcessProperty: "error" },
  description:
    "A currency's flat fee (its major units) and minFee/maxFee (its minor units); absent fields take the configuration's own."
})
export type CurrencyFees = typeof CurrencyFees.Type

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
  merchantCategoryCode: Schema.optional(
    Schema.NullOr(MerchantCategoryCode).annotations({
      description:
        "The account's merchant category code (ISO 18245, four digits, e.g. \"9311\" for tax payments): charges are judged with it where a law exempts or singles out a kind of merchant. null: none stated, so no such law applies (neither an exemption nor a sector's ban): set it if your business is in a regulated sector."
    })
  ),
  defaultRegion: Schema.optional(Schema.NullOr(RegionCode)),
  nonCompliant: Schema.optional(NonCompliant),
  allowUncertain: Schema.optional(Schema.Boolean),
  requireRegion: Schema.optional(
    Schema.Boolean.annotations({
      description:
        "true: an estimate or charge without region (and no defaultRegion) is refused, 400 naming region, rather than checked against no rules."
    })
  ),
  requireEstimate: Schema.optional(
    Schema.Boolean.annotations({
      description:
        "true: a live charge must name an estimate (estimate: est_…), so it never collects a fee the shopper was not shown (docs/quotes.md)."
    })
  ),
  currencyFees: Schema.optional(
    Schema.Record({ key: CurrencyCode, value: CurrencyFees }).annotations({
      description:
        'Per-currency flat fees and limits, by currency code: {"jpy": {"flatFee": 40}}. Replaces the whole map when set. A currency without an entry uses flatFee, minFee and maxFee; where that flatFee cannot be charged exactly (0.30 in JPY) its charges are refused with currency_not_configured.'
    })
  ),
  regionCodes: Schema.optional(Schema.Array(RegionCode).pipe(Schema.maxItems(MAX_REGION_CODES))),
  rulesetVersion: Schema.optional(Pin)
} as const

/** The update request. */
export const FeeConfigUpdate = closed(Schema.Struct(fields), "FeeConfigUpdate")
export type FeeConfigUpdate = typeof FeeConfigUpdate.Type

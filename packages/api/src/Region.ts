/**
 * A place's fee rules as `GET /v1/regions` shows them (`object: "region"`): the
 * specification's Region plus status, sources, confidence, effective date and ruleset version.
 */
import type { RegionInfo } from "@levy/core"
import { Rule } from "@levy/core"
import { Schema } from "effect"
import { CardType } from "./Field.js"

/** The region. */
export const Region = Schema.Struct({
  object: Schema.Literal("region"),
  regionCode: Schema.String,
  country: Schema.String,
  state: Schema.NullOr(Schema.String).annotations({
    description: "Subdivision name; null for a country."
  }),
  status: Rule.RuleStatus,
  allowedCardTypes: Schema.Array(CardType),
  maxPercentage: Schema.Number.annotations({
    description: "Percent; 0 where no fee may be charged, 100 where nothing caps it."
  }),
  maxFlatFee: Schema.NullOr(Schema.Number).annotations({
    description: "Major units of the place's currency; null for no cap."
  }),
  requiresDisclosure: Schema.Boolean,
  restrictions: Schema.String,
  disclosureText: Schema.NullOr(Schema.String),
  sources: Schema.Array(Schema.String),
  confidence: Rule.Confidence,
  effectiveFrom: Schema.NullOr(Schema.String),
  rulesetVersion: Schema.String,
  rules: Schema.Array(Schema.String).annotations({
    description: "Codes of the rules that apply (place, country, card networks)."
  })
}).annotations({ identifier: "Region" })
export type Region = typeof Region.Type

/** The engine's region information as the wire shows it. */
export const fromEngine = (info: RegionInfo.RegionInfo): Region => ({
  object: "region",
  regionCode: info.regionCode,
  country: info.country,
  state: info.state,
  status: info.status,
  allowedCardTypes: info.allowedCardTypes,
  maxPercentage: info.maxPercentage,
  maxFlatFee: info.maxFlatFee,
  requiresDisclosure: info.requiresDisclosure,
  restrictions: info.restrictions,
  disclosureText: info.disclosureText,
  sources: info.sources,
  confidence: info.confidence,
  effectiveFrom: info.effectiveFrom,
  rulesetVersion: info.rulesetVersion,
  rules: info.rules
})

/**
 * A change of the law an account is told about (`object: "ruleset_change"`), the `data.object`
 * of a `ruleset.changed` event (docs/design.md §3 "Changes announced", docs/webhooks.md): a rule
 * dated to take effect soon, or a ruleset release the server now runs, that changes what the
 * account collects in regions it charges in or lists. Per region: the law before and after (a
 * consumer's credit-card surcharge online, as `GET /v1/regions/{code}` shows it) and the fee the
 * account's own configuration collects before and after at a few amounts.
 */
import { Schema } from "effect"
import { CardType, CurrencyCode, IsoDate, Livemode, MinorUnits, oneOf } from "./Field.js"

/** What the law says of a surcharge in the region: none allowed, allowed under a cap, allowed, or unsettled. */
export const Verdict = oneOf("allowed", "capped", "prohibited", "uncertain")
export type Verdict = typeof Verdict.Type

/** The law in a region on one side of the change. */
export const RegionTerms = Schema.Struct({
  verdict: Verdict,
  maxPercentage: Schema.NullOr(Schema.Number).annotations({
    description:
      "Cap on the fee as a percentage of the amount; 0 where none may be charged, null for no cap."
  }),
  maxFlatFee: Schema.NullOr(Schema.Number).annotations({
    description: "Cap on the flat part, major units of the region's currency; null for none."
  }),
  requiresDisclosure: Schema.Boolean
}).annotations({ identifier: "RulesetChangeTerms" })
export type RegionTerms = typeof RegionTerms.Type

/** The fee a charge collects at one amount and card, before and after; null when the charge would be refused. */
export const FeeAt = Schema.Struct({
  amount: MinorUnits,
  cardType: CardType,
  before: Schema.NullOr(MinorUnits),
  after: Schema.NullOr(MinorUnits)
}).annotations({ identifier: "RulesetChangeFee" })
export type FeeAt = typeof FeeAt.Type

/** One region the change touches. */
export const RegionChange = Schema.Struct({
  region: Schema.String,
  currency: CurrencyCode.annotations({ description: "The region's currency: the fees' unit." }),
  before: RegionTerms,
  after: RegionTerms,
  fees: Schema.Array(FeeAt)
}).annotations({ identifier: "RulesetChangeRegion" })
export type RegionChange = typeof RegionChange.Type

/** The change. */
export const RulesetChange = Schema.Struct({
  object: Schema.Literal("ruleset_change"),
  reason: oneOf("dated_rule", "release").annotations({
    description:
      "`dated_rule`: a rule of the account's ruleset takes effect on `effectiveDate`; `release`: the server runs a new ruleset release (accounts following `latest`)."
  }),
  effectiveDate: IsoDate.annotations({
    description:
      "The day the change applies from (UTC); a release's is the day the server first ran it."
  }),
  rulesetVersion: Schema.Struct({ before: Schema.String, after: Schema.String }),
  regions: Schema.Array(RegionChange),
  livemode: Livemode
}).annotations({ identifier: "RulesetChange" })
export type RulesetChange = typeof RulesetChange.Type

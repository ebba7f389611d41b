/**
 * What a change of the ruleset means for one account (docs/design.md §3 "Changes announced"):
 * for each of its regions, the law on either side of the change (the region as
 * `GET /v1/regions/{code}` shows it: a consumer's credit-card surcharge online) and the fee its
 * own configuration collects on either side at a few amounts for a consumer's credit and debit
 * card, priced the way a charge is (`FeeRaise.chargedFee`). A side is a ruleset on a day: the
 * same ruleset the day before and the day a dated rule takes effect, or two releases on one day.
 * Announced when the verdict, the disclosure requirement or a fee differs; a cap that moves
 * without changing the fee collected changes nothing the account sees.
 */
import type { RulesetChange } from "@levy/api"
import { type ComplianceRules, RegionInfo, type Ruleset } from "@levy/core"
import type { Context } from "effect"
import type { StoredConfig } from "../feeConfigs/Config.js"
import * as FeeRaise from "../feeConfigs/FeeRaise.js"

type Rules = Context.Tag.Service<ComplianceRules>

/** One side of a change: the ruleset that answers and the ISO day it answers for. */
export interface Side {
  readonly ruleset: Ruleset.Ruleset
  readonly date: string
}

/** The amounts (minor units of the region's currency) the fees are compared at. */
export const AMOUNTS: ReadonlyArray<number> = [1_000, 10_000, 100_000]

/** The cards the fees are compared for (a consumer's, online, a surcharge). */
export const CARD_TYPES = ["credit", "debit"] as const

/** A region's change, and whether the account sees it. */
export interface Compared {
  readonly change: RulesetChange.RegionChange
  readonly changed: boolean
}

/** The law in `code` on one side, as the region resource shows it. */
const termsOf = (info: RegionInfo.RegionInfo): RulesetChange.RegionTerms => ({
  verdict:
    info.status === "prohibited" ||
    info.maxPercentage === 0 ||
    !info.allowedCardTypes.includes("credit")
      ? "prohibited"
      : info.status === "uncertain"
        ? "uncertain"
        : info.maxPercentage < 100 || info.maxFlatFee !== null
          ? "capped"
          : "allowed",
  // RegionInfo says 100 where nothing caps the rate.
  maxPercentage: info.maxPercentage >= 100 ? null : info.maxPercentage,
  maxFlatFee: info.maxFlatFee,
  requiresDisclosure: info.requiresDisclosure
})

/** The fee each point collects under `priced` on `date` (null: the charge is refused). */
const feesOf = (
  priced: FeeRaise.Priced | undefined,
  region: string,
  currency: string,
  date: string
): ReadonlyArray<number | null> =>
  CARD_TYPES.flatMap((cardType) =>
    AMOUNTS.map((amount) =>
      priced === undefined
        ? null
        : (FeeRaise.chargedFee(priced, {
            amount,
            currency,
            context: {
              region,
              cardType,
              cardholder: "consumer",
              channel: "online",
              feeType: "surcharge",
              date
            }
          }) ?? null)
    )
  )

/** A side with the account's configuration ready to price charges under its ruleset. */
interface PricedSide extends Side {
  readonly priced: FeeRaise.Priced | undefined
}

/** `region` across the change; undefined when either side has no rule for it (nothing to compare). */
const compare = (region: string, before: PricedSide, after: PricedSide): Compared | undefined => {
  const was = RegionInfo.describe(before.ruleset, region, before.date)
  const now = RegionInfo.describe(after.ruleset, region, after.date)
  const versions = after.ruleset.places.get(region.toUpperCase())
  if (was === undefined || now === undefined || versions === undefined) return undefined
  const code = now.regionCode
  const currency = versions[0]!.rule.currency
  const feesBefore = feesOf(before.priced, code, currency, before.date)
  const feesAfter = feesOf(after.priced, code, currency, after.date)
  const fees = CARD_TYPES.flatMap((cardType, c) =>
    AMOUNTS.map((amount, a) => {
      const i = c * AMOUNTS.length + a
      return { amount, cardType, before: feesBefore[i]!, after: feesAfter[i]! }
    })
  )
  const change: RulesetChange.RegionChange = {
    region: code,
    currency,
    before: termsOf(was),
    after: termsOf(now),
    fees
  }
  return {
    change,
    changed:
      change.before.verdict !== change.after.verdict ||
      change.before.requiresDisclosure !== change.after.requiresDisclosure ||
      fees.some((f) => f.before !== f.after)
  }
}

/**
 * Each of `regions` the rulesets know, across the change, for an account configured as
 * `config` (its fees priced under each side's ruleset).
 */
export const compareAll = (
  rules: Rules,
  config: StoredConfig,
  regions: ReadonlyArray<string>,
  before: Side,
  after: Side
): ReadonlyArray<Compared> => {
  const was = { ...before, priced: FeeRaise.priced(rules, config, before.ruleset) }
  const now = { ...after, priced: FeeRaise.priced(rules, config, after.ruleset) }
  return regions.flatMap((region) => compare(region, was, now) ?? [])
}

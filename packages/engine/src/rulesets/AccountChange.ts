/**
 * What a change of the ruleset means for one account (docs/design.md §3 "Changes announced"):
 * for each of its regions, the law on either side of the change (the region as
 * `GET /v1/regions/{code}` shows it: a consumer's credit-card surcharge online) and the fee its
 * own configuration collects on either side at a few amounts for a consumer's credit and debit
 * card: what `POST /v1/estimates` quotes for those inputs (Quote.ts), which is what a charge
 * collects, or none where the charge would be refused. A side is a ruleset on a day: the same
 * ruleset the day before and the day a dated rule takes effect, or two releases on one day.
 * Announced when the verdict, the disclosure requirement or a fee differs; a cap that moves
 * without changing the fee collected changes nothing the account sees.
 */
import type { RulesetChange } from "@levy/api"
import { type FeeSchedule, RegionInfo, type Ruleset } from "@levy/core"
import { Either } from "effect"
import * as Quote from "../estimates/Quote.js"
import * as Config from "../feeConfigs/Config.js"

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

/** The account: its configuration, and its schedule (undefined: refused by the engine, it prices nothing). */
interface Priced {
  readonly config: Config.StoredConfig
  readonly schedule: FeeSchedule.FeeSchedule | undefined
}

/** The fee each point collects on `side` (null: the charge is refused). */
const feesOf = (
  account: Priced,
  side: Side,
  region: string,
  currency: string
): ReadonlyArray<number | null> =>
  CARD_TYPES.flatMap((cardType) =>
    AMOUNTS.map((amount) => {
      if (account.schedule === undefined) return null
      const quoted = Quote.quote(account.config, account.schedule, side.ruleset, {
        amount,
        currency,
        region,
        cardType,
        cardholder: "consumer",
        channel: "online",
        feeType: "surcharge",
        date: side.date
      })
      // A charge collects the quoted fee when it is compliant, and is refused otherwise.
      return Either.isRight(quoted) && quoted.right.compliant ? quoted.right.convenienceFee : null
    })
  )

/** `region` across the change; undefined when either side has no rule for it (nothing to compare). */
const compare = (
  account: Priced,
  region: string,
  before: Side,
  after: Side
): Compared | undefined => {
  const was = RegionInfo.describe(before.ruleset, region, before.date)
  const now = RegionInfo.describe(after.ruleset, region, after.date)
  const versions = after.ruleset.places.get(region.toUpperCase())
  if (was === undefined || now === undefined || versions === undefined) return undefined
  const code = now.regionCode
  const currency = versions[0]!.rule.currency
  const feesBefore = feesOf(account, before, code, currency)
  const feesAfter = feesOf(account, after, code, currency)
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
  config: Config.StoredConfig,
  regions: ReadonlyArray<string>,
  before: Side,
  after: Side
): ReadonlyArray<Compared> => {
  const account = { config, schedule: Either.getOrUndefined(Config.scheduleOf(config)) }
  return regions.flatMap((region) => compare(account, region, before, after) ?? [])
}

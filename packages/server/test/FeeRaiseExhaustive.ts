/**
 * The reference for `FeeRaise.raisesFee` (FeeRaise.property.test.ts): the decision as it was
 * made before the fast path, kept verbatim: every point priced by `Estimate.chargeQuote`
 * whole, nothing decided from structure, no quote reused.
 *
 * Whether a fee configuration change raises a fee some shopper can pay (docs/design.md §6),
 * decided by the engine rather than by a list of field names: the fee a charge would collect
 * under the configuration before and after the change, compared at many points. A field
 * added to the configuration later is covered as long as it reaches the fee through the
 * configuration's schedule or the charge's compliance input built here the way a charge builds it.
 *
 * The points: every currency at amounts around each configuration's own boundaries (amount
 * limits, where the fee limits start to bind) and a spread of odd amounts (rounding), with
 * the region omitted (so `defaultRegion` applies); then every place in either configuration's
 * ruleset version (and the region omitted) for each card type, cardholder, channel and fee
 * type, at a few amounts in a few currencies. A charge refused before and collected with a fee after counts as a raise.
 */

import type { FeeSchedule } from "@levy/core"
import { type ComplianceRules, Currency, Estimate, Rate, Rule, Ruleset } from "@levy/core"
import { type Context, Either } from "effect"
import type { StoredConfig } from "../src/feeConfigs/Config.js"
import * as Config from "../src/feeConfigs/Config.js"

type Rules = Context.Tag.Service<ComplianceRules>

/** A charge the comparison prices: its amount, currency and compliance context. */
interface Point {
  readonly amount: number
  readonly currency: string
  readonly context: Omit<Estimate.FeeRequest, "amount" | "currency">
}

/** A configuration ready to price charges: its schedule, compliance settings and ruleset version. */
interface Priced {
  readonly config: StoredConfig
  readonly schedule: FeeSchedule.FeeSchedule
  readonly costOfAcceptance: number | undefined
  readonly ruleset: Ruleset.Ruleset
}

const priced = (rules: Rules, config: StoredConfig): Priced | undefined => {
  const schedule = Config.schedule(config)
  const coa = Config.costOfAcceptancePpm(config.costOfAcceptance)
  const ruleset = Config.rulesetOf(rules, config)
  return Either.isLeft(schedule) || Either.isLeft(coa) || ruleset === undefined
    ? undefined
    : { config, schedule: schedule.right, costOfAcceptance: coa.right, ruleset }
}

/**
 * The fee a charge at `point` collects under `p`, as the charge handler decides it (the fee
 * lowered to the largest compliant one, refused under `nonCompliant: reject`); undefined
 * when the charge is refused.
 */
const chargedFee = (p: Priced, point: Point): number | undefined => {
  const quote = Estimate.chargeQuote(p.schedule, p.ruleset, {
    ...point.context,
    amount: point.amount,
    currency: point.currency,
    region: point.context.region ?? p.config.defaultRegion,
    costOfAcceptance: p.costOfAcceptance,
    allowUncertain: p.config.allowUncertain
  })
  if (Either.isLeft(quote)) return undefined
  const q = quote.right
  if (!q.compliant) return undefined
  if (p.config.nonCompliant === "reject" && !q.configured.compliant) return undefined
  return q.convenienceFee
}

/** Odd and round amounts across the range: rounding modes differ on the odd ones. */
const SPREAD = [
  1,
  49,
  50,
  51,
  99,
  100,
  101,
  199,
  333,
  499,
  500,
  501,
  999,
  1000,
  1001,
  1234,
  1999,
  2500,
  4999,
  5000,
  5001,
  9999,
  10000,
  10001,
  12345,
  33333,
  49999,
  50000,
  99999,
  100000,
  100001,
  123457,
  999999,
  1000000,
  1000001,
  9999999,
  10000000,
  50000001,
  Currency.MAXIMUM_CHARGE
]

/** Amounts near where `p`'s own limits bind in `unit`: amount limits, and min/max fee crossings. */
const boundaries = (p: Priced, unit: Currency.Currency): ReadonlyArray<number> => {
  const { schedule } = p
  const edges: Array<number> = [schedule.minAmount, unit.minimumCharge]
  if (schedule.maxAmount !== null) edges.push(schedule.maxAmount)
  const flat = Rate.flatFeeMinorOrFail(schedule.flatFee, unit)
  if (typeof flat === "number" && schedule.percentage > 0) {
    for (const limit of [schedule.minFee, schedule.maxFee]) {
      if (limit !== null) {
        edges.push(Math.round(((limit - flat) * Rate.PPM) / schedule.percentage))
      }
    }
  }
  return edges.flatMap((a) => [a - unit.increment, a, a + unit.increment])
}

const amountsFor = (configs: ReadonlyArray<Priced>, unit: Currency.Currency) =>
  [...new Set([...SPREAD, ...configs.flatMap((p) => boundaries(p, unit))])].filter(
    (a) => a > 0 && a <= unit.maximumCharge
  )

/** The compliance contexts of the second pass: every place of either ruleset (and none) × card and channel. */
const contexts = (rulesets: ReadonlyArray<Ruleset.Ruleset>): ReadonlyArray<Point["context"]> => {
  const regions: ReadonlyArray<string | undefined> = [
    undefined,
    ...new Set(rulesets.flatMap(Ruleset.placeCodes))
  ]
  const out: Array<Point["context"]> = []
  for (const region of regions)
    for (const cardType of Rule.CardType.literals)
      for (const cardholder of Rule.Cardholder.literals)
        for (const channel of Rule.Channel.literals)
          for (const feeType of Rule.FeeType.literals)
            out.push({ region, cardType, cardholder, channel, feeType })
  return out
}

/** The currencies and amounts of the second pass: the caps are rates, a few points suffice. */
const CONTEXT_CURRENCIES = ["usd", "jpy"]
const CONTEXT_AMOUNTS = [999, 10001, 123457]

/**
 * Whether some charge would collect a higher fee under `next` than under `before` (or be
 * refused before and collect a fee after). A configuration the engine refuses prices nothing:
 * the caller validates `next` first.
 */
export const raisesFeeExhaustive = (
  rules: Rules,
  before: StoredConfig,
  next: StoredConfig
): boolean => {
  const b = priced(rules, before)
  const n = priced(rules, next)
  if (n === undefined) return false
  if (b === undefined) return true
  const raisedAt = (point: Point) => {
    const after = chargedFee(n, point)
    if (after === undefined) return false
    const was = chargedFee(b, point)
    return was === undefined ? after > 0 : after > was
  }
  for (const unit of Currency.all) {
    for (const amount of amountsFor([b, n], unit)) {
      if (raisedAt({ amount, currency: unit.code, context: {} })) return true
    }
  }
  for (const context of contexts([b.ruleset, n.ruleset])) {
    for (const currency of CONTEXT_CURRENCIES) {
      for (const amount of CONTEXT_AMOUNTS) {
        if (raisedAt({ amount, currency, context })) return true
      }
    }
  }
  return false
}

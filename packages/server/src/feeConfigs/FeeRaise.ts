/**
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
 *
 * Cheap enough for a request (docs/performance.md "Deciding a fee raise"), with the same answer
 * as pricing every point with `Estimate.chargeQuote` (FeeRaise.property.test.ts):
 * - a change that leaves every input of the fee as it was (schedule, cost of acceptance,
 *   ruleset version, defaultRegion, allowUncertain, nonCompliant) raises nothing, unpriced;
 * - a point is priced by the estimate's own steps without what an estimate adds for display
 *   (disclosures, the quote objects): `Fee.quoteIn`, then `Estimate.adjust`;
 * - a quote depends on the amount and currency alone, so each configuration quotes each
 *   (currency, amount) once, however many compliance contexts price it; a quote the engine
 *   refuses (a flat fee that JPY cannot carry, say) is refused once, not per context.
 */

import type { Decimal, FeeSchedule } from "@levy/core"
import {
  type ComplianceRules,
  Currency,
  Estimate,
  Fee,
  type FeeError,
  isFeeError,
  Rate,
  Rule,
  Ruleset
} from "@levy/core"
import { type Context, Either } from "effect"
import type { StoredConfig } from "./Config.js"
import * as Config from "./Config.js"

type Rules = Context.Tag.Service<ComplianceRules>

/** A charge the comparison prices: its amount, currency and compliance context. */
export interface Point {
  readonly amount: number
  readonly currency: string
  readonly context: Omit<Estimate.FeeRequest, "amount" | "currency">
}

/** A configuration ready to price charges: its schedule, compliance settings and ruleset version. */
export interface Priced {
  readonly config: StoredConfig
  readonly schedule: FeeSchedule.FeeSchedule
  readonly costOfAcceptance: number | undefined
  readonly ruleset: Ruleset.Ruleset
  /** Quotes by `currency/amount`: the same whatever the compliance context. */
  readonly quotes: Map<string, Fee.FeeQuote | FeeError>
}

/** `config` ready to price charges, under its own ruleset unless `ruleset` is given. */
export const priced = (
  rules: Rules,
  config: StoredConfig,
  ruleset: Ruleset.Ruleset | undefined = Config.rulesetOf(rules, config)
): Priced | undefined => {
  const schedule = Config.schedule(config)
  const coa = Config.costOfAcceptancePpm(config.costOfAcceptance)
  return Either.isLeft(schedule) || Either.isLeft(coa) || ruleset === undefined
    ? undefined
    : {
        config,
        schedule: schedule.right,
        costOfAcceptance: coa.right,
        ruleset,
        quotes: new Map()
      }
}

const sameDecimal = (a: Decimal.Decimal, b: Decimal.Decimal) =>
  a.units === b.units && a.scale === b.scale

const sameFees = (a: FeeSchedule.CurrencyFees, b: FeeSchedule.CurrencyFees) =>
  sameDecimal(a.flatFee, b.flatFee) && a.minFee === b.minFee && a.maxFee === b.maxFee

/**
 * Whether two schedules are the same, field by field. A decimal written at another scale
 * (0.3 and 0.30) counts as a difference: that only costs the full comparison.
 */
const sameSchedule = (a: FeeSchedule.FeeSchedule, b: FeeSchedule.FeeSchedule): boolean => {
  if (
    a.percentage !== b.percentage ||
    !sameDecimal(a.flatFee, b.flatFee) ||
    a.model !== b.model ||
    a.rounding !== b.rounding ||
    a.minFee !== b.minFee ||
    a.maxFee !== b.maxFee ||
    a.minAmount !== b.minAmount ||
    a.maxAmount !== b.maxAmount ||
    a.currencyFees.size !== b.currencyFees.size
  ) {
    return false
  }
  for (const [code, fees] of a.currencyFees) {
    const other = b.currencyFees.get(code)
    if (other === undefined || !sameFees(fees, other)) return false
  }
  return true
}

/** Whether `a` and `b` price every charge alike: every input `chargedFee` reads is the same. */
const samePricing = (a: Priced, b: Priced): boolean =>
  a.ruleset === b.ruleset &&
  a.costOfAcceptance === b.costOfAcceptance &&
  a.config.defaultRegion === b.config.defaultRegion &&
  a.config.allowUncertain === b.config.allowUncertain &&
  a.config.nonCompliant === b.config.nonCompliant &&
  sameSchedule(a.schedule, b.schedule)

/** `p`'s quote of `amount` in `unit`, made once. */
const quoteOf = (p: Priced, unit: Currency.Currency, amount: number) => {
  const key = `${unit.code}/${amount}`
  let q = p.quotes.get(key)
  if (q === undefined) {
    q = Fee.quoteIn(p.schedule, amount, unit, unit.code)
    p.quotes.set(key, q)
  }
  return q
}

/**
 * The fee a charge at `point` collects under `p`, as the charge handler decides it (the fee
 * lowered to the largest compliant one, refused under `nonCompliant: reject`); undefined
 * when the charge is refused.
 */
export const chargedFee = (p: Priced, point: Point): number | undefined => {
  const unit = Fee.currencyOrFail(point.currency)
  if (isFeeError(unit)) return undefined
  const q = quoteOf(p, unit, point.amount)
  if (isFeeError(q)) return undefined
  // The request `Estimate.chargeQuote` would be given; its amount and currency are in `q`.
  const adjusted = Estimate.adjust(
    p.schedule,
    p.ruleset,
    {
      ...point.context,
      region: point.context.region ?? p.config.defaultRegion,
      costOfAcceptance: p.costOfAcceptance,
      allowUncertain: p.config.allowUncertain
    },
    q,
    unit
  )
  if (isFeeError(adjusted)) return undefined
  // As `Estimate.estimate` builds the quote: the configured fee where it is compliant, else
  // the lowered one, collected only when compliant and when the account adjusts.
  if (adjusted.original.compliant) return q.convenienceFee
  if (!adjusted.verdict.compliant) return undefined
  if (p.config.nonCompliant === "reject") return undefined
  return adjusted.fee
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
export const raisesFee = (rules: Rules, before: StoredConfig, next: StoredConfig): boolean => {
  const b = priced(rules, before)
  const n = priced(rules, next)
  if (n === undefined) return false
  if (b === undefined) return true
  if (samePricing(b, n)) return false
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

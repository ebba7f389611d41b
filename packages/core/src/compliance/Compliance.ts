/**
 * Whether a fee is legal for a payer (decisions §3), the largest fee that is, and the
 * fee lowered to it. One engine over the typed rules; first failing condition decides.
 */
import { Either } from "effect"
import * as Currency from "../Currency.js"
import * as Decimal from "../Decimal.js"
import { type FeeError, fail } from "../FeeError.js"
import * as Rate from "../Rate.js"
import * as Rounding from "../Rounding.js"
import * as Day from "./Day.js"
import * as Policy from "./Policy.js"
import type { Cardholder, CardType, Channel, FeeType, Rule } from "./Rule.js"
import type { Ruleset } from "./Ruleset.js"

/** Why a fee is not compliant. */
export type ReasonCode =
  | "fees_prohibited"
  | "card_type_not_allowed"
  | "percentage_over_limit"
  | "network_cap_exceeded"
  | "over_cost_of_acceptance"
  | "flat_fee_over_limit"
  | "disclosure_required"
  | "convenience_fee_must_be_flat"
  | "convenience_fee_channel"
  | "cardholder_not_allowed"
  | "legal_uncertainty"
  | "unknown_region"

/** Every reason code. */
export const reasonCodes: ReadonlyArray<ReasonCode> = [
  "fees_prohibited",
  "card_type_not_allowed",
  "percentage_over_limit",
  "network_cap_exceeded",
  "over_cost_of_acceptance",
  "flat_fee_over_limit",
  "disclosure_required",
  "convenience_fee_must_be_flat",
  "convenience_fee_channel",
  "cardholder_not_allowed",
  "legal_uncertainty",
  "unknown_region"
]

/** Who pays, how and where: everything but the fee. All optional (decisions §3 defaults). */
export interface ComplianceContext {
  /** `CC` or `CC-SS`; absent or null: no rules apply. */
  readonly region?: string | null | undefined
  /** Absent: the fee must be allowed on every card type. */
  readonly cardType?: CardType | undefined
  /** Absent or unknown: the strictest network rule of the place. */
  readonly cardNetwork?: string | undefined
  readonly cardholder?: Cardholder | undefined
  readonly channel?: Channel | undefined
  readonly feeType?: FeeType | undefined
  /** The merchant gives the required notice (default true). */
  readonly disclosed?: boolean | undefined
  readonly recurring?: boolean | undefined
  /** ISO date the payment is made (default today, UTC). */
  readonly date?: string | undefined
  /** The merchant's real processing cost, parts per million of the amount. */
  readonly costOfAcceptance?: number | undefined
  /** Treat legally uncertain places as permitted (the account's opt-in). */
  readonly allowUncertain?: boolean | undefined
}

/** The fee being checked. With `amount`, caps bind the effective rate `fee / amount`. */
export interface FeeUnderCheck {
  /** Nominal percentage, parts per million. */
  readonly percentage: number
  /** Nominal flat fee, major units. */
  readonly flatFee: Decimal.Decimal
  /** Base amount, minor units. */
  readonly amount?: number | undefined
  /** Currency of `amount`; default the place's own. */
  readonly currency?: string | undefined
  /** The whole fee in minor units; computed half-up from the rates when absent. */
  readonly fee?: number | undefined
  /** The flat part of `fee`, minor units. */
  readonly flatPart?: number | undefined
}

export type ComplianceInput = ComplianceContext & FeeUnderCheck

/** The answer. */
export interface ComplianceVerdict {
  readonly compliant: boolean
  readonly region: string | null
  readonly reasonCode: ReasonCode | null
  readonly reason: string | null
  /** The binding cap on the effective rate, percent; 0 where no fee may be charged; null for none. */
  readonly maxPercentage: number | null
  /** The largest compliant fee in minor units, when the amount is known; null for no cap. */
  readonly maxFee: number | null
  readonly disclosureText: string | null
  readonly rulesetVersion: string
  /** Codes of the rules that applied. */
  readonly rules: ReadonlyArray<string>
}

/** Whether the fee is compliant, and why not. */
export const check = (
  ruleset: Ruleset,
  input: ComplianceInput
): Either.Either<ComplianceVerdict, FeeError> => {
  const region = input.region
  if (region === undefined || region === null) return Either.right(noRules(ruleset))
  const day = dayOf(input.date)
  if (day === undefined)
    return Either.left(fail("parameter_invalid", "date", "date must be an ISO date (YYYY-MM-DD)."))
  const policy = policyFor(ruleset, region, day, input)
  if (policy === undefined) return Either.right(unknownRegion(ruleset, region))
  return Either.map(measure(policy, input), (fee) => decide(ruleset, region, policy, input, fee))
}

/** The largest compliant fee for `amount` in this context (minor units), null when nothing caps it. */
export const maxFee = (
  ruleset: Ruleset,
  input: ComplianceInput & { readonly amount: number }
): Either.Either<number | null, FeeError> => Either.map(check(ruleset, input), (v) => v.maxFee)

/**
 * The largest compliant fee not above `fee`: the flat part lowered to its cap, then the
 * whole to the rate cap; 0 where no fee may be charged.
 */
export const compliantFee = (
  verdict: ComplianceVerdict,
  fee: number,
  flatPart: number,
  flatCap: number | null,
  flatOnly: boolean
): number => {
  if (verdict.compliant) return fee
  if (verdict.maxFee === 0) return 0
  const flat = Math.min(flatPart, flatCap ?? flatPart)
  const lowered = (flatOnly ? 0 : fee - flatPart) + flat
  return Math.min(lowered, verdict.maxFee ?? lowered)
}

/** What a fee of `fee` with flat part `flatPart` becomes under the rules, and the verdict on it. */
export const adjustToCompliant = (
  ruleset: Ruleset,
  input: ComplianceInput & {
    readonly amount: number
    readonly fee: number
    readonly flatPart: number
  }
): Either.Either<
  {
    readonly fee: number
    readonly verdict: ComplianceVerdict
    readonly original: ComplianceVerdict
  },
  FeeError
> =>
  Either.flatMap(check(ruleset, input), (original) => {
    if (original.compliant) return Either.right({ fee: input.fee, verdict: original, original })
    const policy =
      input.region == null
        ? undefined
        : policyFor(ruleset, input.region, dayOf(input.date) ?? 0, input)
    const currency = currencyOf(policy, input)
    const flatCap =
      policy === undefined || currency === undefined ? null : flatCapMinor(policy, currency)
    const fee = compliantFee(
      original,
      input.fee,
      input.flatPart,
      flatCap,
      policy?.flatOnlyBy !== undefined
    )
    const flatPart = Math.min(input.flatPart, fee)
    return Either.map(check(ruleset, { ...input, fee, flatPart }), (verdict) => ({
      fee,
      verdict,
      original
    }))
  })

// ---- situation and policy -------------------------------------------------

const cache = new WeakMap<Ruleset, Map<string, Policy.Policy | null>>()

const policyFor = (
  ruleset: Ruleset,
  rawRegion: string,
  day: number,
  ctx: ComplianceContext
): Policy.Policy | undefined => {
  let perRuleset = cache.get(ruleset)
  if (perRuleset === undefined) {
    perRuleset = new Map()
    cache.set(ruleset, perRuleset)
  }
  const business = ctx.cardholder === "business"
  const convenienceFee = ctx.feeType === "convenience_fee"
  const channel = ctx.channel ?? "online"
  const network = ctx.cardNetwork ?? ""
  const key = `${rawRegion}|${network}|${business ? 1 : 0}${convenienceFee ? 1 : 0}${channel}`
  const hit = perRuleset.get(key)
  if (hit !== undefined && (hit === null || hit.day === day)) return hit ?? undefined
  const region = rawRegion.toUpperCase()
  const built = Policy.build(ruleset, {
    region,
    day,
    network: network.toLowerCase(),
    business,
    convenienceFee,
    channel
  })
  if (perRuleset.size > 10_000) perRuleset.clear()
  perRuleset.set(key, built ?? null)
  return built
}

let todayCache = { until: 0, day: 0 }

const dayOf = (date: string | undefined): number | undefined => {
  if (date !== undefined) return Day.fromIso(date)
  const now = Date.now()
  if (now >= todayCache.until) {
    const day = Day.fromMillis(now)
    todayCache = { until: (day + 1) * 86_400_000, day }
  }
  return todayCache.day
}

// ---- the fee in minor units -----------------------------------------------

interface Measured {
  readonly amount: number | undefined
  readonly fee: number
  readonly flatPart: number
  readonly currency: Currency.Currency | undefined
}

const currencyOf = (
  policy: Policy.Policy | undefined,
  input: FeeUnderCheck
): Currency.Currency | undefined =>
  Currency.lookup(input.currency ?? policy?.place?.currency ?? "usd")

const measure = (
  policy: Policy.Policy,
  input: FeeUnderCheck
): Either.Either<Measured, FeeError> => {
  if (input.amount === undefined) {
    return Either.right({ amount: undefined, fee: 0, flatPart: 0, currency: undefined })
  }
  const currency = currencyOf(policy, input)
  if (currency === undefined) {
    return Either.left(
      fail("currency_not_supported", "currency", `Invalid currency: ${input.currency}.`)
    )
  }
  if (input.fee !== undefined) {
    return Either.right({
      amount: input.amount,
      fee: input.fee,
      flatPart: input.flatPart ?? 0,
      currency
    })
  }
  return Either.map(Rate.flatFeeMinor(input.flatFee, currency), (flat) => ({
    amount: input.amount,
    fee:
      Rounding.mulDiv(input.amount!, input.percentage, Rate.PPM * currency.increment, "half_up") *
        currency.increment +
      flat,
    flatPart: flat,
    currency
  }))
}

const flatCapMinor = (policy: Policy.Policy, currency: Currency.Currency): number | null => {
  if (policy.flatCap.value === Number.POSITIVE_INFINITY) return null
  const minor = Math.floor((policy.flatCap.value * 10 ** currency.exponent) / 1000)
  return Math.floor(minor / currency.increment) * currency.increment
}

// ---- the decision -----------------------------------------------------------

interface Failure {
  readonly code: ReasonCode
  readonly reason: string
}

const decide = (
  ruleset: Ruleset,
  region: string,
  policy: Policy.Policy,
  input: ComplianceInput,
  m: Measured
): ComplianceVerdict => {
  const blocked = blockedBy(policy, input)
  const cap = rateCap(policy, input.costOfAcceptance)
  const flatCap = m.currency === undefined ? null : flatCapMinor(policy, m.currency)
  const maxFee = blocked !== undefined ? 0 : feeCap(cap.value, flatCap, policy, m)
  const zero =
    m.amount === undefined ? input.percentage === 0 && input.flatFee.units === 0 : m.fee === 0
  const failure = zero ? undefined : (blocked ?? overCap(policy, input, m, cap, flatCap))
  return {
    compliant: failure === undefined,
    region,
    reasonCode: failure?.code ?? null,
    reason: failure?.reason ?? null,
    maxPercentage:
      blocked !== undefined
        ? 0
        : cap.value === Number.POSITIVE_INFINITY
          ? null
          : Rate.percentageToNumber(cap.value),
    maxFee,
    disclosureText: fillDisclosure(policy.disclosureText, input, m),
    rulesetVersion: ruleset.version,
    rules: policy.rules
  }
}

/** The first condition, other than a cap, that rules out any fee. */
const blockedBy = (p: Policy.Policy, input: ComplianceInput): Failure | undefined => {
  const where = label(p.place)
  if (p.prohibitedBy)
    return {
      code: "fees_prohibited",
      reason: `Card fees are prohibited in ${label(p.prohibitedBy)}.`
    }
  if (p.cardholderBy) {
    const who = input.cardholder ?? "consumer"
    return {
      code: "cardholder_not_allowed",
      reason: `Fees may not be charged to ${who} cardholders in ${label(p.cardholderBy)}.`
    }
  }
  const wanted = input.cardType === undefined ? Policy.ALL_CARDS : Policy.CARD_BIT[input.cardType]
  if ((p.cardTypes.value & wanted) !== wanted) return cardTypeFailure(p, input.cardType)
  if (p.channelBy) {
    return {
      code: "convenience_fee_channel",
      reason: `${rulePhrase(p.channelBy)} does not allow this fee for ${input.channel ?? "online"} payments.`
    }
  }
  if (input.recurring === true && p.recurringBy) {
    return {
      code: "convenience_fee_channel",
      reason: `${rulePhrase(p.recurringBy)} does not allow this fee on recurring payments.`
    }
  }
  if (p.flatOnlyBy && nonFlat(input)) {
    return {
      code: "convenience_fee_must_be_flat",
      reason: `${rulePhrase(p.flatOnlyBy)} requires a convenience fee to be a flat amount, with no percentage.`
    }
  }
  if (p.missing !== undefined) {
    return {
      code: "legal_uncertainty",
      reason: `No rule for ${p.missing} is known to be in force on ${Day.toIso(p.day)}.`
    }
  }
  if (p.uncertainBy && input.allowUncertain !== true) {
    return {
      code: "legal_uncertainty",
      reason: `The law on card fees in ${label(p.uncertainBy)} is uncertain; the account must opt in (allowUncertain) to charge one.`
    }
  }
  if (p.disclosureBy && input.disclosed === false) {
    return {
      code: "disclosure_required",
      reason: `${where} requires the fee to be disclosed to the payer before payment.`
    }
  }
  return undefined
}

const nonFlat = (input: ComplianceInput): boolean =>
  input.fee !== undefined ? input.fee > (input.flatPart ?? 0) : input.percentage > 0

const cardTypeFailure = (p: Policy.Policy, cardType: CardType | undefined): Failure => {
  const allowed = (Object.keys(Policy.CARD_BIT) as Array<CardType>).filter(
    (t) => (p.cardTypes.value & Policy.CARD_BIT[t]) !== 0
  )
  const list = allowed.length === 0 ? "no card type" : `${allowed.join(" and ")} cards only`
  const card = cardType === undefined ? "an unknown card type (pass cardType)" : `${cardType} cards`
  return {
    code: "card_type_not_allowed",
    reason: `Fees may not be charged on ${card} under ${rulePhrase(p.cardTypes.by)}: ${list}.`
  }
}

interface Cap {
  readonly value: number
  readonly code: ReasonCode
  readonly by: Rule | undefined
}

/** The lowest cap on the effective rate, and whose it is (law before network before cost on ties). */
const rateCap = (p: Policy.Policy, costOfAcceptance: number | undefined): Cap => {
  let cap: Cap = { value: p.legalCap.value, code: "percentage_over_limit", by: p.legalCap.by }
  if (p.networkCap.value < cap.value)
    cap = { value: p.networkCap.value, code: "network_cap_exceeded", by: p.networkCap.by }
  if (p.costOfAcceptanceBy && costOfAcceptance !== undefined && costOfAcceptance < cap.value) {
    cap = { value: costOfAcceptance, code: "over_cost_of_acceptance", by: p.costOfAcceptanceBy }
  }
  return cap
}

const feeCap = (
  capPpm: number,
  flatCap: number | null,
  p: Policy.Policy,
  m: Measured
): number | null => {
  if (m.amount === undefined || m.currency === undefined) return null
  const inc = m.currency.increment
  const byRate =
    capPpm === Number.POSITIVE_INFINITY
      ? null
      : Rounding.mulDiv(m.amount, capPpm, Rate.PPM * inc, "down") * inc
  const byFlat = p.flatOnlyBy ? flatCap : null
  if (byRate === null) return byFlat
  return byFlat === null ? byRate : Math.min(byRate, byFlat)
}

const overCap = (
  p: Policy.Policy,
  input: ComplianceInput,
  m: Measured,
  cap: Cap,
  flatCap: number | null
): Failure | undefined => {
  const flatOver =
    m.amount === undefined
      ? Decimal.toScaled(input.flatFee, 3)! > p.flatCap.value
      : flatCap !== null && m.flatPart > flatCap
  if (flatOver) {
    return {
      code: "flat_fee_over_limit",
      reason: `The flat fee is above the maximum flat fee under ${rulePhrase(p.flatCap.by)}.`
    }
  }
  if (cap.value === Number.POSITIVE_INFINITY) return undefined
  const over =
    m.amount === undefined ? input.percentage > cap.value : m.fee * Rate.PPM > m.amount * cap.value
  if (!over) return undefined
  const rate = rateOf(input, m)
  const what = m.amount === undefined ? "percentage" : "effective rate"
  const limit = `${Rate.percentageToNumber(cap.value)}%`
  const whose =
    cap.code === "over_cost_of_acceptance"
      ? "the merchant's cost of acceptance"
      : `the maximum under ${rulePhrase(cap.by)}`
  return {
    code: cap.code,
    reason: `The fee's ${what} of ${Rate.percentageToNumber(rate)}% is above ${limit}, ${whose}.`
  }
}

/** The nominal percentage, or the effective rate `fee / amount` (ppm, 2 decimals of a percent) when the amount is known. */
const rateOf = (input: ComplianceInput, m: Measured): number =>
  m.amount === undefined ? input.percentage : Rounding.mulDiv(m.fee, 100, m.amount, "half_up") * 100

const fillDisclosure = (
  text: string | null,
  input: ComplianceInput,
  m: Measured
): string | null => {
  if (text === null || !text.includes("{")) return text
  const major = (minor: number) =>
    m.currency ? Currency.formatMajor(m.currency, minor) : String(minor)
  return text
    .replaceAll("{rate}", String(Rate.percentageToNumber(rateOf(input, m))))
    .replaceAll("{flat}", Decimal.format(input.flatFee))
    .replaceAll(
      "{credit_total}",
      m.amount === undefined ? "{credit_total}" : major(m.amount + m.fee)
    )
    .replaceAll("{cash_total}", m.amount === undefined ? "{cash_total}" : major(m.amount))
}

const label = (rule: Rule | undefined): string =>
  rule === undefined
    ? "this region"
    : rule.state === null
      ? rule.code
      : `${rule.state} (${rule.code})`

const rulePhrase = (rule: Rule | undefined): string =>
  rule === undefined
    ? "the rules"
    : rule.kind === "place"
      ? `the law of ${label(rule)}`
      : `rule ${rule.code}`

const noRules = (ruleset: Ruleset): ComplianceVerdict => ({
  compliant: true,
  region: null,
  reasonCode: null,
  reason: null,
  maxPercentage: null,
  maxFee: null,
  disclosureText: null,
  rulesetVersion: ruleset.version,
  rules: []
})

const unknownRegion = (ruleset: Ruleset, region: string): ComplianceVerdict => ({
  compliant: false,
  region,
  reasonCode: "unknown_region",
  reason: `Unknown region: ${region.slice(0, 40)}. Use a country code (US) or a subdivision code (US-NY) from the ruleset.`,
  maxPercentage: null,
  maxFee: null,
  disclosureText: null,
  rulesetVersion: ruleset.version,
  rules: []
})

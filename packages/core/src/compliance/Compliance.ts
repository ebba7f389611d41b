/**
 * Whether a fee is legal for a payer (docs/design.md §3), the largest fee that is, and the
 * fee lowered to it. One engine over the typed rules; first failing condition decides.
 */
import { Either, Schema } from "effect"
import * as Currency from "../Currency.js"
import * as Decimal from "../Decimal.js"
import { type FeeError, fail, isFeeError, toEither } from "../FeeError.js"
import * as Rate from "../Rate.js"
import * as Rounding from "../Rounding.js"
import * as AmountCondition from "./AmountCondition.js"
import * as CategoryCondition from "./CategoryCondition.js"
import * as Clauses from "./Clauses.js"
import * as Day from "./Day.js"
import * as Issuing from "./Issuing.js"
import * as Policy from "./Policy.js"
import {
  type Cardholder,
  type CardType,
  type Channel,
  type FeeType,
  MerchantCategoryCode,
  type Rule,
  type Scheme
} from "./Rule.js"
import type { Ruleset } from "./Ruleset.js"

/**
 * Why a fee is not compliant (docs/design.md §3), or `no_region`: compliant only because no
 * region was given, so no rule was checked. A schema, so the API contract reuses it.
 */
export const ReasonCode = Schema.Literal(
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
  "unknown_region",
  "no_region"
)
export type ReasonCode = typeof ReasonCode.Type

/** Every reason code. */
export const reasonCodes: ReadonlyArray<ReasonCode> = ReasonCode.literals

/** Who pays, how and where: everything but the fee. All optional (docs/design.md §3 defaults). */
export interface ComplianceContext {
  /** `CC` or `CC-SS`; absent or null: no rules apply. */
  readonly region?: string | null | undefined
  /** Absent: the fee must be allowed on every card type. */
  readonly cardType?: CardType | undefined
  /** Absent or unknown: the strictest network rule of the place. */
  readonly cardNetwork?: string | undefined
  readonly cardholder?: Cardholder | undefined
  /** The card's scheme; absent: read from `cardNetwork`, or the strictest when that is unknown too. */
  readonly cardScheme?: Scheme | undefined
  /** ISO 3166-1 alpha-2 country that issued the card; absent: the strictest issuing region. */
  readonly cardIssuingCountry?: string | undefined
  readonly channel?: Channel | undefined
  /**
   * The merchant's category code (ISO 18245, four digits: "9311"), for laws that exempt or single
   * out a kind of merchant; null or absent: none, so such laws (exemptions and sector bans alike)
   * do not apply. An account's stored setting passes as it is.
   */
  readonly merchantCategoryCode?: string | null | undefined
  /** The merchant's standard payment channel; absent: not checked (a convenience fee's channel rule is read from `channel` alone). */
  readonly standardChannel?: Channel | undefined
  readonly feeType?: FeeType | undefined
  /** The merchant gives the required notice (default true). */
  readonly disclosed?: boolean | undefined
  readonly recurring?: boolean | undefined
  /** ISO date the payment is made (default today, UTC). */
  readonly date?: string | undefined
  /** The merchant's real processing cost, as a share of the amount: `Rate.percent("2.5")`. */
  readonly costOfAcceptance?: Rate.Percentage | undefined
  /** Treat legally uncertain places as permitted (the account's opt-in). */
  readonly allowUncertain?: boolean | undefined
}

/** The fee being checked. With `amount`, caps bind the effective rate `fee / amount`. */
export interface FeeUnderCheck {
  /** Nominal percentage: `Rate.percent("2.9")`, never a bare number (the API's percent is not the engine's unit). */
  readonly percentage: Rate.Percentage
  /** Nominal flat fee, major units: `Rate.flat("0.30")`. */
  readonly flatFee: Rate.FlatFee
  /** Base amount, minor units. */
  readonly amount?: number | undefined
  /** Currency of `amount`; default the place's own. */
  readonly currency?: string | undefined
  /** The same currency already resolved, when the caller has it (saves a lookup on the hot path). */
  readonly unit?: Currency.Currency | undefined
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
): Either.Either<ComplianceVerdict, FeeError> => toEither(checkOrFail(ruleset, input, input))

/** `check` without the Either, for the hot path; `ctx` and `fee` may be different objects. */
export const checkOrFail = (
  ruleset: Ruleset,
  ctx: ComplianceContext,
  fee: FeeUnderCheck = ctx as ComplianceInput
): ComplianceVerdict | FeeError => {
  const refused = rateError(ctx, fee)
  if (refused !== undefined) return refused
  const region = ctx.region
  if (region === undefined || region === null) return noRules(ruleset)
  const found = policyFor(ruleset, region, ctx)
  if (found === undefined) return unknownRegion(ruleset, region, fee.amount !== undefined)
  if (isFeeError(found)) return found
  const policy = forAmount(ruleset, found, fee)
  const measured = measure(policy, fee)
  return isFeeError(measured) ? measured : decide(ruleset, region, policy, ctx, fee, measured)
}

/**
 * The error for a rate not made by `Rate` (a bare `2.9`, the text "0.30"), naming the value, or
 * undefined: checked on every call, before anything else, as a JavaScript caller's bare number
 * would otherwise be read as parts per million and answer compliant (docs/embedding.md "Rates").
 */
const rateError = (ctx: ComplianceContext, fee: FeeUnderCheck): FeeError | undefined => {
  const percentage = Rate.percentageOrFail(fee.percentage)
  if (isFeeError(percentage)) return percentage
  const flatFee = Rate.flatFeeOrFail(fee.flatFee)
  return isFeeError(flatFee) ? flatFee : costError(ctx)
}

/** `rateError` of the context's cost of acceptance alone. */
const costError = (ctx: ComplianceContext): FeeError | undefined => {
  if (ctx.costOfAcceptance === undefined) return undefined
  const cost = Rate.percentageOrFail(ctx.costOfAcceptance, "costOfAcceptance")
  return isFeeError(cost) ? cost : undefined
}

/** The largest compliant fee for `amount` in this context (minor units), null when nothing caps it. */
export const maxFee = (
  ruleset: Ruleset,
  input: ComplianceInput & { readonly amount: number }
): Either.Either<number | null, FeeError> => Either.map(check(ruleset, input), (v) => v.maxFee)

/**
 * The largest compliant fee not above `fee`: the flat part lowered to its cap, then the
 * whole to the rate cap; 0 where no fee may be charged or the region is unknown.
 */
export const compliantFee = (
  verdict: ComplianceVerdict,
  fee: number,
  flatPart: number,
  flatCap: number | null,
  flatOnly: boolean
): number => {
  if (verdict.compliant) return fee
  // No known rule (unknown region) can make any fee compliant: collect none.
  if (verdict.maxFee === 0 || verdict.reasonCode === "unknown_region") return 0
  const flat = Math.min(flatPart, flatCap ?? flatPart)
  const lowered = (flatOnly ? 0 : fee - flatPart) + flat
  return Math.min(lowered, verdict.maxFee ?? lowered)
}

/** A fee with its flat part, every amount known: what `adjustToCompliant` lowers. */
export type MeasuredInput = ComplianceInput & {
  readonly amount: number
  readonly fee: number
  readonly flatPart: number
}

/** A fee lowered to the largest compliant one, the verdict on it, and the verdict on the fee asked about. */
export interface Adjusted {
  readonly fee: number
  readonly verdict: ComplianceVerdict
  readonly original: ComplianceVerdict
}

/**
 * What a fee of `fee` with flat part `flatPart` becomes under the rules, and the verdict on it:
 * the fee checked, lowered when not compliant, and the lowered fee checked again.
 */
export const adjustToCompliant = (
  ruleset: Ruleset,
  input: MeasuredInput
): Either.Either<Adjusted, FeeError> =>
  Either.flatMap(check(ruleset, input), (original) => {
    if (original.compliant) return Either.right({ fee: input.fee, verdict: original, original })
    const found = input.region == null ? undefined : policyFor(ruleset, input.region, input)
    const policy =
      found === undefined || isFeeError(found) ? undefined : forAmount(ruleset, found, input)
    const { fee, flatPart } = lowered(policy, original, input, currencyOf(policy, input))
    return Either.map(check(ruleset, { ...input, fee, flatPart }), (verdict) => ({
      fee,
      verdict,
      original
    }))
  })

/**
 * `adjustToCompliant` without the Either, for the hot path (an estimate, a charge's quote): the
 * policy is looked up and the fee measured once, and the lowered fee is decided under the same
 * policy, which is all a second `check` would do. `ctx` and `fee` may be different objects.
 */
export const adjustOrFail = (
  ruleset: Ruleset,
  ctx: ComplianceContext,
  fee: FeeUnderCheck & { readonly amount: number; readonly fee: number; readonly flatPart: number }
): Adjusted | FeeError => {
  const refused = rateError(ctx, fee)
  return refused !== undefined ? refused : adjustQuotedOrFail(ruleset, ctx, fee)
}

/**
 * `adjustOrFail` for a fee whose rates were read from a schedule already checked
 * (`FeeSchedule.ratesError`, as `Fee.quoteIn` does): only the context's cost of acceptance is
 * checked here. The hot path of an estimate (docs/performance.md).
 */
export const adjustQuotedOrFail = (
  ruleset: Ruleset,
  ctx: ComplianceContext,
  fee: FeeUnderCheck & { readonly amount: number; readonly fee: number; readonly flatPart: number }
): Adjusted | FeeError => {
  const refused = costError(ctx)
  if (refused !== undefined) return refused
  const region = ctx.region
  if (region === undefined || region === null) {
    const verdict = noRules(ruleset)
    return { fee: fee.fee, verdict, original: verdict }
  }
  const found = policyFor(ruleset, region, ctx)
  if (found === undefined) {
    // No fee is compliant in an unknown place, and none is collected: the verdict stays.
    const verdict = unknownRegion(ruleset, region, true)
    return { fee: lowered(undefined, verdict, fee, undefined).fee, verdict, original: verdict }
  }
  if (isFeeError(found)) return found
  const policy = forAmount(ruleset, found, fee)
  const m = measure(policy, fee)
  if (isFeeError(m)) return m
  const original = decide(ruleset, region, policy, ctx, fee, m)
  if (original.compliant) return { fee: fee.fee, verdict: original, original }
  const lower = lowered(policy, original, fee, m.unit)
  const again: FeeUnderCheck & Measured = {
    percentage: fee.percentage,
    flatFee: fee.flatFee,
    amount: fee.amount,
    currency: fee.currency,
    unit: m.unit,
    fee: lower.fee,
    flatPart: lower.flatPart
  }
  return { fee: lower.fee, verdict: decide(ruleset, region, policy, ctx, again, again), original }
}

/**
 * A non-compliant fee lowered: the flat part to its cap, the whole to the largest compliant fee;
 * the flat part as lowered, so the lowered fee is checked with it, not the configured one.
 */
const lowered = (
  policy: Policy.Policy | undefined,
  original: ComplianceVerdict,
  input: { readonly fee: number; readonly flatPart: number },
  currency: Currency.Currency | undefined
): { readonly fee: number; readonly flatPart: number } => {
  const flatCap =
    policy === undefined || currency === undefined ? null : flatCapMinor(policy, currency)
  const fee = compliantFee(
    original,
    input.fee,
    input.flatPart,
    flatCap,
    policy?.flatOnlyBy !== undefined
  )
  return { fee, flatPart: Math.min(input.flatPart, flatCap ?? input.flatPart, fee) }
}

// ---- situation and policy -------------------------------------------------

/**
 * Cached policies of one region: by variant for an unnamed network, and by network name. A
 * payment that names its scheme, issuing country, standard channel or merchant category is rarer: its policies
 * are kept by a key of all of them.
 */
interface RegionSlots {
  readonly anyNetwork: Array<Policy.Policy | null | undefined>
  readonly byNetwork: Map<string, Array<Policy.Policy | null | undefined>>
  readonly detailed: Map<string, Policy.Policy | null>
}

const CARD_SLOT: Readonly<Record<CardType, number>> = { credit: 8, debit: 16, prepaid: 24 }

const INVALID_DATE = fail("parameter_invalid", "date", "date must be an ISO date (YYYY-MM-DD).")
const INVALID_CATEGORY = fail(
  "parameter_invalid",
  "merchantCategoryCode",
  'merchantCategoryCode must be a merchant category code of four digits (ISO 18245), e.g. "9311".'
)
const isCategoryCode = Schema.is(MerchantCategoryCode)

/**
 * The policy for the context's situation and day, from the cache while its validity window
 * holds. A policy that holds for good needs no clock reading at all (days only advance).
 */
const policyFor = (
  ruleset: Ruleset,
  rawRegion: string,
  ctx: ComplianceContext
): Policy.Policy | FeeError | undefined => {
  const regions = ruleset.policies as Map<string, RegionSlots>
  let region = regions.get(rawRegion)
  if (region === undefined) {
    if (regions.size > 10_000) regions.clear()
    region = { anyNetwork: [], byNetwork: new Map(), detailed: new Map() }
    regions.set(rawRegion, region)
  }
  const network = ctx.cardNetwork ?? ""
  let slots = network === "" ? region.anyNetwork : region.byNetwork.get(network)
  if (slots === undefined) {
    if (region.byNetwork.size > 100) region.byNetwork.clear()
    slots = []
    region.byNetwork.set(network, slots)
  }
  const business = ctx.cardholder === "business"
  const convenienceFee = ctx.feeType === "convenience_fee"
  const channel = ctx.channel === "in_person" ? "in_person" : "online"
  const slot =
    (ctx.cardType === undefined ? 0 : CARD_SLOT[ctx.cardType]) +
    (business ? 4 : 0) +
    (convenienceFee ? 2 : 0) +
    (channel === "online" ? 0 : 1)
  const detailed =
    ctx.cardScheme !== undefined ||
    ctx.cardIssuingCountry !== undefined ||
    ctx.standardChannel !== undefined ||
    ctx.merchantCategoryCode != null
  if (detailed) return detailedPolicy(ruleset, rawRegion, region, ctx, network, slot)
  const hit = slots[slot]
  if (hit === null && ctx.date === undefined) return undefined
  // Good for today only if it was already in force on the last day read from the clock: a
  // policy built for a later date (an account's future version) must not stand in for today.
  if (
    hit != null &&
    ctx.date === undefined &&
    hit.validUntil === Number.POSITIVE_INFINITY &&
    hit.validFrom <= todayCache.day
  )
    return hit
  const day = dayOf(ctx.date)
  if (day === undefined) return INVALID_DATE
  if (hit === null) return undefined
  if (hit !== undefined && hit.validFrom <= day && day < hit.validUntil) return hit
  const built = Policy.build(ruleset, situation(rawRegion, day, ctx, network))
  slots[slot] = built ?? null
  return built
}

/** The policy of a payment that names its scheme, issuing country, standard channel or merchant category. */
const detailedPolicy = (
  ruleset: Ruleset,
  rawRegion: string,
  region: RegionSlots,
  ctx: ComplianceContext,
  network: string,
  slot: number
): Policy.Policy | FeeError | undefined => {
  const category = ctx.merchantCategoryCode
  if (category != null && !isCategoryCode(category)) return INVALID_CATEGORY
  const key = `${slot}|${network}|${ctx.cardScheme}|${ctx.cardIssuingCountry}|${ctx.standardChannel}|${category}`
  const hit = region.detailed.get(key)
  if (hit === null && ctx.date === undefined) return undefined
  const day = dayOf(ctx.date)
  if (day === undefined) return INVALID_DATE
  if (hit === null) return undefined
  if (hit !== undefined && hit.validFrom <= day && day < hit.validUntil) return hit
  if (region.detailed.size > 1_000) region.detailed.clear()
  const built = Policy.build(ruleset, situation(rawRegion, day, ctx, network))
  region.detailed.set(key, built ?? null)
  return built
}

/** Policies rebuilt for an amount, by the ranges it is in: one per stretch of amounts, not per amount. */
const byAmount = new WeakMap<Policy.Policy, Map<string, Policy.Policy>>()

/**
 * The policy for the fee's amount where a rule read scopes by amount (Utah's "$10,000 or less");
 * otherwise, or with no amount given, the policy itself (which binds the strictest either side).
 */
const forAmount = (ruleset: Ruleset, policy: Policy.Policy, fee: FeeUnderCheck): Policy.Policy => {
  if (policy.amountScopes.length === 0 || fee.amount === undefined) return policy
  const currency = fee.unit?.code ?? (fee.currency ?? policy.place?.currency ?? "usd").toLowerCase()
  const amount = { minor: fee.amount, currency }
  let key = ""
  for (const range of policy.amountScopes) key += Clauses.side(range, amount)
  let built = byAmount.get(policy)
  if (built === undefined) {
    built = new Map()
    byAmount.set(policy, built)
  }
  let hit = built.get(key)
  if (hit === undefined) {
    hit = Policy.build(ruleset, { ...policy.situation, amount }) ?? policy
    built.set(key, hit)
  }
  return hit
}

const situation = (
  rawRegion: string,
  day: number,
  ctx: ComplianceContext,
  network: string
): Policy.Situation => {
  const region = rawRegion.toUpperCase()
  const cardNetwork = network.toLowerCase()
  return {
    region,
    day,
    network: cardNetwork,
    business: ctx.cardholder === "business",
    convenienceFee: ctx.feeType === "convenience_fee",
    channel: ctx.channel === "in_person" ? "in_person" : "online",
    cardType: ctx.cardType,
    scheme: ctx.cardScheme ?? Issuing.schemeOf(cardNetwork),
    issuing:
      ctx.cardIssuingCountry === undefined
        ? undefined
        : Issuing.issuingOf(region.slice(0, 2), ctx.cardIssuingCountry.toUpperCase()),
    standardChannel: ctx.standardChannel,
    amount: undefined,
    merchantCategory: ctx.merchantCategoryCode ?? undefined
  }
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

/** The fee in minor units; named like FeeUnderCheck's fields so a fully quoted input is its own measure. */
interface Measured {
  readonly amount: number | undefined
  readonly fee: number
  readonly flatPart: number
  readonly unit: Currency.Currency | undefined
}

const UNMEASURED: Measured = { amount: undefined, fee: 0, flatPart: 0, unit: undefined }

const currencyOf = (
  policy: Policy.Policy | undefined,
  input: FeeUnderCheck
): Currency.Currency | undefined =>
  input.unit ?? Currency.lookup(input.currency ?? policy?.place?.currency ?? "usd")

const measure = (policy: Policy.Policy, input: FeeUnderCheck): Measured | FeeError => {
  if (input.amount === undefined) return UNMEASURED
  if (input.unit !== undefined && input.fee !== undefined && input.flatPart !== undefined) {
    return input as Measured
  }
  const currency = currencyOf(policy, input)
  if (currency === undefined) {
    return fail("currency_not_supported", "currency", `Invalid currency: ${input.currency}.`)
  }
  if (input.fee !== undefined) {
    return { amount: input.amount, fee: input.fee, flatPart: input.flatPart ?? 0, unit: currency }
  }
  const flat = Rate.flatFeeMinorOrFail(input.flatFee, currency)
  if (isFeeError(flat)) return flat
  const pct = Rounding.mulDiv(
    input.amount,
    input.percentage.ppm,
    Rate.PPM * currency.increment,
    "half_up"
  )
  return {
    amount: input.amount,
    fee: pct * currency.increment + flat,
    flatPart: flat,
    unit: currency
  }
}

const flatCapMinor = (policy: Policy.Policy, currency: Currency.Currency): number | null =>
  flatCapIn(policy.flatCap.value, currency)

/**
 * A flat cap in thousandths of a major unit (Infinity for none) as minor units of `currency`, on
 * its increment; null for none.
 */
export const flatCapIn = (thousandths: number, currency: Currency.Currency): number | null => {
  if (thousandths === Number.POSITIVE_INFINITY) return null
  const minor = Math.floor((thousandths * 10 ** currency.exponent) / 1000)
  return Math.floor(minor / currency.increment) * currency.increment
}

// ---- what a context does to every fee ---------------------------------------

/**
 * What the rules of one payment context do to a fee of any amount: the inputs `decide` and
 * `lowered` read besides the fee itself. For callers that reason over every amount at once
 * (the server's FeeRaise), so they read the engine's own policy rather than a copy of it.
 */
export interface Restriction {
  /** Some rule rules out any fee, whatever the account allows (`maxFee` 0). */
  readonly blocked: boolean
  /** Any fee is ruled out only while the account has not opted in to legally uncertain places. */
  readonly uncertain: boolean
  /** The fee must be flat: a fee above its flat part is not compliant. */
  readonly flatOnly: boolean
  /** The cap on `fee / amount` in ppm for a cost of acceptance (undefined: none given); Infinity for none. */
  readonly rateCap: (costOfAcceptance: number | undefined) => number
  /** Cap on the flat part, thousandths of a major unit (see `flatCapIn`); Infinity for none. */
  readonly flatCap: number
  /** The same as another restriction with the same key. */
  readonly key: string
  /** First day on which the policy read no longer holds; Infinity for never. */
  readonly validUntil: number
}

/** The payments whose own flags `restrictionsOf` answers for, in its order. */
export const PAYMENT_FLAGS: ReadonlyArray<{
  readonly recurring: boolean
  readonly disclosed: boolean
}> = [
  { recurring: false, disclosed: true },
  { recurring: false, disclosed: false },
  { recurring: true, disclosed: true },
  { recurring: true, disclosed: false }
]

/**
 * The restrictions of `ctx` (its region given) on its `date`, for each of `PAYMENT_FLAGS` in
 * turn (its own `recurring` and `disclosed` are not read), from one policy lookup; undefined
 * for a region the ruleset does not know (no fee is collected there). `allowUncertain` and
 * `costOfAcceptance` are not read either: a restriction answers for every value of them.
 */
export const restrictionsOf = (
  ruleset: Ruleset,
  ctx: ComplianceContext & { readonly region: string }
): ReadonlyArray<Restriction> | FeeError | undefined => {
  const policy = policyFor(ruleset, ctx.region, ctx)
  if (policy === undefined || isFeeError(policy)) return policy
  let made = restrictions.get(policy)
  if (made === undefined) {
    made = [undefined, undefined, undefined]
    restrictions.set(policy, made)
  }
  const out: Array<Restriction> = []
  // One record for every variant: `blockedBy` reads it and keeps nothing of it.
  const payment = { ...ctx, recurring: false, disclosed: true, allowUncertain: true }
  for (const flags of PAYMENT_FLAGS) {
    payment.recurring = flags.recurring
    payment.disclosed = flags.disclosed
    payment.allowUncertain = true
    const blocked = blockedBy(policy, payment, FLAT_FEE) !== undefined
    payment.allowUncertain = false
    const uncertain = !blocked && blockedBy(policy, payment, FLAT_FEE) !== undefined
    const at = blocked ? 0 : uncertain ? 1 : 2
    made[at] ??= makeRestriction(policy, blocked, uncertain)
    out.push(made[at])
  }
  return out
}

/** A policy's restrictions (blocked, uncertain, neither), made once: a key is a string to build. */
const restrictions = new WeakMap<Policy.Policy, Array<Restriction | undefined>>()

const makeRestriction = (
  policy: Policy.Policy,
  blocked: boolean,
  uncertain: boolean
): Restriction => {
  const flatOnly = policy.flatOnlyBy !== undefined
  const elections = JSON.stringify(policy.elections.map((e) => e.limits))
  return {
    blocked,
    uncertain,
    flatOnly,
    rateCap: (cost) => rateCap(policy, cost).value,
    flatCap: policy.flatCap.value,
    key: `${blocked}|${uncertain}|${flatOnly}|${policy.cap.value}|${policy.costOfAcceptanceBy !== undefined}|${elections}|${policy.flatCap.value}`,
    validUntil: policy.validUntil
  }
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
  ctx: ComplianceContext,
  input: FeeUnderCheck,
  m: Measured
): ComplianceVerdict => {
  const blocked = blockedBy(policy, ctx, input)
  // A convenience fee that must be flat rules out its percentage, not a flat fee within the caps:
  // no fee at all is allowed only if a flat one would be blocked too.
  const none =
    blocked !== undefined &&
    (blocked.code !== "convenience_fee_must_be_flat" ||
      blockedBy(policy, ctx, FLAT_FEE) !== undefined)
  const cap = rateCap(policy, ctx.costOfAcceptance?.ppm)
  const flatCap = m.unit === undefined ? null : flatCapMinor(policy, m.unit)
  const maxFee = none ? 0 : feeCap(cap.value, flatCap, policy, m)
  const zero =
    m.amount === undefined ? input.percentage.ppm === 0 && input.flatFee.units === 0 : m.fee === 0
  const failure = zero ? undefined : (blocked ?? overCap(policy, input, m, cap, flatCap))
  const maxPercentage = none
    ? 0
    : cap.value === Number.POSITIVE_INFINITY
      ? null
      : Rate.percentageToNumber(cap.value)
  return {
    compliant: failure === undefined,
    region,
    reasonCode: failure === undefined ? null : failure.code,
    reason: failure === undefined ? null : failure.reason,
    maxPercentage,
    maxFee,
    disclosureText: policy.disclosureText,
    rulesetVersion: ruleset.version,
    rules: policy.rules
  }
}

/** A fee with no percentage part, to ask whether a flat fee would be blocked. */
const FLAT_FEE: FeeUnderCheck = { percentage: Rate.ZERO_PERCENT, flatFee: Rate.NO_FLAT_FEE }

/** The first condition, other than a cap, that rules out any fee. */
const blockedBy = (
  p: Policy.Policy,
  input: ComplianceContext,
  fee: FeeUnderCheck
): Failure | undefined => {
  if (p.open) return cardTypeOrDisclosure(p, input)
  if (p.prohibitedBy)
    return {
      code: "fees_prohibited",
      reason: memo(
        p,
        "prohibited",
        () => `Card fees are prohibited in ${label(p, p.prohibitedBy)}.`
      )
    }
  if (p.cardholderBy) {
    const who = input.cardholder ?? "consumer"
    return {
      code: "cardholder_not_allowed",
      reason: memo(
        p,
        who,
        () => `Fees may not be charged to ${who} cardholders in ${label(p, p.cardholderBy)}.`
      )
    }
  }
  const wanted = input.cardType === undefined ? Policy.ALL_CARDS : Policy.CARD_BIT[input.cardType]
  if ((p.cardTypes.value & wanted) !== wanted) return cardTypeFailure(p, input.cardType)
  if (p.channelBy) {
    return {
      code: "convenience_fee_channel",
      reason: memo(
        p,
        input.channel ?? "online",
        () =>
          `${rulePhrase(p, p.channelBy)} does not allow this fee for ${input.channel ?? "online"} payments.`
      )
    }
  }
  if (p.standardChannelBy) {
    const channel = input.channel ?? "online"
    return {
      code: "convenience_fee_channel",
      reason: memo(
        p,
        "standard_channel",
        () =>
          `${rulePhrase(p, p.standardChannelBy)} allows this fee only outside the merchant's standard payment channel, and ${channel} is the standard channel.`
      )
    }
  }
  if (input.recurring === true && p.recurringBy) {
    return {
      code: "convenience_fee_channel",
      reason: memo(
        p,
        "recurring",
        () => `${rulePhrase(p, p.recurringBy)} does not allow this fee on recurring payments.`
      )
    }
  }
  if (p.flatOnlyBy && nonFlat(fee)) {
    return {
      code: "convenience_fee_must_be_flat",
      reason: memo(
        p,
        "flat",
        () =>
          `${rulePhrase(p, p.flatOnlyBy)} requires a convenience fee to be a flat amount, with no percentage.`
      )
    }
  }
  if (p.missing !== undefined) {
    return {
      code: "legal_uncertainty",
      // Not memoised: a cached policy serves many days, and the message names the one asked about.
      reason: `No rule for ${p.missing} is known to be in force on ${Day.toIso(dayOf(input.date) ?? p.day)}.`
    }
  }
  if (p.uncertainBy && input.allowUncertain !== true) {
    return {
      code: "legal_uncertainty",
      reason: memo(
        p,
        "uncertain",
        () =>
          `The law on card fees in ${label(p, p.uncertainBy)} is uncertain; the account must opt in (allowUncertain) to charge one.`
      )
    }
  }
  return disclosureFailure(p, input)
}

/** The card-type and disclosure checks: all that can block a fee where no rule forbids one. */
const cardTypeOrDisclosure = (p: Policy.Policy, input: ComplianceContext): Failure | undefined => {
  const wanted = input.cardType === undefined ? Policy.ALL_CARDS : Policy.CARD_BIT[input.cardType]
  if ((p.cardTypes.value & wanted) !== wanted) return cardTypeFailure(p, input.cardType)
  return disclosureFailure(p, input)
}

const disclosureFailure = (p: Policy.Policy, input: ComplianceContext): Failure | undefined =>
  p.disclosureBy && input.disclosed === false
    ? {
        code: "disclosure_required",
        reason: memo(
          p,
          "disclosure",
          () => `${label(p, p.place)} requires the fee to be disclosed to the payer before payment.`
        )
      }
    : undefined

const nonFlat = (input: FeeUnderCheck): boolean =>
  input.fee !== undefined ? input.fee > (input.flatPart ?? 0) : input.percentage.ppm > 0

const cardTypeFailure = (p: Policy.Policy, cardType: CardType | undefined): Failure => {
  const allowed = (Object.keys(Policy.CARD_BIT) as Array<CardType>).filter(
    (t) => (p.cardTypes.value & Policy.CARD_BIT[t]) !== 0
  )
  const list = allowed.length === 0 ? "no card type" : `${allowed.join(" and ")} cards only`
  const card = cardType === undefined ? "an unknown card type (pass cardType)" : `${cardType} cards`
  return {
    code: "card_type_not_allowed",
    reason: memo(
      p,
      card,
      () => `Fees may not be charged on ${card} under ${rulePhrase(p, p.cardTypes.by)}: ${list}.`
    )
  }
}

interface Cap {
  readonly value: number
  readonly code: ReasonCode
  readonly by: Rule | undefined
  /** Set by an election: the cap is the loosest limit the merchant may elect. */
  readonly elected?: true
}

/** The lowest cap on the effective rate, and whose it is (law before network before cost on ties). */
const rateCap = (p: Policy.Policy, costOfAcceptance: number | undefined): Cap => {
  if (costOfAcceptance !== undefined || p.elections.length === 0)
    return lowestCap(p, costOfAcceptance)
  // With no cost given the cap depends on the policy alone: an election's is worked out once.
  let cap = uncostedCaps.get(p)
  if (cap === undefined) {
    cap = lowestCap(p, undefined)
    uncostedCaps.set(p, cap)
  }
  return cap
}

/** Caps of policies with elections, for payments that give no cost of acceptance. */
const uncostedCaps = new WeakMap<Policy.Policy, Cap>()

const lowestCap = (p: Policy.Policy, costOfAcceptance: number | undefined): Cap => {
  let cap: Cap = p.cap
  if (p.costOfAcceptanceBy && costOfAcceptance !== undefined && costOfAcceptance < cap.value) {
    cap = { value: costOfAcceptance, code: "over_cost_of_acceptance", by: p.costOfAcceptanceBy }
  }
  for (const election of p.elections) {
    const value = electedCap(election, costOfAcceptance)
    if (value < cap.value)
      cap = { value, code: "percentage_over_limit", by: election.by, elected: true }
  }
  return cap
}

/**
 * The largest rate any one of an election's limits allows. A limit of the cost of acceptance
 * counts only when the cost is known; an election of nothing else then binds nothing, as the
 * cost-of-acceptance cap of a rule without an election does.
 */
const electedCap = (election: Policy.Election, cost: number | undefined): number => {
  let best = Number.NEGATIVE_INFINITY
  for (const limit of election.limits) {
    if (limit.costOfAcceptance && cost === undefined) continue
    const value = limit.costOfAcceptance ? Math.min(limit.ppm, cost!) : limit.ppm
    if (value > best) best = value
  }
  return best === Number.NEGATIVE_INFINITY ? Number.POSITIVE_INFINITY : best
}

const feeCap = (
  capPpm: number,
  flatCap: number | null,
  p: Policy.Policy,
  m: Measured
): number | null => {
  if (m.amount === undefined || m.unit === undefined) return null
  const inc = m.unit.increment
  const byRate =
    capPpm === Number.POSITIVE_INFINITY
      ? null
      : Rounding.mulDivDown(m.amount, capPpm, Rate.PPM * inc) * inc
  const byFlat = p.flatOnlyBy ? flatCap : null
  if (byRate === null) return byFlat
  return byFlat === null ? byRate : Math.min(byRate, byFlat)
}

const overCap = (
  p: Policy.Policy,
  input: FeeUnderCheck,
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
      reason: memo(
        p,
        "flat_cap",
        () => `The flat fee is above the maximum flat fee under ${rulePhrase(p, p.flatCap.by)}.`
      )
    }
  }
  if (cap.value === Number.POSITIVE_INFINITY) return undefined
  const over =
    m.amount === undefined
      ? input.percentage.ppm > cap.value
      : m.fee * Rate.PPM > m.amount * cap.value
  if (!over) return undefined
  if (cap.code === "over_cost_of_acceptance" || cap.elected) {
    // An elected cap kept for the policy always reads the same: its words are built once.
    const reason =
      cap === uncostedCaps.get(p)
        ? memo(p, "elected_cap", () => overCapReason(p, cap))
        : overCapReason(p, cap)
    return { code: cap.code, reason }
  }
  p.capFailure ??= { code: cap.code, reason: overCapReason(p, cap) }
  return p.capFailure as Failure
}

const overCapReason = (p: Policy.Policy, cap: Cap): string => {
  const whose =
    cap.code === "over_cost_of_acceptance"
      ? "the merchant's cost of acceptance"
      : cap.elected
        ? `the largest of the limits the merchant may elect under ${rulePhrase(p, cap.by)}`
        : `the maximum under ${rulePhrase(p, cap.by)}`
  return `The fee is above ${Rate.percentageToNumber(cap.value)}% of the amount, ${whose}.`
}

/** A policy's text for `key`, built once: the same situation always gets the same words. */
const memo = (p: Policy.Policy, key: string, build: () => string): string => {
  let text = p.texts.get(key)
  if (text === undefined) {
    text = build()
    p.texts.set(key, text)
  }
  return text
}

const placeLabel = (rule: Rule | undefined): string =>
  rule === undefined
    ? "this region"
    : rule.state === null
      ? rule.code
      : `${rule.state} (${rule.code})`

/** A rule's name in a reason, saying so when it binds this card only through network parity. */
const label = (p: Policy.Policy, rule: Rule | undefined): string =>
  placeLabel(rule) + conditions(p, rule) + throughParity(p, rule)

const rulePhrase = (p: Policy.Policy, rule: Rule | undefined): string =>
  (rule === undefined
    ? "the rules"
    : rule.kind === "place"
      ? `the law of ${placeLabel(rule)}`
      : `rule ${rule.code}`) +
  conditions(p, rule) +
  throughParity(p, rule)

/** The rule's conditions this payment met: its amount, its merchant's category. */
const conditions = (p: Policy.Policy, rule: Rule | undefined): string =>
  AmountCondition.phrase(rule, p.situation.amount) +
  CategoryCondition.phrase(rule, p.situation.merchantCategory)

const throughParity = (p: Policy.Policy, rule: Rule | undefined): string =>
  rule !== undefined && p.parityBy !== undefined && p.throughParity.has(rule)
    ? ` (for another network's comparable card, which binds this one through rule ${p.parityBy.code}: a fee no higher than on other networks' cards)`
    : ""

const noRulesCache = new WeakMap<Ruleset, ComplianceVerdict>()

/** The verdict where no rules apply, one per ruleset (verdicts are never mutated). */
const noRules = (ruleset: Ruleset): ComplianceVerdict => {
  let verdict = noRulesCache.get(ruleset)
  if (verdict === undefined) {
    verdict = noRulesVerdict(ruleset)
    noRulesCache.set(ruleset, verdict)
  }
  return verdict
}

const noRulesVerdict = (ruleset: Ruleset): ComplianceVerdict => ({
  compliant: true,
  region: null,
  // Compliant, so no reason (null iff compliant); the code says no rule was checked.
  reasonCode: "no_region",
  reason: null,
  maxPercentage: null,
  maxFee: null,
  disclosureText: null,
  rulesetVersion: ruleset.version,
  rules: []
})

/** An unknown place: no fee is known to be legal there, so none is (maxFee 0 when the amount is known). */
const unknownRegion = (
  ruleset: Ruleset,
  region: string,
  amountKnown: boolean
): ComplianceVerdict => ({
  compliant: false,
  region,
  reasonCode: "unknown_region",
  reason: `Unknown region: ${region.slice(0, 40)}. Use a country code (US) or a subdivision code (US-NY) from the ruleset.`,
  maxPercentage: 0,
  maxFee: amountKnown ? 0 : null,
  disclosureText: null,
  rulesetVersion: ruleset.version,
  rules: []
})

/**
 * A fee quote together with its compliance verdict: the fee a charge collects, lowered to the
 * largest compliant one (docs/design.md §3), so a checkout that shows the estimate shows what
 * the shopper pays; the configured fee and its verdict are kept beside it.
 */
import { Either } from "effect"
import * as Currency from "./Currency.js"
import * as Compliance from "./compliance/Compliance.js"
import type { Ruleset } from "./compliance/Ruleset.js"
import * as Disclosure from "./Disclosure.js"
import * as Fee from "./Fee.js"
import { type FeeError, isFeeError } from "./FeeError.js"
import { type FeeSchedule, feesIn, ratesError } from "./FeeSchedule.js"
import * as Rate from "./Rate.js"

/** What an estimate or a charge is asked for. */
export interface FeeRequest extends Compliance.ComplianceContext {
  readonly amount: unknown
  readonly currency: unknown
}

/**
 * What a charge with the request's inputs collects: the configured fee lowered to the largest
 * compliant one (docs/design.md §3), the verdict on that fee with its disclosure rendered, and
 * the configured fee with its own verdict beside it.
 */
export interface Estimate extends Fee.FeeQuote {
  /** Whether the fee quoted (and collected by a charge) is compliant. */
  readonly compliant: boolean
  readonly region: string | null
  /** The verdict on the quoted fee; `disclosureText` is the text to show for it, or null. */
  readonly compliance: Compliance.ComplianceVerdict
  /** The configured fee, before compliance lowered it, and the verdict on it (why it was lowered). */
  readonly configured: Configured
}

/** The configured fee and the verdict on it. */
export interface Configured extends Compliance.ComplianceVerdict {
  readonly convenienceFee: number
  readonly totalAmount: number
}

/** A charge's quote: the same as an estimate (kept as a name of its own for callers). */
export type ChargeQuote = Estimate

/**
 * The quote a charge collects: never a non-compliant fee where a compliant one exists, and never
 * more than `ceiling` (the fee of a quote the shopper was shown, docs/quotes.md: a fee below a
 * compliant one stays compliant), the disclosure rendered for the fee collected. Compliance
 * is evaluated once: the verdict on the configured fee and, when it is lowered, the verdict on
 * the lowered fee come from one policy lookup (docs/performance.md).
 */
export const estimate = (
  schedule: FeeSchedule,
  ruleset: Ruleset,
  request: FeeRequest,
  ceiling: number = Number.POSITIVE_INFINITY
): Either.Either<Estimate, FeeError> => {
  const unit = Fee.currencyOrFail(request.currency)
  if (isFeeError(unit)) return Either.left(unit)
  const q = Fee.quoteIn(schedule, request.amount, unit, request.currency as string)
  if (isFeeError(q)) return Either.left(q)
  const adjusted = adjust(schedule, ruleset, request, q, unit)
  if (isFeeError(adjusted)) return Either.left(adjusted)
  const original = adjusted.original
  if (original.compliant && q.convenienceFee <= ceiling) {
    const text = disclosureOf(original, q, q.convenienceFee, unit)
    return Either.right(
      withVerdict(q, q.convenienceFee, shownWith(original, text), configuredOf(q, original, text))
    )
  }
  const verdict = original.compliant ? original : adjusted.verdict
  const fee = Math.min(original.compliant ? q.convenienceFee : adjusted.fee, ceiling)
  return Either.right(
    withVerdict(
      q,
      fee,
      shownWith(verdict, disclosureOf(verdict, q, fee, unit)),
      configuredOf(q, original, disclosureOf(original, q, q.convenienceFee, unit))
    )
  )
}

/** The same as `estimate`: what a charge collects. */
export const chargeQuote = estimate

/**
 * The compliance step of `estimate`, on its own: the quote `q` (`Fee.quoteIn` of the request's
 * amount in `unit`) decided and, when not compliant, lowered. The fee a charge collects is
 * `q.convenienceFee` when `original.compliant`, else `fee` (compliant when `verdict.compliant`),
 * as `estimate` builds it, without the disclosures and objects an estimate adds. For callers
 * that price many charges: a quote depends on the amount and currency only, so it can be
 * reused across compliance contexts (feeConfigs/FeeRaise.ts in the server).
 */
export const adjust = (
  schedule: FeeSchedule,
  ruleset: Ruleset,
  request: Compliance.ComplianceContext,
  q: Fee.FeeQuote,
  unit: Currency.Currency
): Compliance.Adjusted | FeeError =>
  ratesError(schedule) ??
  Compliance.adjustQuotedOrFail(ruleset, request, quotedFee(schedule, q, unit))

/**
 * The quote of the configured fee itself, as a charge under `nonCompliant: "reject"` sees it:
 * refused (not lowered) when not compliant.
 */
export const asConfigured = (e: Estimate): Estimate =>
  e.configured.convenienceFee === e.convenienceFee && e.configured.compliant === e.compliant
    ? e
    : {
        ...Fee.withFee(e, e.configured.convenienceFee),
        compliant: e.configured.compliant,
        region: e.region,
        compliance: e.configured,
        configured: e.configured
      }

/**
 * The verdict with its disclosure text and the fee it is on: a copy grown by two fields, not a
 * spread (see `withText`).
 */
const configuredOf = (
  q: Fee.FeeQuote,
  v: Compliance.ComplianceVerdict,
  disclosureText: string | null
): Configured => {
  const configured = withText(v, disclosureText) as Mutable<Configured>
  configured.convenienceFee = q.convenienceFee
  configured.totalAmount = q.totalAmount
  return configured
}

/**
 * The verdict's disclosure rendered for the quoted fee (docs/compliance.md). The fee is written
 * into one reused record, as `quotedFee` is: `render` reads it and keeps nothing of it.
 */
const disclosureOf = (
  verdict: Compliance.ComplianceVerdict,
  q: Fee.FeeQuote,
  fee: number,
  unit: Currency.Currency
): string | null => {
  charged.amount = q.baseAmount
  charged.fee = fee
  charged.flatPart = flatPartOf(q, fee)
  charged.currency = unit
  return Disclosure.render(verdict.disclosureText, charged)
}

const charged: Mutable<Disclosure.Charged> = {
  amount: 0,
  fee: 0,
  flatPart: 0,
  currency: Currency.lookup("usd")!
}

/** The verdict with its disclosure text: itself when the text is the template's own. */
const shownWith = (
  v: Compliance.ComplianceVerdict,
  disclosureText: string | null
): Compliance.ComplianceVerdict =>
  disclosureText === v.disclosureText ? v : withText(v, disclosureText)

/** A copy written field by field: spreading a verdict took a tenth of an estimate (docs/performance.md). */
const withText = (
  v: Compliance.ComplianceVerdict,
  disclosureText: string | null
): Compliance.ComplianceVerdict => ({
  compliant: v.compliant,
  region: v.region,
  reasonCode: v.reasonCode,
  reason: v.reason,
  maxPercentage: v.maxPercentage,
  maxFee: v.maxFee,
  disclosureText,
  rulesetVersion: v.rulesetVersion,
  rules: v.rules
})

/** The flat part of a quoted fee: never more than the fee (a lowered fee may be all flat). */
const flatPartOf = (q: Fee.FeeQuote, fee: number): number => Math.min(q.feeBreakdown.flatFee, fee)

/**
 * The quote's fee as compliance checks it, written into one reused record: the check reads it
 * and keeps nothing of it, so an estimate need not allocate it.
 */
const quotedFee = (schedule: FeeSchedule, q: Fee.FeeQuote, unit: Currency.Currency): QuotedFee => {
  scratch.amount = q.baseAmount
  scratch.currency = q.currency
  scratch.unit = unit
  scratch.percentage = schedule.percentage
  scratch.flatFee = feesIn(schedule, unit).flatFee
  scratch.fee = q.convenienceFee
  scratch.flatPart = flatPartOf(q, q.convenienceFee)
  return scratch
}

const scratch: Mutable<QuotedFee> & { unit: Currency.Currency } = {
  amount: 0,
  currency: "",
  unit: Currency.lookup("usd")!,
  percentage: Rate.ZERO_PERCENT,
  flatFee: Rate.NO_FLAT_FEE,
  fee: 0,
  flatPart: 0
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** A quoted fee: every amount known. */
interface QuotedFee extends Compliance.FeeUnderCheck {
  readonly amount: number
  readonly currency: string
  readonly fee: number
  readonly flatPart: number
}

/**
 * The estimate: the quote with its fee replaced by `fee` (as `Fee.withFee` writes it: the change
 * in `adjustment`), written once with its verdicts rather than copied from a lowered quote.
 */
const withVerdict = (
  q: Fee.FeeQuote,
  fee: number,
  verdict: Compliance.ComplianceVerdict,
  configured: Configured
): Estimate => ({
  baseAmount: q.baseAmount,
  convenienceFee: fee,
  totalAmount: q.baseAmount + fee,
  currency: q.currency,
  feeStructure: q.feeStructure,
  feeBreakdown: q.feeBreakdown,
  adjustment: q.adjustment + fee - q.convenienceFee,
  model: q.model,
  rounding: q.rounding,
  compliant: verdict.compliant,
  region: verdict.region,
  compliance: verdict,
  configured
})

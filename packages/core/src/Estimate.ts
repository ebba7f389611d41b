/**
 * A fee quote together with its compliance verdict: `estimate` reports on the configured
 * fee as it is; `chargeQuote` lowers it to the largest compliant one, as a charge must
 * (docs/design.md §3).
 */
import { Either } from "effect"
import * as Currency from "./Currency.js"
import * as Compliance from "./compliance/Compliance.js"
import type { Ruleset } from "./compliance/Ruleset.js"
import * as Fee from "./Fee.js"
import { type FeeError, isFeeError } from "./FeeError.js"
import type { FeeSchedule } from "./FeeSchedule.js"

/** What an estimate or a charge is asked for. */
export interface FeeRequest extends Compliance.ComplianceContext {
  readonly amount: unknown
  readonly currency: unknown
}

/** A quote and the verdict on its fee. */
export interface Estimate extends Fee.FeeQuote {
  readonly compliant: boolean
  readonly region: string | null
  readonly compliance: Compliance.ComplianceVerdict
}

/** The configured fee for the request and whether it is compliant. */
export const estimate = (
  schedule: FeeSchedule,
  ruleset: Ruleset,
  request: FeeRequest
): Either.Either<Estimate, FeeError> => {
  const unit = Fee.currencyOrFail(request.currency)
  if (isFeeError(unit)) return Either.left(unit)
  const q = Fee.quoteIn(schedule, request.amount, unit, request.currency as string)
  if (isFeeError(q)) return Either.left(q)
  const verdict = Compliance.checkOrFail(ruleset, request, quotedFee(schedule, q, unit))
  return isFeeError(verdict) ? Either.left(verdict) : Either.right(withVerdict(q, verdict))
}

/** A charge's quote: the fee lowered to the largest compliant one, the original verdict kept. */
export interface ChargeQuote extends Estimate {
  /** The verdict on the configured fee, before it was lowered. */
  readonly configured: Compliance.ComplianceVerdict
}

/** The quote a charge collects: never a non-compliant fee. */
export const chargeQuote = (
  schedule: FeeSchedule,
  ruleset: Ruleset,
  request: FeeRequest
): Either.Either<ChargeQuote, FeeError> => {
  const quoted = Fee.quote(schedule, request.amount, request.currency)
  if (Either.isLeft(quoted)) return Either.left(quoted.left)
  const q = quoted.right
  const adjusted = Compliance.adjustToCompliant(ruleset, checkInput(schedule, request, q))
  if (Either.isLeft(adjusted)) return Either.left(adjusted.left)
  const { fee, verdict, original } = adjusted.right
  return Either.right({ ...withVerdict(Fee.withFee(q, fee), verdict), configured: original })
}

/**
 * The quote's fee as compliance checks it, written into one reused record: the check reads it
 * and keeps nothing of it, so an estimate need not allocate it.
 */
const quotedFee = (schedule: FeeSchedule, q: Fee.FeeQuote, unit: Currency.Currency): QuotedFee => {
  scratch.amount = q.baseAmount
  scratch.currency = q.currency
  scratch.unit = unit
  scratch.percentage = schedule.percentage
  scratch.flatFee = schedule.flatFee
  scratch.fee = q.convenienceFee
  scratch.flatPart = Math.min(q.feeBreakdown.flatFee, q.convenienceFee)
  return scratch
}

const scratch: Mutable<QuotedFee> & { unit: Currency.Currency } = {
  amount: 0,
  currency: "",
  unit: Currency.lookup("usd")!,
  percentage: 0,
  flatFee: { units: 0, scale: 0 },
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

/** The quote's fee as compliance checks it. */
const feeUnderCheck = (
  schedule: FeeSchedule,
  q: Fee.FeeQuote,
  unit?: Currency.Currency
): QuotedFee => ({
  amount: q.baseAmount,
  currency: q.currency,
  unit,
  percentage: schedule.percentage,
  flatFee: schedule.flatFee,
  fee: q.convenienceFee,
  flatPart: Math.min(q.feeBreakdown.flatFee, q.convenienceFee)
})

/** The compliance input for a charge's quote: the request's context and the quote's fee. */
const checkInput = (schedule: FeeSchedule, request: FeeRequest, q: Fee.FeeQuote): CheckInput => ({
  ...request,
  ...feeUnderCheck(schedule, q)
})

type CheckInput = Compliance.ComplianceInput & {
  readonly amount: number
  readonly fee: number
  readonly flatPart: number
}

const withVerdict = (q: Fee.FeeQuote, verdict: Compliance.ComplianceVerdict): Estimate => ({
  baseAmount: q.baseAmount,
  convenienceFee: q.convenienceFee,
  totalAmount: q.totalAmount,
  currency: q.currency,
  feeStructure: q.feeStructure,
  feeBreakdown: q.feeBreakdown,
  adjustment: q.adjustment,
  model: q.model,
  rounding: q.rounding,
  compliant: verdict.compliant,
  region: verdict.region,
  compliance: verdict
})

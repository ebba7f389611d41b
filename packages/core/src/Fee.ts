/**
 * The fee on an amount (docs/design.md §2): one rounding step on the percentage part, the
 * flat part exact, then the configured limits; `totalAmount = baseAmount + convenienceFee`.
 */
import type { Either } from "effect"
import * as Currency from "./Currency.js"
import * as Decimal from "./Decimal.js"
import { type FeeError, fail, isFeeError, toEither } from "./FeeError.js"
import {
  type CurrencyFees,
  type FeeModel,
  type FeeSchedule,
  feesIn,
  ratesError
} from "./FeeSchedule.js"
import * as Rate from "./Rate.js"
import * as Rounding from "./Rounding.js"

/** A computed fee, every amount in minor units. */
export interface FeeQuote {
  readonly baseAmount: number
  readonly convenienceFee: number
  readonly totalAmount: number
  /** The currency code exactly as the caller sent it. */
  readonly currency: string
  /** The configured rate in reference units: percent and major units ({2.9, 0.3}). */
  readonly feeStructure: { readonly percentage: number; readonly flatFee: number }
  /** The applied fee in minor units before limits ({290, 30} on 10000). */
  readonly feeBreakdown: { readonly percentage: number; readonly flatFee: number }
  /** What limits or compliance changed, signed: breakdown + adjustment = convenienceFee. */
  readonly adjustment: number
  readonly model: FeeModel
  readonly rounding: Rounding.RoundingMode
}

/** The fee and total for `amount` minor units of `currency` under `schedule`. */
export const quote = (
  schedule: FeeSchedule,
  amount: unknown,
  currency: unknown
): Either.Either<FeeQuote, FeeError> => toEither(quoteOrFail(schedule, amount, currency))

/** `quote` without the Either, for the hot path. */
export const quoteOrFail = (
  schedule: FeeSchedule,
  amount: unknown,
  currency: unknown
): FeeQuote | FeeError => {
  const unit = currencyOrFail(currency)
  return isFeeError(unit) ? unit : quoteIn(schedule, amount, unit, currency as string)
}

/** `quoteOrFail` once the currency is resolved; `code` is echoed as the caller sent it. */
export const quoteIn = (
  schedule: FeeSchedule,
  amount: unknown,
  unit: Currency.Currency,
  code: string
): FeeQuote | FeeError => {
  const base = checkAmount(schedule, amount, unit)
  if (isFeeError(base)) return base
  const refused = ratesError(schedule)
  if (refused !== undefined) return refused
  const percentage = schedule.percentage
  const fees = feesIn(schedule, unit)
  const flat = flatMinorOrFail(schedule, fees, unit)
  if (isFeeError(flat)) return flat
  const raw =
    schedule.model === "add_on"
      ? percentagePart(base, percentage.ppm, unit.increment, schedule.rounding)
      : grossUpTotal(base, flat, percentage.ppm, unit.increment) - base - flat
  const before = raw + flat
  const fee = limit(before, fees, unit.increment)
  if (base + fee > unit.maximumCharge) {
    return fail(
      "amount_too_large",
      "amount",
      `Amount plus fee must be at most ${Currency.describe(unit, unit.maximumCharge)}.`
    )
  }
  return {
    baseAmount: base,
    convenienceFee: fee,
    totalAmount: base + fee,
    currency: code,
    feeStructure: feeStructureOf(schedule, fees),
    feeBreakdown: { percentage: raw, flatFee: flat },
    adjustment: fee - before,
    model: schedule.model,
    rounding: schedule.rounding
  }
}

/**
 * The schedule's rate in reference units (display numbers; see Rate.percentageToNumber), with
 * the flat fee of `fees`: the schedule's own or its entry for the currency.
 */
export const feeStructureOf = (
  schedule: FeeSchedule,
  fees: CurrencyFees = schedule
): FeeQuote["feeStructure"] => {
  // Quotes under one schedule share one (immutable) structure; a pointer check, no hashing.
  if (schedule !== lastStructure.schedule || fees !== lastStructure.fees) {
    lastStructure = {
      schedule,
      fees,
      structure: {
        percentage: Rate.percentageToNumber(schedule.percentage.ppm),
        flatFee: Decimal.toNumber(fees.flatFee)
      }
    }
  }
  return lastStructure.structure
}

let lastStructure = {
  schedule: undefined as FeeSchedule | undefined,
  fees: undefined as CurrencyFees | undefined,
  structure: { percentage: 0, flatFee: 0 } as FeeQuote["feeStructure"]
}

/** The same quote with its fee replaced by `fee` (lowered by compliance), the change in `adjustment`. */
export const withFee = (q: FeeQuote, fee: number): FeeQuote =>
  fee === q.convenienceFee
    ? q
    : // Field by field, in the quote's order: a spread copies through a slower generic path.
      {
        baseAmount: q.baseAmount,
        convenienceFee: fee,
        totalAmount: q.baseAmount + fee,
        currency: q.currency,
        feeStructure: q.feeStructure,
        feeBreakdown: q.feeBreakdown,
        adjustment: q.adjustment + fee - q.convenienceFee,
        model: q.model,
        rounding: q.rounding
      }

/** `round(amount × ppm / 10^6)` to the currency's increment, by `mode`. */
export const percentagePart = (
  amount: number,
  ppm: number,
  increment: number,
  mode: Rounding.RoundingMode
): number => Rounding.mulDiv(amount, ppm, Rate.PPM * increment, mode) * increment

/**
 * The gross-up total: the least total, on the increment, from which the merchant nets at least
 * `amount` after the processor takes p of the total (rounded half-up to the minor unit, fee-math
 * §1.3) plus flat. It is `ceil((amount + flat) / (1 − p))` or one step less: for GBP 10000 at
 * 1.4 % + 0.20 the ceiling is 10163, yet 10162 already nets 10000 (fee-math's 101.62).
 */
export const grossUpTotal = (
  amount: number,
  flat: number,
  ppm: number,
  increment: number
): number => {
  const ceiling =
    Rounding.mulDiv(amount + flat, Rate.PPM, (Rate.PPM - ppm) * increment, "up") * increment
  const lower = ceiling - increment
  return lower > amount && netOf(lower, flat, ppm) >= amount ? lower : ceiling
}

/** What the merchant keeps of `total` after the processor's half-up percentage and flat fee. */
export const netOf = (total: number, flat: number, ppm: number): number =>
  total - Rounding.mulDiv(total, ppm, Rate.PPM, "half_up") - flat

/**
 * The flat fee in minor units. A currency the account set no flat fee for, where the default
 * cannot be charged exactly (0.30 in JPY), is the fee configuration's gap, and the error says so.
 */
const flatMinorOrFail = (
  schedule: FeeSchedule,
  fees: CurrencyFees,
  unit: Currency.Currency
): number | FeeError => {
  // The answer depends on the schedule and currency only: kept for the next quote (a pointer
  // check), so quotes in a currency the flat fee cannot be charged in share one error instead
  // of each building one (an error's construction is most of such a quote's CPU).
  if (schedule !== lastFlat.schedule || fees !== lastFlat.fees || unit !== lastFlat.unit) {
    lastFlat = { schedule, fees, unit, flat: flatMinorOf(schedule, fees, unit) }
  }
  return lastFlat.flat
}

let lastFlat: {
  readonly schedule?: FeeSchedule
  readonly fees?: CurrencyFees
  readonly unit?: Currency.Currency
  readonly flat: number | FeeError
} = { flat: 0 }

const flatMinorOf = (
  schedule: FeeSchedule,
  fees: CurrencyFees,
  unit: Currency.Currency
): number | FeeError => {
  const flat = Rate.flatFeeMinorOrFail(fees.flatFee, unit)
  // A flat fee that is no Rate value is the caller's error, not the configuration's gap.
  if (!isFeeError(flat) || fees !== schedule || !Rate.isFlatFee(fees.flatFee)) return flat
  const code = unit.code
  return fail(
    "currency_not_configured",
    "currency",
    `The fee configuration's flatFee ${Decimal.format(fees.flatFee)} cannot be charged exactly in ${code.toUpperCase()}. Set a flat fee for ${code.toUpperCase()} in the fee configuration: currencyFees.${code}.flatFee (POST /v1/fee-configs).`
  )
}

/** The fee within the currency's minFee/maxFee, on the currency's increment. */
const limit = (fee: number, schedule: CurrencyFees, increment: number): number => {
  let limited = fee
  if (schedule.minFee !== null && limited < schedule.minFee) {
    limited = Math.ceil(schedule.minFee / increment) * increment
  }
  if (schedule.maxFee !== null && limited > schedule.maxFee) {
    limited = Math.floor(schedule.maxFee / increment) * increment
  }
  return limited
}

/** The currency for a code, or an error naming `currency`. */
export const resolveCurrency = (code: unknown): Either.Either<Currency.Currency, FeeError> =>
  toEither(currencyOrFail(code))

/** `resolveCurrency` without the Either, for the hot path. */
export const currencyOrFail = (code: unknown): Currency.Currency | FeeError => {
  if (code === undefined || code === null) {
    return fail("parameter_missing", "currency", "Missing required param: currency.")
  }
  const found = typeof code === "string" ? Currency.lookup(code) : undefined
  return (
    found ??
    fail(
      "currency_not_supported",
      "currency",
      `Invalid currency: ${shown(code)}. Use a supported three-letter ISO code.`
    )
  )
}

/** A value for a message; never calls an object's own `toString` (`{"toString": ""}` would throw). */
const shown = (value: unknown): string =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value).slice(0, 16)
    : typeof value

const checkAmount = (
  schedule: FeeSchedule,
  amount: unknown,
  currency: Currency.Currency
): number | FeeError => {
  if (amount === undefined || amount === null) {
    return fail("parameter_missing", "amount", "Missing required param: amount.")
  }
  if (typeof amount !== "number" || !Number.isSafeInteger(amount)) {
    return fail(
      "parameter_invalid",
      "amount",
      "amount must be a whole number of minor units (cents)."
    )
  }
  const minimum = Math.max(currency.minimumCharge, schedule.minAmount)
  if (amount < minimum) {
    return fail(
      "amount_too_small",
      "amount",
      `Amount must be at least ${Currency.describe(currency, minimum)}.`
    )
  }
  const maximum = Math.min(currency.maximumCharge, schedule.maxAmount ?? currency.maximumCharge)
  if (amount > maximum) {
    return fail(
      "amount_too_large",
      "amount",
      `Amount must be at most ${Currency.describe(currency, maximum)}.`
    )
  }
  if (amount % currency.increment !== 0) {
    return fail(
      "parameter_invalid",
      "amount",
      `${currency.code.toUpperCase()} amounts must be a multiple of ${currency.increment}.`
    )
  }
  return amount
}

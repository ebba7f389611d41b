/**
 * The fee on an amount (decisions §2): one rounding step on the percentage part, the
 * flat part exact, then the configured limits; `totalAmount = baseAmount + convenienceFee`.
 */
import { Either } from "effect"
import * as Currency from "./Currency.js"
import * as Decimal from "./Decimal.js"
import { type FeeError, fail } from "./FeeError.js"
import type { FeeModel, FeeSchedule } from "./FeeSchedule.js"
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
): Either.Either<FeeQuote, FeeError> => {
  const found = resolveCurrency(currency)
  if (Either.isLeft(found)) return Either.left(found.left)
  const unit = found.right
  const checked = checkAmount(schedule, amount, unit)
  if (Either.isLeft(checked)) return Either.left(checked.left)
  const flat = Rate.flatFeeMinor(schedule.flatFee, unit)
  if (Either.isLeft(flat)) return Either.left(flat.left)
  const base = checked.right
  const raw =
    schedule.model === "add_on"
      ? percentagePart(base, schedule.percentage, unit.increment, schedule.rounding)
      : grossUpTotal(base, flat.right, schedule.percentage, unit.increment) - base - flat.right
  const before = raw + flat.right
  const fee = limit(before, schedule, unit.increment)
  if (base + fee > unit.maximumCharge) {
    return Either.left(
      fail(
        "amount_too_large",
        "amount",
        `Amount plus fee must be at most ${Currency.describe(unit, unit.maximumCharge)}.`
      )
    )
  }
  return Either.right({
    baseAmount: base,
    convenienceFee: fee,
    totalAmount: base + fee,
    currency: currency as string,
    feeStructure: {
      percentage: Rate.percentageToNumber(schedule.percentage),
      flatFee: Decimal.toNumber(schedule.flatFee)
    },
    feeBreakdown: { percentage: raw, flatFee: flat.right },
    adjustment: fee - before,
    model: schedule.model,
    rounding: schedule.rounding
  })
}

/** The same quote with its fee replaced by `fee` (lowered by compliance), the change in `adjustment`. */
export const withFee = (q: FeeQuote, fee: number): FeeQuote =>
  fee === q.convenienceFee
    ? q
    : {
        ...q,
        convenienceFee: fee,
        totalAmount: q.baseAmount + fee,
        adjustment: q.adjustment + fee - q.convenienceFee
      }

/** `round(amount × ppm / 10^6)` to the currency's increment, by `mode`. */
export const percentagePart = (
  amount: number,
  ppm: number,
  increment: number,
  mode: Rounding.RoundingMode
): number => Rounding.mulDiv(amount, ppm, Rate.PPM * increment, mode) * increment

/**
 * The gross-up total: `ceil((amount + flat) / (1 − p))` to the increment, so that after the
 * processor takes p of the total plus flat the merchant nets at least the amount (fee-math.md §1.3).
 */
export const grossUpTotal = (
  amount: number,
  flat: number,
  ppm: number,
  increment: number
): number =>
  Rounding.mulDiv(amount + flat, Rate.PPM, (Rate.PPM - ppm) * increment, "up") * increment

/** The fee within the schedule's minFee/maxFee, on the currency's increment. */
const limit = (fee: number, schedule: FeeSchedule, increment: number): number => {
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
export const resolveCurrency = (code: unknown): Either.Either<Currency.Currency, FeeError> => {
  if (code === undefined || code === null) {
    return Either.left(fail("parameter_missing", "currency", "Missing required param: currency."))
  }
  const found = typeof code === "string" ? Currency.lookup(code) : undefined
  return found === undefined
    ? Either.left(
        fail(
          "currency_not_supported",
          "currency",
          `Invalid currency: ${String(code).slice(0, 16)}. Use a supported three-letter ISO code.`
        )
      )
    : Either.right(found)
}

const checkAmount = (
  schedule: FeeSchedule,
  amount: unknown,
  currency: Currency.Currency
): Either.Either<number, FeeError> => {
  if (amount === undefined || amount === null) {
    return Either.left(fail("parameter_missing", "amount", "Missing required param: amount."))
  }
  if (typeof amount !== "number" || !Number.isSafeInteger(amount)) {
    return Either.left(
      fail("parameter_invalid", "amount", "amount must be a whole number of minor units (cents).")
    )
  }
  const minimum = Math.max(currency.minimumCharge, schedule.minAmount)
  if (amount < minimum) {
    return Either.left(
      fail(
        "amount_too_small",
        "amount",
        `Amount must be at least ${Currency.describe(currency, minimum)}.`
      )
    )
  }
  const maximum = Math.min(currency.maximumCharge, schedule.maxAmount ?? currency.maximumCharge)
  if (amount > maximum) {
    return Either.left(
      fail(
        "amount_too_large",
        "amount",
        `Amount must be at most ${Currency.describe(currency, maximum)}.`
      )
    )
  }
  if (amount % currency.increment !== 0) {
    return Either.left(
      fail(
        "parameter_invalid",
        "amount",
        `${currency.code.toUpperCase()} amounts must be a multiple of ${currency.increment}.`
      )
    )
  }
  return Either.right(amount)
}

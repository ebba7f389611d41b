/**
 * Fee rates from their decimal text into integers (docs/design.md §2): a percentage becomes
 * parts per million of the amount (2.9 % → 29,000), a flat fee an exact decimal of major
 * units that becomes minor units only against a currency.
 */
import { Either } from "effect"
import * as Currency from "./Currency.js"
import * as Decimal from "./Decimal.js"
import { type FeeError, fail, toEither } from "./FeeError.js"

/** Decimal places a percentage may have. */
export const PERCENT_DECIMALS = 4
/** Parts per million in one percent. */
export const PPM_PER_PERCENT = 10_000
/** Parts per million in the whole amount (100 %). */
export const PPM = 1_000_000
/** Decimal places a flat fee may have in any currency (three-decimal currencies). */
export const FLAT_DECIMALS = 3

const PROBLEMS: Record<Decimal.DecimalProblem, string> = {
  not_a_number: "must be a number",
  negative: "must not be negative",
  too_many_decimals: "has too many decimal places",
  too_large: "is too large"
}

/** A percentage (0 to 100, at most 4 decimals) as parts per million of the amount. */
export const parsePercentage = (
  value: unknown,
  param = "percentage"
): Either.Either<number, FeeError> =>
  Either.flatMap(parseDecimal(value, param, PERCENT_DECIMALS, "4"), (decimal) => {
    const ppm = Decimal.toScaled(decimal, PERCENT_DECIMALS) ?? Number.POSITIVE_INFINITY
    return ppm > PPM
      ? Either.left(
          fail("parameter_invalid", param, `${param} must be between 0 and 100 (percent).`)
        )
      : Either.right(ppm)
  })

/** A flat fee in major units (at most 3 decimals, at most the maximum charge). */
export const parseFlatFee = (
  value: unknown,
  param = "flatFee"
): Either.Either<Decimal.Decimal, FeeError> =>
  Either.flatMap(parseDecimal(value, param, FLAT_DECIMALS, "3"), (decimal) => {
    const thousandths = Decimal.toScaled(decimal, FLAT_DECIMALS) ?? Number.POSITIVE_INFINITY
    return thousandths > Currency.MAXIMUM_CHARGE * 10
      ? Either.left(fail("parameter_invalid", param, `${param} is larger than any charge can be.`))
      : Either.right(decimal)
  })

/**
 * A flat fee in the currency's minor units: exact, and a multiple of its increment,
 * or an error naming `param` (0.30 has no meaning in JPY).
 */
export const flatFeeMinor = (
  flatFee: Decimal.Decimal,
  currency: Currency.Currency,
  param = "flatFee"
): Either.Either<number, FeeError> => toEither(flatFeeMinorOrFail(flatFee, currency, param))

/** `flatFeeMinor` without the Either, for the hot path. */
export const flatFeeMinorOrFail = (
  flatFee: Decimal.Decimal,
  currency: Currency.Currency,
  param = "flatFee"
): number | FeeError => {
  const minor = Decimal.toScaled(flatFee, currency.exponent)
  if (minor !== undefined && minor % currency.increment === 0) return minor
  const code = currency.code.toUpperCase()
  return fail(
    "parameter_invalid",
    param,
    `${param} ${Decimal.format(flatFee)} cannot be charged exactly in ${code}.`
  )
}

/**
 * A percentage in parts per million as the wire's percent number: 29,000 → 2.9. Display
 * only: IEEE division of two exact integers is correctly rounded, so this is the same
 * double as parsing the text "2.9".
 */
export const percentageToNumber = (ppm: number): number => ppm / PPM_PER_PERCENT

const parseDecimal = (
  value: unknown,
  param: string,
  maxScale: number,
  places: string
): Either.Either<Decimal.Decimal, FeeError> => {
  if (value === undefined || value === null) {
    return Either.left(fail("parameter_missing", param, `Missing required param: ${param}.`))
  }
  return Either.mapLeft(Decimal.parse(value, maxScale), (problem) =>
    fail(
      "parameter_invalid",
      param,
      problem === "too_many_decimals"
        ? `${param} must have at most ${places} decimal places.`
        : `${param} ${PROBLEMS[problem]}.`
    )
  )
}

/**
 * Fee rates from their decimal text into integers (docs/design.md §2): a percentage becomes
 * parts per million of the amount (2.9 % → 29,000), a flat fee an exact decimal of major
 * units that becomes minor units only against a currency.
 *
 * The engine takes rates as the values made here (`Rate.percent("2.9")`, `Rate.flat("0.30")`),
 * never as bare numbers or text: its unit (parts per million) is not the API's (percent), and a
 * bare `2.9` cannot say which it means. A bare value is refused with an error naming it and the
 * call that says what was meant (docs/embedding.md "Rates").
 */
import { type Brand, Either } from "effect"
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

/**
 * A percentage of an amount, held as integer parts per million (2.9 % → `ppm` 29,000). Made
 * only by `percent`, `percentFromNumber`, `partsPerMillion` and `parsePercentage`, frozen: the
 * brand keeps a bare number out at compile time, the tag at run time.
 */
export interface Percentage extends Brand.Brand<"Percentage"> {
  readonly _tag: "Percentage"
  /** Parts per million of the amount: an integer from 0 to 1,000,000. */
  readonly ppm: number
}

/**
 * A flat fee: an exact decimal of major units (0.30), at most 3 decimal places, charged in a
 * currency only where it is a whole number of that currency's increments. Made only by `flat`,
 * `flatFromNumber`, `flatFromDecimal` and `parseFlatFee`, frozen; a `Decimal.Decimal` the engine
 * computes with.
 */
export interface FlatFee extends Decimal.Decimal, Brand.Brand<"FlatFee"> {
  readonly _tag: "FlatFee"
}

const PROBLEMS: Record<Decimal.DecimalProblem, string> = {
  not_a_number: "must be a number",
  negative: "must not be negative",
  too_many_decimals: "has too many decimal places",
  too_large: "is too large"
}

/** The percentage of `ppm` parts per million; the caller vouches it is an integer in 0..PPM. */
const percentageOf = (ppm: number): Percentage =>
  Object.freeze({ _tag: "Percentage", ppm }) as Percentage

/** The flat fee of an exact decimal. */
const flatFeeOf = (decimal: Decimal.Decimal): FlatFee =>
  Object.freeze({ _tag: "FlatFee", units: decimal.units, scale: decimal.scale }) as FlatFee

/** 0 %. */
export const ZERO_PERCENT: Percentage = percentageOf(0)
/** No flat fee. */
export const NO_FLAT_FEE: FlatFee = flatFeeOf(Decimal.ZERO)

/**
 * A percentage (0 to 100, at most 4 decimals) from a value of the wire: decimal text ("2.9")
 * or a JSON number, read through its shortest decimal text (2.9 → "2.9"), as the API reads it.
 */
export const parsePercentage = (
  value: unknown,
  param = "percentage",
  subject = param
): Either.Either<Percentage, FeeError> =>
  Either.flatMap(parseDecimal(value, param, subject, PERCENT_DECIMALS, "4"), (decimal) => {
    const ppm = Decimal.toScaled(decimal, PERCENT_DECIMALS) ?? Number.POSITIVE_INFINITY
    return ppm > PPM
      ? Either.left(
          fail("parameter_invalid", param, `${subject} must be between 0 and 100 (percent).`)
        )
      : Either.right(percentageOf(ppm))
  })

/** A flat fee in major units (at most 3 decimals, at most the maximum charge) from a value of the wire. */
export const parseFlatFee = (
  value: unknown,
  param = "flatFee",
  subject = param
): Either.Either<FlatFee, FeeError> =>
  Either.flatMap(parseDecimal(value, param, subject, FLAT_DECIMALS, "3"), (decimal) => {
    const thousandths = Decimal.toScaled(decimal, FLAT_DECIMALS) ?? Number.POSITIVE_INFINITY
    return thousandths > Currency.MAXIMUM_CHARGE * 10
      ? Either.left(
          fail("parameter_invalid", param, `${subject} is larger than any charge can be.`)
        )
      : Either.right(flatFeeOf(decimal))
  })

/**
 * The percentage written in percent as decimal text: `percent("2.9")` is 2.9 % (29,000 parts per
 * million). At most 4 decimals, 0 to 100. Throws the `FeeError` `parsePercentage` would return,
 * for text written in code; take untrusted text through `parsePercentage`.
 */
export const percent = (text: string): Percentage =>
  made(text, "string", parsePercentage, "percentage", "percent")

/**
 * The percentage of a number of percent, converted exactly: through its shortest decimal text
 * (2.9 → "2.9"), as a JSON number is, so it is the fee the API computes for the same number. A
 * number whose text has more than 4 decimals (0.1 + 0.2 is 0.30000000000000004) is refused,
 * never rounded.
 */
export const percentFromNumber = (value: number): Percentage =>
  made(value, "number", parsePercentage, "percentage", "percent")

/**
 * The flat fee of decimal text in major units: `flat("0.30")`. At most 3 decimals; whether it
 * can be charged is decided against the currency of each fee. Throws like `percent`.
 */
export const flat = (text: string): FlatFee => made(text, "string", parseFlatFee, "flatFee", "flat")

/**
 * The percentage of `ppm` parts per million, for a caller that already holds the engine's unit
 * (`partsPerMillion(29_000)` is 2.9 %): the unit is in the name, so it cannot be mistaken for
 * percent. An integer from 0 to 1,000,000; throws otherwise.
 */
export const partsPerMillion = (ppm: number): Percentage => {
  if (isPpm(ppm)) return percentageOf(ppm)
  throw fail(
    "parameter_invalid",
    "percentage",
    `percentage ${show(ppm)} is not a whole number of parts per million from 0 to ${PPM}.`
  )
}

/** The flat fee of an exact decimal of major units (at most 3 places; throws otherwise). */
export const flatFromDecimal = (decimal: Decimal.Decimal): FlatFee => {
  if (isExact(decimal)) return flatFeeOf(decimal)
  throw fail(
    "parameter_invalid",
    "flatFee",
    `flatFee ${show(decimal)} is not a decimal of at most ${FLAT_DECIMALS} places.`
  )
}

/** The flat fee of a number of major units, converted exactly as `percentFromNumber` does. */
export const flatFromNumber = (value: number): FlatFee =>
  made(value, "number", parseFlatFee, "flatFee", "flat")

/** Whether `value` is a percentage made here. */
export const isPercentage = (value: unknown): value is Percentage =>
  typeof value === "object" &&
  value !== null &&
  (value as { readonly _tag?: unknown })._tag === "Percentage"

/** Whether `value` is a flat fee made here. */
export const isFlatFee = (value: unknown): value is FlatFee =>
  typeof value === "object" &&
  value !== null &&
  (value as { readonly _tag?: unknown })._tag === "FlatFee"

/** The percentage's canonical text in percent: 29,000 ppm → "2.9". */
export const percentText = (p: Percentage): string =>
  Decimal.format(Decimal.fromScaled(p.ppm, PERCENT_DECIMALS))

/** The flat fee's canonical text in major units: "0.3". */
export const flatText = (f: FlatFee): string => Decimal.format(f)

/**
 * `value` when it is a percentage made here, else the error a caller of the engine gets for it,
 * naming the value and the call that says what was meant: for `2.9`, pass `Rate.percent("2.9")`.
 */
export const percentageOrFail = (value: unknown, param = "percentage"): Percentage | FeeError =>
  isPercentage(value) && isPpm(value.ppm) ? value : bareRate(value, param, "percent", " %")

/** `value` when it is a flat fee made here, else the error naming it (see `percentageOrFail`). */
export const flatFeeOrFail = (value: unknown, param = "flatFee"): FlatFee | FeeError =>
  isFlatFee(value) && isExact(value) ? value : bareRate(value, param, "flat", " in major units")

/**
 * A flat fee in the currency's minor units: exact, and a multiple of its increment,
 * or an error naming `param` (0.30 has no meaning in JPY).
 */
export const flatFeeMinor = (
  flatFee: FlatFee,
  currency: Currency.Currency,
  param = "flatFee"
): Either.Either<number, FeeError> => toEither(flatFeeMinorOrFail(flatFee, currency, param))

/** `flatFeeMinor` without the Either, for the hot path. */
export const flatFeeMinorOrFail = (
  flatFee: FlatFee,
  currency: Currency.Currency,
  param = "flatFee"
): number | FeeError => {
  // A JavaScript caller's "0.30" or 0.3 is refused by name here, not read as a decimal.
  if (!isFlatFee(flatFee)) return flatFeeOrFail(flatFee, param) as FeeError
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

const isExact = (d: Decimal.Decimal): boolean =>
  Number.isSafeInteger(d.units) &&
  d.units >= 0 &&
  Number.isInteger(d.scale) &&
  d.scale >= 0 &&
  d.scale <= FLAT_DECIMALS

const isPpm = (ppm: unknown): boolean =>
  typeof ppm === "number" && Number.isSafeInteger(ppm) && ppm >= 0 && ppm <= PPM

/** The refusal of a rate that was not made here, with the value and the call that makes one of it. */
const bareRate = (
  value: unknown,
  param: string,
  maker: "percent" | "flat",
  unit: string
): FeeError => {
  if (value === undefined || value === null) {
    return fail("parameter_missing", param, `Missing required param: ${param}.`)
  }
  const example = exampleOf(value, maker)
  const made = `Rate.${maker}(${JSON.stringify(example)})`
  const what =
    typeof value === "number"
      ? "is a number"
      : typeof value === "string"
        ? "is text"
        : isDecimal(value)
          ? "is a bare Decimal"
          : `is not a Rate.${maker} value`
  return fail(
    "parameter_invalid",
    param,
    `${param} ${show(value)} ${what}; pass ${made} for ${example}${unit}.`
  )
}

/** The decimal text a bare value most likely meant, for the error's example. */
const exampleOf = (value: unknown, maker: "percent" | "flat"): string => {
  const fallback = maker === "percent" ? "2.9" : "0.30"
  if (typeof value === "number" && Number.isFinite(value)) return String(value)
  if (typeof value === "string") {
    const trimmed = value.trim()
    return /^\d+(\.\d+)?$/.test(trimmed) ? trimmed : fallback
  }
  if (isDecimal(value) && Number.isSafeInteger(value.units) && value.units >= 0) {
    return Decimal.format(value)
  }
  return fallback
}

const isDecimal = (value: unknown): value is Decimal.Decimal =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { readonly units?: unknown }).units === "number" &&
  typeof (value as { readonly scale?: unknown }).scale === "number"

/** A value as it appears in a message: numbers as written, anything else as JSON, kept short. */
const show = (value: unknown): string => {
  if (typeof value === "number") return String(value)
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

/**
 * A constructor's value: `value` parsed when it has the type the constructor takes, the parse's
 * refusal thrown with the value named in it; a value of another type (a JavaScript caller's)
 * refused with the call that takes it.
 */
const made = <A>(
  value: unknown,
  type: "string" | "number",
  parse: (value: unknown, param: string, subject: string) => Either.Either<A, FeeError>,
  param: string,
  maker: "percent" | "flat"
): A => {
  const result =
    typeof value === type
      ? parse(value, param, `${param} ${show(value)}`)
      : Either.left(
          fail(
            "parameter_invalid",
            param,
            type === "string"
              ? `Rate.${maker} takes decimal text, e.g. Rate.${maker}(${JSON.stringify(exampleOf(value, maker))}); got ${show(value)}.`
              : `${param} ${show(value)} is not a number.`
          )
        )
  if (Either.isRight(result)) return result.right
  throw result.left
}

const parseDecimal = (
  value: unknown,
  param: string,
  subject: string,
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
        ? `${subject} must have at most ${places} decimal places.`
        : `${subject} ${PROBLEMS[problem]}.`
    )
  )
}

/**
 * The fee configuration the engine computes with: integers and exact decimals only,
 * validated once so the hot path never re-checks it.
 */
import { Either } from "effect"
import * as Currency from "./Currency.js"
import { type FeeError, fail, isFeeError } from "./FeeError.js"
import * as Rate from "./Rate.js"
import * as Rounding from "./Rounding.js"

/** `add_on`: fee on top of the base. `gross_up`: total chosen so the merchant nets the base. */
export type FeeModel = "add_on" | "gross_up"

/** A validated fee configuration. */
export interface FeeSchedule {
  /** The percentage of the amount: `Rate.percent("2.9")` (29,000 parts per million). */
  readonly percentage: Rate.Percentage
  /** Flat part in major units, exact: `Rate.flat("0.30")`. */
  readonly flatFee: Rate.FlatFee
  readonly model: FeeModel
  readonly rounding: Rounding.RoundingMode
  /** Lower limit of the fee, minor units. */
  readonly minFee: number | null
  /** Upper limit of the fee, minor units. */
  readonly maxFee: number | null
  /** Smallest base amount accepted, minor units (never below the currency's minimum charge). */
  readonly minAmount: number
  /** Largest base amount accepted, minor units; null for the currency's maximum. */
  readonly maxAmount: number | null
  /**
   * The flat fee and fee limits of particular currencies, by lower-case code: one flat fee in
   * major units cannot suit every currency (0.30 has no meaning in JPY). A currency without
   * an entry uses the fields above.
   */
  readonly currencyFees: ReadonlyMap<string, CurrencyFees>
}

/** The part of a schedule a currency may set for itself: the schedule is its own default. */
export interface CurrencyFees {
  readonly flatFee: Rate.FlatFee
  readonly minFee: number | null
  readonly maxFee: number | null
}

/** Raw fields of a fee configuration as they arrive on the wire; any may be absent. */
export interface FeeScheduleInput {
  readonly percentage?: unknown
  readonly flatFee?: unknown
  readonly model?: unknown
  readonly rounding?: unknown
  readonly minFee?: unknown
  readonly maxFee?: unknown
  readonly minAmount?: unknown
  readonly maxAmount?: unknown
  /** `{jpy: {flatFee: 40, minFee: 100, maxFee: null}, ...}`; absent fields take the defaults. */
  readonly currencyFees?: unknown
}

/** A new account's configuration: the specification's example, 2.9 % + 0.30 (docs/design.md §2). */
export const DEFAULT: FeeSchedule = {
  percentage: Rate.percent("2.9"),
  flatFee: Rate.flat("0.30"),
  model: "add_on",
  rounding: "half_up",
  minFee: null,
  maxFee: null,
  minAmount: 50,
  maxAmount: null,
  currencyFees: new Map()
}

/** `base` with the fields present in `input` replaced, validated as a whole. */
export const make = (
  input: FeeScheduleInput,
  base: FeeSchedule = DEFAULT
): Either.Either<FeeSchedule, FeeError> =>
  Either.gen(function* () {
    const schedule: FeeSchedule = {
      percentage: has(input.percentage)
        ? yield* Rate.parsePercentage(input.percentage)
        : base.percentage,
      flatFee: has(input.flatFee) ? yield* Rate.parseFlatFee(input.flatFee) : base.flatFee,
      model: has(input.model) ? yield* parseModel(input.model) : base.model,
      rounding: has(input.rounding) ? yield* parseRounding(input.rounding) : base.rounding,
      minFee:
        input.minFee !== undefined ? yield* optionalMinor(input.minFee, "minFee") : base.minFee,
      maxFee:
        input.maxFee !== undefined ? yield* optionalMinor(input.maxFee, "maxFee") : base.maxFee,
      minAmount: has(input.minAmount) ? yield* minor(input.minAmount, "minAmount") : base.minAmount,
      maxAmount:
        input.maxAmount !== undefined
          ? yield* optionalMinor(input.maxAmount, "maxAmount")
          : base.maxAmount,
      currencyFees: base.currencyFees
    }
    const currencyFees = has(input.currencyFees)
      ? yield* parseCurrencyFees(input.currencyFees, schedule)
      : base.currencyFees
    return yield* validate({ ...schedule, currencyFees })
  })

/**
 * The error for a schedule whose rates are not `Rate` values (one a JavaScript caller built by
 * hand: `percentage: 2.9`), naming the value, or undefined. A schedule is not changed once made
 * (its fields are readonly, its rates frozen), so the last one found sound is remembered: the
 * hot path pays a pointer check, not the field checks
 * (docs/performance.md). A currency's own flat fee is checked where it is read (`Rate.flatFeeMinorOrFail`).
 */
export const ratesError = (schedule: FeeSchedule): FeeError | undefined => {
  if (schedule === lastSound) return undefined
  const percentage = Rate.percentageOrFail(schedule.percentage)
  if (isFeeError(percentage)) return percentage
  const flatFee = Rate.flatFeeOrFail(schedule.flatFee)
  if (isFeeError(flatFee)) return flatFee
  lastSound = schedule
  return undefined
}

let lastSound: FeeSchedule | undefined

/** The flat fee and limits a currency is charged with: its own entry, or the schedule's. */
export const feesIn = (schedule: FeeSchedule, currency: Currency.Currency): CurrencyFees =>
  schedule.currencyFees.size === 0
    ? schedule
    : (schedule.currencyFees.get(currency.code) ?? schedule)

/** Each entry over the schedule's own fields, checked against its currency. */
const parseCurrencyFees = (
  value: unknown,
  defaults: CurrencyFees
): Either.Either<ReadonlyMap<string, CurrencyFees>, FeeError> =>
  Either.gen(function* () {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return yield* Either.left(
        fail(
          "parameter_invalid",
          "currencyFees",
          'currencyFees must be an object of currency codes, e.g. {"jpy": {"flatFee": 40}}.'
        )
      )
    }
    const out = new Map<string, CurrencyFees>()
    for (const [code, entry] of Object.entries(value)) {
      const currency = Currency.lookup(code)
      const param = `currencyFees.${code}`
      if (currency === undefined) {
        return yield* Either.left(
          fail(
            "currency_not_supported",
            param,
            `${param}: ${code.slice(0, 16)} is not a supported currency.`
          )
        )
      }
      if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
        return yield* Either.left(
          fail("parameter_invalid", param, `${param} must be an object: {flatFee, minFee, maxFee}.`)
        )
      }
      const fields = entry as Record<string, unknown>
      const fees: CurrencyFees = {
        flatFee: has(fields.flatFee)
          ? yield* Rate.parseFlatFee(fields.flatFee, `${param}.flatFee`)
          : defaults.flatFee,
        minFee:
          fields.minFee !== undefined
            ? yield* optionalMinor(fields.minFee, `${param}.minFee`)
            : defaults.minFee,
        maxFee:
          fields.maxFee !== undefined
            ? yield* optionalMinor(fields.maxFee, `${param}.maxFee`)
            : defaults.maxFee
      }
      yield* Rate.flatFeeMinor(fees.flatFee, currency, `${param}.flatFee`)
      if (fees.minFee !== null && fees.maxFee !== null && fees.minFee > fees.maxFee) {
        return yield* Either.left(
          fail(
            "parameter_invalid",
            `${param}.minFee`,
            `${param}.minFee must not be greater than maxFee.`
          )
        )
      }
      out.set(currency.code, fees)
    }
    return out
  })

const has = (value: unknown): boolean => value !== undefined && value !== null

const validate = (s: FeeSchedule): Either.Either<FeeSchedule, FeeError> => {
  if (s.minFee !== null && s.maxFee !== null && s.minFee > s.maxFee) {
    return Either.left(
      fail("parameter_invalid", "minFee", "minFee must not be greater than maxFee.")
    )
  }
  if (s.maxAmount !== null && s.maxAmount < s.minAmount) {
    return Either.left(
      fail("parameter_invalid", "maxAmount", "maxAmount must not be below minAmount.")
    )
  }
  if (s.model === "gross_up" && s.percentage.ppm >= Rate.PPM) {
    return Either.left(
      fail(
        "parameter_invalid",
        "percentage",
        "percentage must be below 100 for the gross_up model."
      )
    )
  }
  return Either.right(s)
}

const parseModel = (value: unknown): Either.Either<FeeModel, FeeError> =>
  value === "add_on" || value === "gross_up"
    ? Either.right(value)
    : Either.left(fail("parameter_invalid", "model", "model must be one of add_on, gross_up."))

const parseRounding = (value: unknown): Either.Either<Rounding.RoundingMode, FeeError> =>
  Rounding.isRoundingMode(value)
    ? Either.right(value)
    : Either.left(
        fail(
          "parameter_invalid",
          "rounding",
          `rounding must be one of ${Rounding.modes.join(", ")}.`
        )
      )

/** A non-negative integer of minor units no larger than the maximum charge. */
export const minor = (value: unknown, param: string): Either.Either<number, FeeError> =>
  typeof value === "number" &&
  Number.isSafeInteger(value) &&
  value >= 0 &&
  value <= Currency.MAXIMUM_CHARGE
    ? Either.right(value)
    : Either.left(
        fail(
          "parameter_invalid",
          param,
          `${param} must be a whole number of minor units from 0 to ${Currency.MAXIMUM_CHARGE}.`
        )
      )

const optionalMinor = (value: unknown, param: string): Either.Either<number | null, FeeError> =>
  value === null ? Either.right(null) : minor(value, param)

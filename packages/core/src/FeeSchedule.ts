/**
 * The fee configuration the engine computes with: integers and exact decimals only,
 * validated once so the hot path never re-checks it.
 */
import { Either } from "effect"
import * as Currency from "./Currency.js"
import type * as Decimal from "./Decimal.js"
import { type FeeError, fail } from "./FeeError.js"
import * as Rate from "./Rate.js"
import * as Rounding from "./Rounding.js"

/** `add_on`: fee on top of the base. `gross_up`: total chosen so the merchant nets the base. */
export type FeeModel = "add_on" | "gross_up"

/** A validated fee configuration. */
export interface FeeSchedule {
  /** Parts per million of the amount (2.9 % → 29,000). */
  readonly percentage: number
  /** Flat part in major units, exact (0.30). */
  readonly flatFee: Decimal.Decimal
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
}

/** A new account's configuration: the specification's example, 2.9 % + 0.30 (docs/design.md §2). */
export const DEFAULT: FeeSchedule = {
  percentage: 29_000,
  flatFee: { units: 3, scale: 1 },
  model: "add_on",
  rounding: "half_up",
  minFee: null,
  maxFee: null,
  minAmount: 50,
  maxAmount: null
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
          : base.maxAmount
    }
    return yield* validate(schedule)
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
  if (s.model === "gross_up" && s.percentage >= Rate.PPM) {
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

/**
 * Invariants of the fee engine, checked against exact bigint arithmetic written here
 * rather than against the code under test.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import * as Currency from "../src/Currency.js"
import * as Decimal from "../src/Decimal.js"
import * as Fee from "../src/Fee.js"
import { FeeErrorCode } from "../src/FeeError.js"
import * as FeeSchedule from "../src/FeeSchedule.js"
import * as Rate from "../src/Rate.js"
import type { RoundingMode } from "../src/Rounding.js"

const MODES: ReadonlyArray<RoundingMode> = ["half_up", "half_even", "up", "down"]
/** Parts per million in 100 %. */
const MILLION = 1_000_000n
/** Eight digits (docs/design.md §1). */
const MAX_CHARGE = 99_999_999
/** The largest base amount the generators use, so that amount + fee stays below MAX_CHARGE. */
const MAX_BASE = 40_000_000

const right = <A, E>(result: Either.Either<A, E>): A => {
  if (Either.isLeft(result)) throw new Error(`expected Right, got ${JSON.stringify(result.left)}`)
  return result.right
}

/** `n / d` rounded to an integer by `mode`, in exact bigint arithmetic (d > 0, n ≥ 0). */
const roundRef = (n: bigint, d: bigint, mode: RoundingMode): bigint => {
  const floor = n / d
  const twice = 2n * (n - floor * d)
  if (twice === 0n) return floor
  if (mode === "down") return floor
  if (mode === "up") return floor + 1n
  if (twice > d) return floor + 1n
  if (twice < d) return floor
  return mode === "half_up" || floor % 2n === 1n ? floor + 1n : floor
}

const ceilDiv = (n: bigint, d: bigint): bigint => (n + d - 1n) / d

interface Case {
  readonly currency: Currency.Currency
  /** The code as the caller writes it (either case). */
  readonly code: string
  readonly amount: number
  readonly ppm: number
  readonly flatMinor: number
  readonly rounding: RoundingMode
  readonly minFee: number | null
  readonly maxFee: number | null
}

const currencyArb = fc.constantFrom(...Currency.all)

/** Multiples of the currency's increment from its minimum charge (and 50) to `max`. */
const amountArb = (currency: Currency.Currency, max = MAX_BASE) => {
  const low = Math.ceil(Math.max(currency.minimumCharge, 50) / currency.increment)
  return fc
    .integer({ min: low, max: Math.floor(max / currency.increment) })
    .map((steps) => steps * currency.increment)
}

/** Optional minFee and maxFee, minFee ≤ maxFee when both are set. */
const limitsArb = fc
  .tuple(
    fc.option(fc.integer({ min: 0, max: 5_000_000 }), { nil: null }),
    fc.option(fc.integer({ min: 0, max: 5_000_000 }), { nil: null })
  )
  .map(([a, b]) => (a !== null && b !== null && a > b ? [b, a] : [a, b]))

const caseArb = (options: {
  readonly maxPpm: number
  readonly limits: boolean
}): fc.Arbitrary<Case> =>
  currencyArb.chain((currency) =>
    fc
      .record({
        code: fc.constantFrom(currency.code, currency.code.toUpperCase()),
        amount: amountArb(currency),
        ppm: fc.oneof(
          fc.integer({ min: 0, max: options.maxPpm }),
          fc.constantFrom(29_000, 30_000, 14_000, 0, options.maxPpm)
        ),
        flatMinor: fc
          .integer({ min: 0, max: Math.floor(100_000 / currency.increment) })
          .map((steps) => steps * currency.increment),
        rounding: fc.constantFrom(...MODES),
        limits: options.limits ? limitsArb : fc.constant([null, null])
      })
      .map(({ limits: [minFee = null, maxFee = null], ...rest }) => ({
        ...rest,
        currency,
        minFee,
        maxFee
      }))
  )

const scheduleOf = (c: Case, model: FeeSchedule.FeeModel): FeeSchedule.FeeSchedule => ({
  percentage: Rate.partsPerMillion(c.ppm),
  flatFee: Rate.flatFromDecimal(Decimal.fromScaled(c.flatMinor, c.currency.exponent)),
  model,
  rounding: c.rounding,
  minFee: c.minFee,
  maxFee: c.maxFee,
  minAmount: 50,
  maxAmount: null,
  currencyFees: new Map()
})

const quoteOf = (c: Case, model: FeeSchedule.FeeModel) =>
  right(Fee.quote(scheduleOf(c, model), c.amount, c.code))

/** `fee` within `[minFee, maxFee]`, each limit moved onto the increment (inward). */
const clampRef = (fee: number, c: Case): number => {
  const step = c.currency.increment
  let limited = fee
  if (c.minFee !== null && limited < c.minFee) limited = Math.ceil(c.minFee / step) * step
  if (c.maxFee !== null && limited > c.maxFee) limited = Math.floor(c.maxFee / step) * step
  return limited
}

/** The add_on percentage part in minor units, rounded by `mode` to the increment. */
const addOnPercentRef = (amount: number, ppm: number, step: number, mode: RoundingMode) =>
  Number(roundRef(BigInt(amount) * BigInt(ppm), MILLION * BigInt(step), mode)) * step

/** What the merchant keeps of a total after the processor's half-up percentage and flat fee. */
const netRef = (total: bigint, flat: number, ppm: number): bigint =>
  total - roundRef(total * BigInt(ppm), MILLION, "half_up") - BigInt(flat)

/**
 * The least multiple of the increment that nets the amount under a half-up processor, found by
 * walking down from the exact ceiling of (amount + flat) / (1 − p) (docs/design.md §2).
 */
const grossUpRef = (amount: number, flat: number, ppm: number, step: number): number => {
  const numerator = BigInt(amount + flat) * MILLION
  const denominator = (MILLION - BigInt(ppm)) * BigInt(step)
  let total = ceilDiv(numerator, denominator) * BigInt(step)
  while (
    total - BigInt(step) > BigInt(amount) &&
    netRef(total - BigInt(step), flat, ppm) >= BigInt(amount)
  ) {
    total -= BigInt(step)
  }
  return Number(total)
}

const models: ReadonlyArray<FeeSchedule.FeeModel> = ["add_on", "gross_up"]
const maxPpmOf = (model: FeeSchedule.FeeModel) => (model === "add_on" ? 1_000_000 : 500_000)

describe.each(models)("Fee.quote invariants (%s)", (model) => {
  const cases = caseArb({ maxPpm: maxPpmOf(model), limits: true })

  it("totalAmount = baseAmount + convenienceFee; base and currency echoed", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const q = quoteOf(c, model)
        expect(q.totalAmount).toBe(q.baseAmount + q.convenienceFee)
        expect(q.baseAmount).toBe(c.amount)
        expect(q.currency).toBe(c.code)
        expect(q.model).toBe(model)
        expect(q.rounding).toBe(c.rounding)
      })
    )
  })

  it("the fee is ≥ 0 and a multiple of the currency's increment", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const q = quoteOf(c, model)
        expect(q.convenienceFee).toBeGreaterThanOrEqual(0)
        expect(q.convenienceFee % c.currency.increment).toBe(0)
        expect(q.feeBreakdown.percentage).toBeGreaterThanOrEqual(0)
      })
    )
  })

  it("feeBreakdown.percentage + feeBreakdown.flatFee + adjustment = convenienceFee", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const q = quoteOf(c, model)
        expect(q.feeBreakdown.flatFee).toBe(c.flatMinor)
        expect(q.feeBreakdown.percentage + q.feeBreakdown.flatFee + q.adjustment).toBe(
          q.convenienceFee
        )
      })
    )
  })

  it("the fee respects maxFee always, and minFee unless maxFee forbids it", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const q = quoteOf(c, model)
        const step = c.currency.increment
        if (c.maxFee !== null) expect(q.convenienceFee).toBeLessThanOrEqual(c.maxFee)
        const minReachable =
          c.minFee !== null && (c.maxFee === null || Math.ceil(c.minFee / step) * step <= c.maxFee)
        if (c.minFee !== null && minReachable) {
          expect(q.convenienceFee).toBeGreaterThanOrEqual(c.minFee)
        }
        const before = q.feeBreakdown.percentage + q.feeBreakdown.flatFee
        expect(q.convenienceFee).toBe(clampRef(before, c))
      })
    )
  })

  it("without limits there is no adjustment", () => {
    fc.assert(
      fc.property(caseArb({ maxPpm: maxPpmOf(model), limits: false }), (c) => {
        expect(quoteOf(c, model).adjustment).toBe(0)
      })
    )
  })

  it("reports feeStructure as percent and major units", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const q = quoteOf(c, model)
        // Exact: ppm / 10^4 percent; flat / 10^exponent major units (text → number).
        expect(q.feeStructure.percentage).toBe(Number(`${c.ppm}e-4`))
        expect(q.feeStructure.flatFee).toBe(Number(`${c.flatMinor}e-${c.currency.exponent}`))
      })
    )
  })
})

describe("add_on", () => {
  const cases = caseArb({ maxPpm: 1_000_000, limits: false })

  it("the percentage part equals the exact product rounded once by the mode", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const q = quoteOf(c, "add_on")
        const step = c.currency.increment
        expect(q.feeBreakdown.percentage).toBe(addOnPercentRef(c.amount, c.ppm, step, c.rounding))
        expect(q.convenienceFee).toBe(q.feeBreakdown.percentage + c.flatMinor)
      })
    )
  })

  it("the rounding error is below one step and in the promised direction", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const q = quoteOf(c, "add_on")
        const step = BigInt(c.currency.increment)
        // Work in millionths of a minor unit: exact = amount × ppm, charged = part × 10^6.
        const exact = BigInt(c.amount) * BigInt(c.ppm)
        const charged = BigInt(q.feeBreakdown.percentage) * MILLION
        const error = charged - exact
        const oneStep = step * MILLION
        expect(error < oneStep && -error < oneStep).toBe(true)
        switch (c.rounding) {
          case "down":
            expect(error <= 0n).toBe(true)
            break
          case "up":
            expect(error >= 0n).toBe(true)
            break
          case "half_up":
            // Nearest; an exact half goes up.
            expect(2n * error <= oneStep && -2n * error < oneStep).toBe(true)
            break
          case "half_even": {
            // Nearest; an exact half goes to the even number of steps.
            expect(2n * error <= oneStep && -2n * error <= oneStep).toBe(true)
            const steps = BigInt(q.feeBreakdown.percentage) / step
            if (2n * error === oneStep || -2n * error === oneStep) {
              expect(steps % 2n).toBe(0n)
            }
            break
          }
        }
      })
    )
  })

  it("the modes are ordered: down ≤ half_even ≤ half_up ≤ up ≤ down + one step", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const fee = (rounding: RoundingMode) =>
          quoteOf({ ...c, rounding }, "add_on").feeBreakdown.percentage
        const [down, halfEven, halfUp, up] = [
          fee("down"),
          fee("half_even"),
          fee("half_up"),
          fee("up")
        ]
        expect(down).toBeLessThanOrEqual(halfEven)
        expect(halfEven).toBeLessThanOrEqual(halfUp)
        expect(halfUp).toBeLessThanOrEqual(up)
        expect(up - down).toBeLessThanOrEqual(c.currency.increment)
      })
    )
  })

  it("the fee never decreases as the amount grows (limits included)", () => {
    const pairs = caseArb({ maxPpm: 1_000_000, limits: true }).chain((c) =>
      fc.tuple(fc.constant(c), amountArb(c.currency))
    )
    fc.assert(
      fc.property(pairs, ([c, other]) => {
        const [low, high] = c.amount <= other ? [c.amount, other] : [other, c.amount]
        const feeAt = (amount: number) => quoteOf({ ...c, amount }, "add_on").convenienceFee
        expect(feeAt(low)).toBeLessThanOrEqual(feeAt(high))
      })
    )
  })
})

describe("gross_up", () => {
  const cases = caseArb({ maxPpm: 500_000, limits: false })

  it("the total is the least one, on the increment, that nets the base under a half-up processor", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const q = quoteOf(c, "gross_up")
        const step = c.currency.increment
        expect(q.totalAmount).toBe(grossUpRef(c.amount, c.flatMinor, c.ppm, step))
      })
    )
  })

  it("after the processor takes p (half-up) + flat of the TOTAL, the merchant nets the base", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const q = quoteOf(c, "gross_up")
        const total = BigInt(q.totalAmount)
        const processorFee =
          roundRef(total * BigInt(c.ppm), MILLION, "half_up") + BigInt(c.flatMinor)
        const net = total - processorFee
        const base = BigInt(c.amount)
        expect(net >= base).toBe(true)
        // At most one minor unit over; where amounts move in steps of 10 or 100, one step.
        expect(net <= base + BigInt(Math.max(1, c.currency.increment))).toBe(true)
        if (c.currency.increment === 1) expect(net <= base + 1n).toBe(true)
      })
    )
  })

  it("the merchant nets the base when the processor rounds its fee half-up or down", () => {
    fc.assert(
      fc.property(
        cases,
        fc.constantFrom<RoundingMode>("half_up", "half_even", "down"),
        (c, processorRounding) => {
          const q = quoteOf(c, "gross_up")
          const total = BigInt(q.totalAmount)
          const taken = roundRef(total * BigInt(c.ppm), MILLION, processorRounding)
          expect(total - taken - BigInt(c.flatMinor) >= BigInt(c.amount)).toBe(true)
        }
      )
    )
  })

  it("costs at least as much as add_on with the processor's rate, rounded half-up", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const gross = quoteOf(c, "gross_up").convenienceFee
        const addOn = quoteOf({ ...c, rounding: "half_up" }, "add_on").convenienceFee
        expect(gross).toBeGreaterThanOrEqual(addOn)
      })
    )
  })
})

describe("amount bounds", () => {
  it("accepts exactly the amounts within the limits, and names the reason otherwise", () => {
    const amounts = fc.oneof(
      fc.integer({ min: -1_000, max: 20_000 }),
      fc.integer({ min: 90_000_000, max: 110_000_000 })
    )
    fc.assert(
      fc.property(caseArb({ maxPpm: 100_000, limits: false }), amounts, (c, amount) => {
        const result = Fee.quote(scheduleOf(c, "add_on"), amount, c.code)
        const minimum = Math.max(c.currency.minimumCharge, 50)
        const step = c.currency.increment
        const feeOf = () => addOnPercentRef(amount, c.ppm, step, c.rounding) + c.flatMinor
        const code = Either.isLeft(result) ? result.left.code : "none"
        if (amount < minimum) {
          expect(code).toBe("amount_too_small")
        } else if (amount > MAX_CHARGE) {
          expect(code).toBe("amount_too_large")
        } else if (amount % step !== 0) {
          expect(code).toBe("parameter_invalid")
        } else if (amount + feeOf() > MAX_CHARGE) {
          expect(code).toBe("amount_too_large")
        } else {
          expect(Either.isRight(result)).toBe(true)
        }
        if (Either.isLeft(result)) expect(result.left.param).toBe("amount")
      })
    )
  })
})

describe("robustness: no input of the right type throws", () => {
  const anyAmount = fc.oneof(
    fc.integer(),
    fc.double(),
    fc.maxSafeInteger(),
    fc.string(),
    fc.constantFrom(null, undefined, Number.NaN, -0, 2 ** 53, 1e21, -1e21)
  )
  const anyCurrency = fc.oneof(
    fc.string(),
    fc.string({ minLength: 3, maxLength: 3 }),
    fc.constantFrom(...Currency.all.map((c) => c.code), "USD", "Jpy", "__proto__", "constructor"),
    fc.double(),
    fc.constantFrom(null, undefined)
  )
  const schedules = fc.oneof(
    caseArb({ maxPpm: 1_000_000, limits: true }).map((c) => scheduleOf(c, "add_on")),
    caseArb({ maxPpm: 999_999, limits: true }).map((c) => scheduleOf(c, "gross_up")),
    fc.constant(FeeSchedule.DEFAULT)
  )
  // Every code the engine has: a fractional flat fee in a zero-decimal currency (0.3 in DJF)
  // is `currency_not_configured`, which a hand-kept list here once left out.
  const codes: ReadonlyArray<string> = FeeErrorCode.literals

  it("quote with arbitrary numbers and strings returns Left or Right", () => {
    fc.assert(
      fc.property(schedules, anyAmount, anyCurrency, (schedule, amount, currency) => {
        const result = Fee.quote(schedule, amount, currency)
        expect(Either.isEither(result)).toBe(true)
        if (Either.isLeft(result)) {
          expect(codes).toContain(result.left.code)
          expect(["amount", "currency", "flatFee"]).toContain(result.left.param)
        } else {
          expect(result.right.totalAmount).toBeLessThanOrEqual(MAX_CHARGE)
        }
      }),
      { numRuns: 500 }
    )
  })

  it("quote with any JSON value returns Left or Right", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (amount, currency) => {
        expect(Either.isEither(Fee.quote(FeeSchedule.DEFAULT, amount, currency))).toBe(true)
      })
    )
  })

  it("FeeSchedule.make with any JSON fields returns Left or Right", () => {
    const field = fc.oneof(fc.jsonValue(), fc.double(), fc.string(), fc.constant(undefined))
    const input = fc.record(
      {
        percentage: field,
        flatFee: field,
        model: fc.oneof(field, fc.constantFrom("add_on", "gross_up")),
        rounding: fc.oneof(field, fc.constantFrom(...MODES)),
        minFee: field,
        maxFee: field,
        minAmount: field,
        maxAmount: field
      },
      { requiredKeys: [] }
    )
    fc.assert(
      fc.property(input, (raw) => {
        const result = FeeSchedule.make(raw as FeeSchedule.FeeScheduleInput)
        expect(Either.isEither(result)).toBe(true)
      })
    )
  })
})

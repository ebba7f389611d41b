/**
 * The engine takes rates only as `Rate` values (docs/embedding.md "Rates"): a JavaScript
 * caller's bare number or text is refused with an error naming the value and the call that
 * says what was meant, never read in another unit (`percentage: 2.9` was 2.9 parts
 * per million and answered compliant; `flatFee: "0.30"` said "flatFee .undefined").
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { ComplianceRules } from "../src/ComplianceRules.js"
import * as Compliance from "../src/compliance/Compliance.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Estimate from "../src/Estimate.js"
import * as Fee from "../src/Fee.js"
import { FeeError } from "../src/FeeError.js"
import * as FeeSchedule from "../src/FeeSchedule.js"
import * as Rate from "../src/Rate.js"
import { left, right } from "./support.js"

const R = Ruleset.DEFAULT
/** Colorado caps surcharges at 2 %: 2.9 % is over it, 2.9 ppm far under it. */
const colorado = { region: "US-CO", cardType: "credit", date: "2025-12-01" } as const

/** What a JavaScript caller (no type checker) can hand the engine. */
const untyped = (input: Record<string, unknown>) => input as unknown as Compliance.ComplianceInput

const refusal = (error: FeeError) => ({
  code: error.code,
  param: error.param,
  message: error.message
})

describe("Compliance.check refuses rates that are not Rate values", () => {
  it('flatFee "0.30" (text) names the value and the fix, never ".undefined"', () => {
    const error = left(
      Compliance.check(R, untyped({ ...colorado, percentage: Rate.percent("2"), flatFee: "0.30" }))
    )
    expect(refusal(error)).toEqual({
      code: "parameter_invalid",
      param: "flatFee",
      message: 'flatFee "0.30" is text; pass Rate.flat("0.30") for 0.30 in major units.'
    })
    expect(error.message).not.toContain("undefined")
  })

  it('flatFee "0.30" with an amount is refused the same way (the measured path)', () => {
    const input = untyped({
      ...colorado,
      percentage: Rate.percent("2"),
      flatFee: "0.30",
      amount: 10_000,
      currency: "usd"
    })
    expect(left(Compliance.check(R, input)).message).toBe(
      'flatFee "0.30" is text; pass Rate.flat("0.30") for 0.30 in major units.'
    )
  })

  it("percentage 2.9 (a number) is refused, not read as 2.9 parts per million and compliant", () => {
    const input = untyped({ ...colorado, percentage: 2.9, flatFee: Rate.NO_FLAT_FEE })
    expect(refusal(left(Compliance.check(R, input)))).toEqual({
      code: "parameter_invalid",
      param: "percentage",
      message: 'percentage 2.9 is a number; pass Rate.percent("2.9") for 2.9 %.'
    })
    // What was meant is not compliant in Colorado.
    const meant = { ...colorado, percentage: Rate.percent("2.9"), flatFee: Rate.NO_FLAT_FEE }
    expect(right(Compliance.check(R, meant)).reasonCode).toBe("percentage_over_limit")
  })

  it("a whole number (3) is refused too: it is no safer than 2.9", () => {
    const input = untyped({ ...colorado, percentage: 3, flatFee: Rate.NO_FLAT_FEE })
    expect(left(Compliance.check(R, input)).message).toBe(
      'percentage 3 is a number; pass Rate.percent("3") for 3 %.'
    )
  })

  it("is refused without a region too (no rule is read, but the input is still wrong)", () => {
    const input = untyped({ percentage: "2.9", flatFee: Rate.NO_FLAT_FEE })
    expect(left(Compliance.check(R, input)).message).toBe(
      'percentage "2.9" is text; pass Rate.percent("2.9") for 2.9 %.'
    )
  })

  it("costOfAcceptance 1.5 (a number) is refused by name", () => {
    const input = untyped({
      ...colorado,
      percentage: Rate.percent("1"),
      flatFee: Rate.NO_FLAT_FEE,
      costOfAcceptance: 1.5
    })
    expect(refusal(left(Compliance.check(R, input)))).toEqual({
      code: "parameter_invalid",
      param: "costOfAcceptance",
      message: 'costOfAcceptance 1.5 is a number; pass Rate.percent("1.5") for 1.5 %.'
    })
  })

  it("a bare Decimal (the old flatFee shape) is refused with the text it meant", () => {
    const input = untyped({
      ...colorado,
      percentage: Rate.percent("1"),
      flatFee: { units: 3, scale: 1 }
    })
    expect(left(Compliance.check(R, input)).message).toBe(
      'flatFee {"units":3,"scale":1} is a bare Decimal; pass Rate.flat("0.3") for 0.3 in major units.'
    )
  })

  it("a missing rate is parameter_missing", () => {
    const error = left(Compliance.check(R, untyped({ ...colorado, flatFee: Rate.NO_FLAT_FEE })))
    expect(refusal(error)).toEqual({
      code: "parameter_missing",
      param: "percentage",
      message: "Missing required param: percentage."
    })
  })

  it("adjustToCompliant, maxFee and the ComplianceRules service refuse it too", () => {
    const input = untyped({
      ...colorado,
      percentage: 2.9,
      flatFee: Rate.NO_FLAT_FEE,
      amount: 10_000,
      fee: 290,
      flatPart: 0
    }) as Compliance.MeasuredInput
    expect(left(Compliance.adjustToCompliant(R, input)).param).toBe("percentage")
    expect(left(Compliance.maxFee(R, input)).param).toBe("percentage")
    const viaService = Effect.runSync(
      Effect.flip(Effect.flatMap(ComplianceRules, (rules) => rules.check(input))).pipe(
        Effect.provide(ComplianceRules.Live)
      )
    )
    expect(viaService.param).toBe("percentage")
  })
})

describe("a hand-built schedule with bare rates is refused", () => {
  const bare = (fields: Record<string, unknown>) =>
    ({ ...FeeSchedule.DEFAULT, ...fields }) as unknown as FeeSchedule.FeeSchedule

  it("Fee.quote names a bare percentage", () => {
    expect(left(Fee.quote(bare({ percentage: 2.9 }), 10_000, "usd")).message).toBe(
      'percentage 2.9 is a number; pass Rate.percent("2.9") for 2.9 %.'
    )
  })

  it("Estimate.estimate names a bare costOfAcceptance (its schedule already found sound)", () => {
    const request = { amount: 10_000, currency: "usd", region: "US-NJ", costOfAcceptance: 1.5 }
    expect(
      Either.isRight(Estimate.estimate(FeeSchedule.DEFAULT, R, { amount: 10_000, currency: "usd" }))
    ).toBe(true)
    const error = left(
      Estimate.estimate(FeeSchedule.DEFAULT, R, request as unknown as Estimate.FeeRequest)
    )
    expect(refusal(error)).toEqual({
      code: "parameter_invalid",
      param: "costOfAcceptance",
      message: 'costOfAcceptance 1.5 is a number; pass Rate.percent("1.5") for 1.5 %.'
    })
  })

  it("Estimate.estimate names a text flat fee", () => {
    const error = left(
      Estimate.estimate(bare({ flatFee: "0.30" }), R, { amount: 10_000, currency: "usd" })
    )
    expect(error.param).toBe("flatFee")
    expect(error.message).toContain('flatFee "0.30" is text; pass Rate.flat("0.30")')
  })
})

describe("Rate's constructors", () => {
  it("percent reads decimal text in percent into parts per million", () => {
    expect(Rate.percent("2.9").ppm).toBe(29_000)
    expect(Rate.percent("0.0001").ppm).toBe(1)
    expect(Rate.percent("100").ppm).toBe(1_000_000)
    expect(Rate.percentText(Rate.percent("2.90"))).toBe("2.9")
  })

  it('percentFromNumber is exact or refuses: 2.9 is percent("2.9"), 0.1 + 0.2 is refused', () => {
    expect(Rate.percentFromNumber(2.9)).toEqual(Rate.percent("2.9"))
    expect(() => Rate.percentFromNumber(0.1 + 0.2)).toThrow(
      "percentage 0.30000000000000004 must have at most 4 decimal places."
    )
  })

  it("a refusal throws the FeeError, naming the value", () => {
    const thrown = (f: () => unknown) => {
      try {
        f()
      } catch (error) {
        return error
      }
      throw new Error("no throw")
    }
    const error = thrown(() => Rate.percent("2.12345"))
    expect(error).toBeInstanceOf(FeeError)
    expect((error as FeeError).message).toBe(
      'percentage "2.12345" must have at most 4 decimal places.'
    )
    expect(() => Rate.percent("-1")).toThrow('percentage "-1" must not be negative.')
    expect(() => Rate.percent("101")).toThrow(
      'percentage "101" must be between 0 and 100 (percent).'
    )
    expect(() => Rate.flat("0.3051")).toThrow(
      'flatFee "0.3051" must have at most 3 decimal places.'
    )
  })

  it("percent given a number at run time says to pass text", () => {
    expect(() => Rate.percent(2.9 as unknown as string)).toThrow(
      'Rate.percent takes decimal text, e.g. Rate.percent("2.9"); got 2.9.'
    )
  })

  it("partsPerMillion takes the engine's unit by name, whole numbers only", () => {
    expect(Rate.partsPerMillion(29_000)).toEqual(Rate.percent("2.9"))
    expect(() => Rate.partsPerMillion(2.9)).toThrow(
      "percentage 2.9 is not a whole number of parts per million from 0 to 1000000."
    )
  })

  it("rates are frozen: one checked (and remembered with its schedule) cannot be changed to 2.9", () => {
    const rate = Rate.percent("2.9")
    expect(() => {
      ;(rate as { ppm: number }).ppm = 2.9
    }).toThrow(TypeError)
    expect(Object.isFrozen(Rate.flat("0.30"))).toBe(true)
    expect(Object.isFrozen(right(Rate.parsePercentage(2.9)))).toBe(true)
  })

  it("the wire's parse gives the same values (FeeSchedule.make is unchanged for HTTP)", () => {
    const made = right(FeeSchedule.make({ percentage: 2.9, flatFee: "0.30" }))
    expect(made.percentage).toEqual(Rate.percent("2.9"))
    expect(made.flatFee).toEqual(Rate.flat("0.30"))
    expect(made).toEqual(FeeSchedule.DEFAULT)
  })

  it("a bare number does not type-check where a rate is expected", () => {
    const input: Compliance.ComplianceInput = {
      // @ts-expect-error a bare number could be percent or parts per million
      percentage: 2.9,
      // @ts-expect-error text is not a flat fee
      flatFee: "0.30"
    }
    expect(Either.isLeft(Compliance.check(R, input))).toBe(true)
  })
})

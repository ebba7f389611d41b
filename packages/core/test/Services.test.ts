import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { ComplianceRules } from "../src/ComplianceRules.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import { FeeCalculator } from "../src/FeeCalculator.js"
import * as FeeSchedule from "../src/FeeSchedule.js"
import * as Rate from "../src/Rate.js"

const schedule = FeeSchedule.DEFAULT

layer(FeeCalculator.Default)("FeeCalculator (shipped ruleset)", (it) => {
  it.effect("quotes the specification's example: 10000 usd → fee 320, total 10320", () =>
    Effect.gen(function* () {
      const calculator = yield* FeeCalculator
      const quote = yield* calculator.quote(schedule, 10000, "usd")
      expect(quote.convenienceFee).toBe(320)
      expect(quote.totalAmount).toBe(10320)
    })
  )

  it.effect("fails in the error channel with the FeeError naming the field", () =>
    Effect.gen(function* () {
      const calculator = yield* FeeCalculator
      const error = yield* Effect.flip(calculator.quote(schedule, 49, "usd"))
      expect(error._tag).toBe("FeeError")
      expect(error.code).toBe("amount_too_small")
      expect(error.param).toBe("amount")
    })
  )

  it.effect(
    "an estimate and a charge quote both lower the fee to the cap, the configured fee beside it",
    () =>
      Effect.gen(function* () {
        const calculator = yield* FeeCalculator
        const request = {
          amount: 10000,
          currency: "usd",
          region: "US-CO",
          cardType: "credit"
        } as const
        const estimate = yield* calculator.estimate(schedule, request)
        expect(estimate.convenienceFee).toBe(200)
        expect(estimate.compliant).toBe(true)
        expect(estimate.configured.convenienceFee).toBe(320)
        expect(estimate.configured.reasonCode).toBe("percentage_over_limit")
        const charge = yield* calculator.chargeQuote(schedule, request)
        expect(charge.convenienceFee).toBe(200)
        expect(charge.totalAmount).toBe(10200)
        expect(charge.adjustment).toBe(-120)
        expect(charge.compliant).toBe(true)
        expect(charge.configured.compliant).toBe(false)
      })
  )
})

describe("ComplianceRules layers", () => {
  const florida = {
    region: "US-FL",
    cardType: "credit",
    percentage: Rate.percent("2"),
    flatFee: Rate.NO_FLAT_FEE
  } as const

  it.effect("Live answers from the shipped ruleset", () =>
    Effect.gen(function* () {
      const rules = yield* ComplianceRules
      expect(rules.ruleset.version).toBe(Ruleset.DEFAULT.version)
      const verdict = yield* rules.check(florida)
      expect(verdict.compliant).toBe(true)
      expect(rules.region("US-CO")?.maxPercentage).toBe(2)
      expect(rules.region("XX")).toBeUndefined()
    }).pipe(Effect.provide(ComplianceRules.Live))
  )

  it.effect("withOverrides changes the answer and names the override in the version", () =>
    Effect.gen(function* () {
      const rules = yield* ComplianceRules
      const verdict = yield* rules.check(florida)
      expect(verdict.compliant).toBe(false)
      expect(verdict.reasonCode).toBe("percentage_over_limit")
      expect(verdict.rulesetVersion).toBe(`${Ruleset.DEFAULT.version}+acct-1`)
    }).pipe(Effect.provide(ComplianceRules.withOverrides([floridaAtOnePercent()], "acct-1")))
  )

  it.effect("FeeCalculator.Live checks against whichever ComplianceRules it is given", () =>
    Effect.gen(function* () {
      const calculator = yield* FeeCalculator
      const estimate = yield* calculator.estimate(schedule, {
        amount: 10000,
        currency: "usd",
        region: "US-FL",
        cardType: "credit"
      })
      expect(estimate.compliance.maxPercentage).toBe(1)
      expect(estimate.compliance.maxFee).toBe(100)
    }).pipe(
      Effect.provide(
        FeeCalculator.Live.pipe(
          Layer.provide(ComplianceRules.withOverrides([floridaAtOnePercent()], "acct-1"))
        )
      )
    )
  )
})

const floridaAtOnePercent = () => {
  // Florida's version in force today (since Dana's Railroad Supply, 2015-11-04).
  // Its research clauses are dropped so that the override's flat terms decide.
  const { clauses: _, ...florida } = Ruleset.DEFAULT.rules.find(
    (r) => r.code === "US-FL" && r.effectiveFrom === "2015-11-04"
  )!
  return { ...florida, maxPercentage: 1 }
}

describe("Ruleset.decodeRules", () => {
  it("accepts the shipped rules and refuses a rule with a bad cap", () => {
    expect(Either.isRight(Ruleset.decodeRules(Ruleset.DEFAULT.rules))).toBe(true)
    expect(
      Either.isLeft(Ruleset.decodeRules([{ ...floridaAtOnePercent(), maxPercentage: 120 }]))
    ).toBe(true)
  })
})

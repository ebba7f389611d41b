/**
 * Which live fee configuration changes wait for a second key (docs/design.md §6): decided by
 * comparing the fees the engine would charge before and after. Each "raise" case is a change
 * a single live key could apply at once while only percentage, flatFee, minFee and maxFee
 * were compared; the gross-up case below was applied at once while amounts were sampled.
 */
import { describe, expect, it } from "@effect/vitest"
import { ComplianceRules, Currency, Estimate, Ruleset } from "@levy/core"
import { Effect, Either } from "effect"
import * as Config from "../src/feeConfigs/Config.js"
import { decide, raisesFee } from "../src/feeConfigs/FeeRaise.js"
import { chargedFee, raisedAt } from "./FeeRaiseOracle.js"
import { RULES, rules as testRules } from "./FeeRaiseRuleset.js"

const rules = Effect.runSync(Effect.provide(ComplianceRules, ComplianceRules.Live))
const base: Config.StoredConfig = Config.DEFAULT
const raises = (before: Partial<Config.StoredConfig>, next: Partial<Config.StoredConfig>) =>
  Effect.runSync(raisesFee(rules, { ...base, ...before }, { ...base, ...before, ...next }))

/** The fee a charge collects under a configuration, as the charge handler computes it. */
const charged = (config: Partial<Config.StoredConfig>, amount: number, region?: string) => {
  const c = { ...base, ...config }
  const schedule = Either.getOrThrow(Config.scheduleOf(c))
  const coa = Either.getOrThrow(Config.costOfAcceptanceOf(c.costOfAcceptance))
  const quote = Either.getOrThrow(
    Estimate.chargeQuote(schedule, rules.ruleset, {
      amount,
      currency: "usd",
      cardType: "credit",
      region: region ?? c.defaultRegion,
      costOfAcceptance: coa,
      allowUncertain: c.allowUncertain
    })
  )
  return quote.convenienceFee
}

describe("raisesFee: the attacks of the first security review are raises", () => {
  it("gross_up at the same rate charges more, and is a raise", () => {
    expect(charged({ model: "gross_up" }, 10000)).toBeGreaterThan(charged({}, 10000))
    expect(raises({}, { model: "gross_up" })).toBe(true)
  })

  it("rounding up charges more on an odd amount, and is a raise", () => {
    expect(charged({ rounding: "up" }, 10001)).toBe(charged({}, 10001) + 1)
    expect(raises({}, { rounding: "up" })).toBe(true)
    expect(raises({ rounding: "down" }, { rounding: "half_even" })).toBe(true)
  })

  it("half_even → half_up charges more only at ties with an even quotient (2.5 % of 1.00), and is a raise", () => {
    const before = { percentage: 2.5, flatFee: 0, rounding: "half_even" as const }
    expect(charged({ ...before, rounding: "half_up" }, 100)).toBe(charged(before, 100) + 1)
    expect(charged({ ...before, rounding: "half_up" }, 101)).toBe(charged(before, 101))
    expect(raises(before, { rounding: "half_up" })).toBe(true)
    expect(raises({ ...before, rounding: "half_up" }, { rounding: "half_even" })).toBe(false)
  })

  it("the same at a rate whose remainders repeat only every 2,000,000 amounts (2.9001 %): a raise found, not held undecided", () => {
    const before = { ...base, percentage: 2.9001, rounding: "half_even" as const }
    const decision = Effect.runSync(decide(rules, before, { ...before, rounding: "half_up" }))
    expect(decision.kind).toBe("raise")
    if (decision.kind !== "raise") return
    const charge = { ...decision.context, amount: decision.amount, currency: decision.currency }
    expect(raisedAt(rules, before, { ...before, rounding: "half_up" }, charge)).toBe(true)
  })

  it("a higher costOfAcceptance lifts the cap where the law caps at cost (US-NJ)", () => {
    const before = { costOfAcceptance: 1.5 }
    expect(charged({ costOfAcceptance: 2.5 }, 10000, "US-NJ")).toBeGreaterThan(
      charged(before, 10000, "US-NJ")
    )
    expect(raises(before, { costOfAcceptance: 2.5 })).toBe(true)
    expect(raises(before, { costOfAcceptance: null })).toBe(true)
  })

  it("allowUncertain lets a fee be charged where the law is uncertain (US-UT)", () => {
    expect(charged({ allowUncertain: true }, 10000, "US-UT")).toBeGreaterThan(
      charged({}, 10000, "US-UT")
    )
    expect(raises({}, { allowUncertain: true })).toBe(true)
  })

  it("a new defaultRegion lifts its cap off every charge that names no region", () => {
    const before = { percentage: 2, defaultRegion: "US-CO" }
    // 2 % + 0.30 on 10.00 is 5 % effective, lowered to US-CO's 2 % cap while it is the default.
    expect(charged({ ...before, defaultRegion: "US-FL" }, 1000)).toBeGreaterThan(
      charged(before, 1000)
    )
    expect(raises(before, { defaultRegion: "US-FL" })).toBe(true)
    expect(raises(before, { defaultRegion: null })).toBe(true)
  })

  it("nonCompliant reject → adjust collects fees on charges that were refused", () => {
    expect(raises({ nonCompliant: "reject" }, { nonCompliant: "adjust" })).toBe(true)
  })

  it("a lower minAmount or a higher maxAmount collects fees on charges that were refused", () => {
    expect(raises({ minAmount: 1000 }, { minAmount: 500 })).toBe(true)
    expect(raises({ maxAmount: 100000 }, { maxAmount: 200000 })).toBe(true)
  })

  it("the four fields compared before are still raises", () => {
    expect(raises({}, { percentage: 3 })).toBe(true)
    expect(raises({}, { flatFee: 0.31 })).toBe(true)
    expect(raises({}, { minFee: 50 })).toBe(true)
    expect(raises({ maxFee: 1000 }, { maxFee: null })).toBe(true)
    expect(raises({ maxFee: 1000 }, { maxFee: 1001 })).toBe(true)
  })
})

describe("raisesFee: raises found between sampled amounts", () => {
  it("gross-up with a maxFee above the old fee where the cap takes hold (the review's attack)", () => {
    // 400000 minor units of flat fee in every currency before, none after.
    const flat = (minor: number) =>
      Object.fromEntries(
        Currency.all
          .filter((c) => c.exponent !== 2)
          .map((c) => [c.code, { flatFee: minor / 10 ** c.exponent }])
      )
    const before = { percentage: 10, flatFee: 4000, currencyFees: flat(400000) }
    const next = {
      model: "gross_up" as const,
      percentage: 50,
      flatFee: 0,
      currencyFees: flat(0),
      maxFee: 480000
    }
    const usd = (config: Partial<Config.StoredConfig>) =>
      chargedFee(rules, { ...base, ...config }, { amount: 480000, currency: "usd" })
    expect(usd(before)).toBe(448000)
    expect(usd({ ...before, ...next })).toBe(480000)
    expect(raises(before, next)).toBe(true)
  })

  it("a raise comes with a charge that shows it", () => {
    const before = { percentage: 10, flatFee: 0.3, maxFee: 100, minAmount: 100000 }
    const decision = Effect.runSync(
      decide(rules, { ...base, ...before }, { ...base, ...before, maxFee: 101 })
    )
    expect(decision.kind).toBe("raise")
    if (decision.kind !== "raise") return
    const charge = { ...decision.context, amount: decision.amount, currency: decision.currency }
    const after = chargedFee(rules, { ...base, ...before, maxFee: 101 }, charge)!
    expect(after).toBeGreaterThan(chargedFee(rules, { ...base, ...before }, charge)!)
  })

  it("a maxFee that binds at every accepted amount makes a higher percentage no raise; removing it is one", () => {
    const before = {
      percentage: 10,
      flatFee: 0.3,
      maxFee: 100,
      minAmount: 100000,
      maxAmount: 400000
    }
    expect(raises(before, { percentage: 50 })).toBe(false)
    expect(raises(before, { maxFee: null })).toBe(true)
  })

  it("requireRegion off lets charges without a region collect a fee; on refuses them", () => {
    expect(raises({ requireRegion: true }, { requireRegion: false })).toBe(true)
    expect(raises({}, { requireRegion: true })).toBe(false)
    expect(raises({ requireRegion: true, defaultRegion: "US-NY" }, { requireRegion: false })).toBe(
      false
    )
  })
})

describe("raisesFee: a ruleset version pin", () => {
  it("is compared context by context across both versions, and a raise it finds is one a charge pays", () => {
    const before = { ...base, rulesetVersion: "latest" }
    const next = { ...base, rulesetVersion: "1.0.0" }
    const decision = Effect.runSync(decide(rules, before, next))
    expect(decision.kind).toBe("raise")
    if (decision.kind !== "raise") return
    const charge = { ...decision.context, amount: decision.amount, currency: decision.currency }
    expect(raisedAt(rules, before, next, charge)).toBe(true)
  })
})

describe("raisesFee: a raise only some charges can see (test ruleset)", () => {
  // Charges must name a region (requireRegion), and every place caps or forbids the fee but:
  // DD for a four-party card issued at home, and EE from 2099.
  const before = { ...base, percentage: 5, flatFee: 0, requireRegion: true }
  const next = { ...before, percentage: 10 }
  const decision = () => Effect.runSync(decide(testRules, before, next))

  it("is found, with the one context that shows it", () => {
    const found = decision()
    expect(found.kind).toBe("raise")
    if (found.kind !== "raise") return
    const charge = { ...found.context, amount: found.amount, currency: found.currency }
    expect(raisedAt(testRules, before, next, charge)).toBe(true)
  })

  it("is no raise where those two places are not known (every other charge is capped)", () => {
    const known = Ruleset.make(
      RULES.filter((r) => r.code !== "DD" && r.code !== "EE"),
      "test-without-dd-ee"
    )
    const capped = Effect.runSync(Effect.provide(ComplianceRules, ComplianceRules.layer(known)))
    expect(Effect.runSync(raisesFee(capped, before, next))).toBe(false)
  })

  it.each([
    ["a four-party card issued at home in DD", "EE"],
    ["a charge in EE from 2099", "DD"]
  ])("is found through %s alone", (_, without) => {
    const only = Ruleset.make(
      RULES.filter((r) => r.code !== without),
      `test-without-${without}`
    )
    const one = Effect.runSync(Effect.provide(ComplianceRules, ComplianceRules.layer(only)))
    const found = Effect.runSync(decide(one, before, next))
    expect(found.kind).toBe("raise")
    if (found.kind !== "raise") return
    const charge = { ...found.context, amount: found.amount, currency: found.currency }
    expect(raisedAt(one, before, next, charge)).toBe(true)
  })
})

describe("raisesFee: a lower flat fee is not always a lowering (test ruleset)", () => {
  it("under a minimum fee where a flat cap binds, a lower flat fee collects more", () => {
    // CC caps the flat part at 0.20: a fee of 1.00 (the minimum) with a flat part of 0.90 is
    // lowered by 0.70, with a flat part of 0.50 only by 0.30. The configuration alone does not
    // prove this a lowering, so the search finds the raise.
    const before = { ...base, percentage: 0, flatFee: 0.9, minFee: 100, defaultRegion: "CC" }
    const next = { ...before, flatFee: 0.5 }
    const found = Effect.runSync(decide(testRules, before, next))
    expect(found.kind).toBe("raise")
    if (found.kind !== "raise") return
    const charge = { ...found.context, amount: found.amount, currency: found.currency }
    expect(raisedAt(testRules, before, next, charge)).toBe(true)
  })
})

describe("raisesFee: changes that raise no fee apply at once", () => {
  it.each([
    ["a lower percentage", {}, { percentage: 2.5 }],
    ["a lower flat fee", {}, { flatFee: 0.2 }],
    ["a new maxFee", {}, { maxFee: 1000 }],
    ["rounding down", {}, { rounding: "down" }],
    ["gross_up back to add_on", { model: "gross_up" }, { model: "add_on" }],
    ["allowUncertain off", { allowUncertain: true }, { allowUncertain: false }],
    ["nonCompliant adjust → reject", {}, { nonCompliant: "reject" }],
    ["a lower costOfAcceptance", { costOfAcceptance: 2.5 }, { costOfAcceptance: 1.5 }],
    ["a capping defaultRegion", { percentage: 2 }, { defaultRegion: "US-CO" }],
    ["billingMode and regionCodes", {}, { billingMode: "separate", regionCodes: ["US-CO"] }],
    ["nothing", {}, {}]
  ] as const)("%s", (_name, before, next) => {
    expect(raises(before, next)).toBe(false)
  })
})

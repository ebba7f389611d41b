/**
 * The fast `raisesFee` (structure first, quotes reused across contexts, no disclosures) gives
 * the answer of the exhaustive one it replaced (FeeRaiseExhaustive.ts: every point priced by
 * `Estimate.chargeQuote` whole), for random pairs of configurations: a configuration and a
 * change to some of its fields, drawn from values where fees, caps, limits and regions bind.
 */
import { describe, expect, it } from "@effect/vitest"
import { ComplianceRules, RulesetVersions } from "@levy/core"
import { Effect } from "effect"
import fc from "fast-check"
import * as Config from "../src/feeConfigs/Config.js"
import { raisesFee } from "../src/feeConfigs/FeeRaise.js"
import { raisesFeeExhaustive } from "./FeeRaiseExhaustive.js"

const rules = Effect.runSync(Effect.provide(ComplianceRules, ComplianceRules.Live))

const fields = {
  percentage: fc.constantFrom(0, 1, 2, 2.5, 2.9, 3, 4, 10),
  flatFee: fc.constantFrom(0, 0.1, 0.25, 0.3, 0.5, 1),
  minAmount: fc.constantFrom(50, 100, 1000),
  maxAmount: fc.constantFrom(null, 100000, 200000),
  rounding: fc.constantFrom(
    "half_up" as const,
    "half_even" as const,
    "up" as const,
    "down" as const
  ),
  model: fc.constantFrom("add_on" as const, "gross_up" as const),
  minFee: fc.constantFrom(null, 30, 50, 100),
  maxFee: fc.constantFrom(null, 500, 1000, 1001),
  costOfAcceptance: fc.constantFrom(null, 1.5, 2.5, 3),
  defaultRegion: fc.constantFrom(null, "US-CO", "US-NJ", "US-UT", "US-FL", "GB", "AU", "CA-QC"),
  nonCompliant: fc.constantFrom("adjust" as const, "reject" as const),
  allowUncertain: fc.boolean(),
  requireRegion: fc.boolean(),
  billingMode: fc.constantFrom("direct" as const, "separate" as const),
  regionCodes: fc.constantFrom([], ["US-CO"]),
  currencyFees: fc.constantFrom(
    {},
    { jpy: { flatFee: 30 } },
    { jpy: { flatFee: 40, minFee: 100, maxFee: null } },
    { usd: { flatFee: 0.5 } }
  ),
  rulesetVersion: fc.constantFrom(RulesetVersions.LATEST, ...RulesetVersions.known())
}

const config = fc
  .record(fields, { requiredKeys: [] })
  .map((some): Config.StoredConfig => ({ ...Config.DEFAULT, ...some }))

/** A configuration and the same with some fields changed (often none that reach the fee). */
const change = fc.tuple(config, fc.record(fields, { requiredKeys: [] })).map(([before, some]) => ({
  before,
  next: { ...before, ...some } as Config.StoredConfig
}))

describe("raisesFee equals the exhaustive comparison", () => {
  it("on random changes", () => {
    let raised = 0
    fc.assert(
      fc.property(change, ({ before, next }) => {
        const fast = raisesFee(rules, before, next)
        if (fast) raised++
        expect(fast).toBe(raisesFeeExhaustive(rules, before, next))
      }),
      { numRuns: 40 }
    )
    // Raises were drawn (most random changes are), so the early answer was compared too.
    expect(raised).toBeGreaterThan(0)
  }, 300_000)

  it("on changes that lower or keep every fee (the exhaustive side's slow case)", () => {
    const lowering = config.chain((before) =>
      fc
        .record(
          {
            percentage: fc.constantFrom(0, before.percentage / 2, before.percentage),
            flatFee: fc.constantFrom(0, before.flatFee),
            maxFee: fc.constantFrom(before.maxFee, 100),
            billingMode: fields.billingMode,
            regionCodes: fields.regionCodes,
            requireRegion: fields.requireRegion
          },
          { requiredKeys: [] }
        )
        .map((some) => ({ before, next: { ...before, ...some } as Config.StoredConfig }))
    )
    let kept = 0
    fc.assert(
      fc.property(lowering, ({ before, next }) => {
        const fast = raisesFee(rules, before, next)
        if (!fast) kept++
        expect(fast).toBe(raisesFeeExhaustive(rules, before, next))
      }),
      { numRuns: 15 }
    )
    // Changes that raise nothing were drawn: every point was compared on those.
    expect(kept).toBeGreaterThan(0)
  }, 300_000)
})

/**
 * `pnpm bench feeRaise`: CPU per fee raise decision (feeConfigs/FeeRaise.ts) for the kinds of
 * live change, against one `Estimate.chargeQuote` measured in the same process (`*ToQuote`:
 * how many charge quotes' worth of CPU one decision costs). Three processes, each figure
 * their median.
 *
 * - `coldMs`: the first decision of a process, which reads every situation of the shipped
 *   ruleset once (FeeRaiseContexts.ts); `pinMs`: a change of ruleset version, which reads both
 *   versions context by context (cold too, for that pair);
 * - the warm cases: a lower percentage, a raise, a field the fee does not read, a rounding
 *   mode change, a gross-up change (to gross-up, and a lower gross-up rate), a `defaultRegion`
 *   change;
 * - `randomWorstMs` and `randomUndecided`: the slowest of 300 random changes (seeded: the same
 *   each run) and how many of them the budget left undecided.
 */
import { ComplianceRules, Estimate, FeeSchedule, Ruleset } from "@levy/core"
import { Effect, Either } from "effect"
import fc from "fast-check"
import { inChildProcesses, median, opsPerSec, report } from "../../../scripts/benchmark.js"
import * as Config from "../src/feeConfigs/Config.js"
import { decide } from "../src/feeConfigs/FeeRaise.js"

const rules = Effect.runSync(Effect.provide(ComplianceRules, ComplianceRules.Live))
const base = Config.DEFAULT
let sink = 0

/** CPU milliseconds of one run of `f`. */
const cpuMs = (f: () => void): number => {
  const start = process.cpuUsage()
  f()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

const once = (before: Config.StoredConfig, next: Config.StoredConfig) => {
  const d = Effect.runSync(decide(rules, before, next))
  sink += d.kind.length
  return d
}

/** Median CPU of a decision, over rounds after a warming one. */
const decisionMs = (before: Partial<Config.StoredConfig>, next: Partial<Config.StoredConfig>) => {
  const b = { ...base, ...before }
  const n = { ...base, ...before, ...next }
  once(b, n)
  return median(Array.from({ length: 15 }, () => cpuMs(() => once(b, n))))
}

const schedule = Either.getOrThrow(FeeSchedule.make(base))
const quotes = (n: number) => {
  for (let i = 0; i < n; i++) {
    const q = Estimate.chargeQuote(schedule, Ruleset.DEFAULT, {
      amount: 5_000 + (i & 1023),
      currency: "usd",
      region: "US-NY",
      cardType: "credit"
    })
    if (Either.isRight(q)) sink += q.right.totalAmount
  }
}

const fields = {
  percentage: fc.integer({ min: 0, max: 200_000 }).map((ppm) => ppm / 10_000),
  flatFee: fc.constantFrom(0, 0.1, 0.3, 0.5, 2),
  minAmount: fc.constantFrom(50, 1000),
  maxAmount: fc.constantFrom(null, 100_000),
  rounding: fc.constantFrom(
    "half_up" as const,
    "half_even" as const,
    "up" as const,
    "down" as const
  ),
  model: fc.constantFrom("add_on" as const, "gross_up" as const),
  minFee: fc.constantFrom(null, 30, 100),
  maxFee: fc.constantFrom(null, 500, 1001),
  costOfAcceptance: fc.constantFrom(null, 1.5, 3),
  defaultRegion: fc.constantFrom(null, "US-CO", "US-NJ", "GB", "AU"),
  nonCompliant: fc.constantFrom("adjust" as const, "reject" as const),
  allowUncertain: fc.boolean()
}

const randomChanges = () =>
  fc
    .sample(
      fc.tuple(fc.record(fields, { requiredKeys: [] }), fc.record(fields, { requiredKeys: [] })),
      { numRuns: 300, seed: 42 }
    )
    .map(([b, n]) => ({ before: { ...base, ...b }, next: { ...base, ...b, ...n } }))
    .filter(
      ({ before, next }) =>
        Either.isRight(FeeSchedule.make(before)) && Either.isRight(FeeSchedule.make(next))
    )

const measure = () => {
  const coldMs = cpuMs(() => once(base, { ...base, percentage: 2.5 }))
  const pinMs = cpuMs(() => once(base, { ...base, rulesetVersion: "1.0.0" }))
  const quoteUs = 1_000_000 / opsPerSec(quotes)
  const cases = {
    lowerPercentageMs: decisionMs({}, { percentage: 2.5 }),
    raiseMs: decisionMs({}, { percentage: 3 }),
    unreadFieldMs: decisionMs({}, { billingMode: "separate" }),
    roundingMs: decisionMs({}, { rounding: "half_even" }),
    toGrossUpMs: decisionMs({}, { model: "gross_up" }),
    grossUpLowerMs: decisionMs({ model: "gross_up" }, { percentage: 2.5 }),
    defaultRegionMs: decisionMs({ percentage: 2 }, { defaultRegion: "US-CO" })
  }
  let worst = 0
  let undecided = 0
  for (const { before, next } of randomChanges()) {
    once(before, next)
    worst = Math.max(
      worst,
      cpuMs(() => {
        if (once(before, next).kind === "undecided") undecided++
      })
    )
  }
  if (sink === 42) console.log("")
  const ratios = Object.fromEntries(
    Object.entries(cases).map(([k, ms]) => [k.replace(/Ms$/, "ToQuote"), (ms * 1000) / quoteUs])
  )
  return {
    quoteUs,
    coldMs,
    pinMs,
    ...cases,
    ...ratios,
    randomWorstMs: worst,
    randomWorstToQuote: (worst * 1000) / quoteUs,
    randomUndecided: undecided
  }
}

const figures = await inChildProcesses(import.meta.url, 3, measure)
if (figures !== undefined) report("feeRaise", figures)

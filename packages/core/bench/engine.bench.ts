/**
 * Estimates per second through the plain function (fee + compliance) and through the
 * Effect service, against a baseline loop of the bare integer formula in the same run.
 * One process's JIT and hash seeds move the figures by ±15 %, so the run is three
 * processes and each figure is their median.
 */
import { Effect } from "effect"
import { inChildProcesses, opsPerSec, report } from "../../../scripts/benchmark.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Estimate from "../src/Estimate.js"
import { FeeCalculator } from "../src/FeeCalculator.js"
import * as FeeSchedule from "../src/FeeSchedule.js"

const schedule = FeeSchedule.DEFAULT
const ruleset = Ruleset.DEFAULT
const REGIONS = ["US-NY", "US-CO", "CA-ON", "US-FL"]
let sink = 0

const baseline = (n: number) => {
  for (let i = 0; i < n; i++) {
    const amount = 5_000 + (i & 1023)
    const fee = Math.floor((amount * 29_000 + 500_000) / 1_000_000) + 30
    sink += amount + fee
  }
}

const plain = (n: number) => {
  for (let i = 0; i < n; i++) {
    const result = Estimate.estimate(schedule, ruleset, {
      amount: 5_000 + (i & 1023),
      currency: "usd",
      region: REGIONS[i & 3],
      cardType: "credit"
    })
    if (result._tag === "Right") sink += result.right.totalAmount
  }
}

const effect = (n: number) =>
  Effect.runSync(
    Effect.gen(function* () {
      const calculator = yield* FeeCalculator
      for (let i = 0; i < n; i++) {
        const estimate = yield* calculator.estimate(schedule, {
          amount: 5_000 + (i & 1023),
          currency: "usd",
          region: REGIONS[i & 3],
          cardType: "credit"
        })
        sink += estimate.totalAmount
      }
    }).pipe(Effect.provide(FeeCalculator.Default))
  )

const measure = () => {
  const baselinePerSec = opsPerSec(baseline)
  const plainPerSec = opsPerSec(plain)
  const effectPerSec = opsPerSec(effect)
  if (sink === 42) console.log("")
  return { baselinePerSec, plainPerSec, effectPerSec }
}

const figures = await inChildProcesses(import.meta.url, 3, measure)
if (figures !== undefined) {
  report("engine", {
    ...figures,
    plainToBaseline: figures.plainPerSec / figures.baselinePerSec,
    effectToBaseline: figures.effectPerSec / figures.baselinePerSec
  })
}

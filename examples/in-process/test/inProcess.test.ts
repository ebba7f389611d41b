/** The in-process example, run as a test on the memory store and on the embedded one. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { LevyService } from "@levy/engine"
import { Effect, Layer } from "effect"
import { checkout } from "../src/checkout.js"

const tour = (store: Parameters<typeof LevyService.store>[0]) => {
  const lines: Array<string> = []
  return Effect.runPromise(
    checkout((line) => lines.push(line)).pipe(
      Effect.provide(LevyService.layer.pipe(Layer.provide(LevyService.store(store))))
    )
  ).then((result) => ({ result, lines }))
}

const expected = {
  // 2.9 % + 0.30 is over the card networks' 3 % in Florida: lowered to 300
  estimateFee: 300,
  refundedAmount: 2_500,
  refundedFee: 80, // a quarter of the 320 fee
  loweredFee: 270 // 2.5 % + 0.20 after the owner's change
}

describe("in-process example", () => {
  it("on the memory store: a key replays its charge, a decline is a typed error", async () => {
    const { result, lines } = await tour({ store: "memory" })
    expect(result).toMatchObject(expected)
    expect(result.replayedChargeId).toBe(result.keyedChargeId)
    expect(result.keyedChargeId).not.toBe(result.plainChargeId)
    expect(result.declined).toMatch(/^declined: card_declined \(ch_/)
    expect(lines).toHaveLength(7)
  }, 30_000)

  it("on the embedded store in a directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "levy-in-process-"))
    try {
      const { result } = await tour({ store: "embedded", dataDir: dir })
      expect(result).toMatchObject(expected)
      expect(result.replayedChargeId).toBe(result.keyedChargeId)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

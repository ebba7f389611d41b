/**
 * What every benchmark shares: timing a loop for a while, keeping the median of rounds,
 * and writing a flat JSON object of named numbers under bench-results/ plus a table.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** Operations per second of `run(n)` (which performs n operations), median of `rounds` timed rounds. */
export const opsPerSec = (
  run: (n: number) => void,
  options: { rounds?: number; ms?: number } = {}
): number => {
  const rounds = options.rounds ?? 7
  const ms = options.ms ?? 400
  let batch = 1_000
  // Warm up and size the batch so one round lasts about `ms`.
  for (;;) {
    const started = performance.now()
    run(batch)
    const took = performance.now() - started
    if (took >= ms / 4) {
      batch = Math.max(1, Math.round((batch * ms) / took))
      break
    }
    batch *= 4
  }
  const rates: Array<number> = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    run(batch)
    rates.push(batch / ((performance.now() - started) / 1000))
  }
  return median(rates)
}

/** The median of a list of numbers. */
export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Writes `bench-results/<name>.json` and prints the figures as a table. */
export const report = (name: string, figures: Readonly<Record<string, number>>): void => {
  const dir = join(process.cwd(), "bench-results")
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`)
  console.log(`\n${name} (bench-results/${name}.json)`)
  console.table(
    Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, { value: round(v) }]))
  )
}

const round = (v: number): number =>
  Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 1000) / 1000

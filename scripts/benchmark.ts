/**
 * What every benchmark shares: timing a loop for a while, keeping the median of rounds,
 * and writing a flat JSON object of named numbers under bench-results/ plus a table.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** Operations per second of `run(n)` (which performs n operations), median of `rounds` timed rounds. */
export const opsPerSec = (
  run: (n: number) => void,
  options: { rounds?: number; ms?: number; warmupMs?: number } = {}
): number => {
  const rounds = options.rounds ?? 7
  const ms = options.ms ?? 400
  const warmupMs = options.warmupMs ?? 1_500
  let batch = 1_000
  // Size the batch so one round lasts about `ms`.
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
  // Warm up long enough for the optimising compiler to settle before anything is timed.
  const warmupEnds = performance.now() + warmupMs
  while (performance.now() < warmupEnds) run(batch)
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

/** Whole numbers from 100 up, three decimals from 1, three significant digits below (0.00976). */
const round = (v: number): number =>
  Math.abs(v) >= 100
    ? Math.round(v)
    : Math.abs(v) >= 1 || v === 0
      ? Math.round(v * 1000) / 1000
      : Number(v.toPrecision(3))

const CHILD = "LEVY_BENCH_CHILD"

/**
 * Runs `measure` in `runs` fresh processes of the same file and returns each figure's median
 * (in the parent), or prints the figures as JSON and returns undefined (in a child).
 */
export const inChildProcesses = async <K extends string>(
  fileUrl: string,
  runs: number,
  measure: () => Record<K, number> | Promise<Record<K, number>>
): Promise<Record<K, number> | undefined> => {
  if (process.env[CHILD] !== undefined) {
    console.log(JSON.stringify(await measure()))
    return undefined
  }
  const results: Array<Record<K, number>> = []
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(fileUrl)], {
      env: { ...process.env, [CHILD]: "1" },
      encoding: "utf8"
    })
    const figures = JSON.parse(out.trim().split("\n").pop() ?? "{}") as Record<K, number>
    console.log(`  process ${i + 1}: ${JSON.stringify(figures)}`)
    results.push(figures)
  }
  const keys = Object.keys(results[0] ?? {}) as Array<K>
  return Object.fromEntries(keys.map((k) => [k, median(results.map((r) => r[k]))])) as Record<
    K,
    number
  >
}

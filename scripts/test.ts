/**
 * `pnpm test`: every package's tests through vitest, then one plain closing line
 * ("N passed, N failed, N skipped") that any CI can read. The reliability harness
 * (packages/reliability) kills servers and restarts PostgreSQL, so it runs in a second
 * vitest invocation after every other project, never beside them; the line counts both.
 * Arguments are passed to vitest; with a `--project` among them a single invocation runs.
 *
 * Workers: vitest's default on a 2-core machine is one (cores − 1), so every file ran after the
 * other while most of them wait on child processes, PostgreSQL or a browser. WORKERS files run
 * side by side unless the caller passes `--maxWorkers` (docs/development.md "Test time").
 *
 * Pool: each file of the parallel run (not of a run with `--project`) gets a fresh worker
 * thread (POOL) instead of vitest's default fresh child process, unless the caller passes
 * `--pool`; every file still loads its own modules. Measured on twelve server test files: 64 s
 * of CPU instead of 78 s. The reliability run keeps the default: not measured on threads.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"

const ALONE = "reliability"
const WORKERS = 3
const POOL = "threads"

interface Counts {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  numTodoTests: number
}

/** Runs vitest with `args`, its JSON report at `report`: the exit status and the counts. */
const vitest = (args: ReadonlyArray<string>, report: string) => {
  rmSync(report, { force: true })
  const run = spawnSync(
    process.execPath,
    [
      "node_modules/vitest/vitest.mjs",
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...args
    ],
    { stdio: "inherit" }
  )
  const counts = existsSync(report)
    ? (JSON.parse(readFileSync(report, "utf8")) as Counts)
    : undefined
  return { status: run.status ?? 1, counts }
}

const args = process.argv.slice(2)
const given = args.some((a) => a.startsWith("--maxWorkers"))
  ? args
  : [...args, `--maxWorkers=${WORKERS}`, "--minWorkers=1"]
const pool = args.some((a) => a.startsWith("--pool")) ? [] : [`--pool=${POOL}`]
const runs = given.some((a) => a.startsWith("--project"))
  ? [vitest(given, "test-results/vitest.json")]
  : [
      vitest([...given, ...pool, `--project=!${ALONE}`], "test-results/vitest.json"),
      vitest([...given, `--project=${ALONE}`], `test-results/vitest-${ALONE}.json`)
    ]
const sum = (pick: (c: Counts) => number) =>
  runs.reduce((total, r) => total + (r.counts === undefined ? 0 : pick(r.counts)), 0)
if (runs.some((r) => r.counts !== undefined)) {
  console.log(
    `\nTests: ${sum((c) => c.numPassedTests)} passed, ${sum((c) => c.numFailedTests)} failed, ${sum((c) => c.numPendingTests + c.numTodoTests)} skipped`
  )
}
process.exit(runs.find((r) => r.status !== 0)?.status ?? 0)

/**
 * `pnpm test`: every package's tests through vitest, then one plain closing line
 * ("N passed, N failed, N skipped") that any CI can read.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"

const report = "test-results/vitest.json"
rmSync(report, { force: true })
const run = spawnSync(
  process.execPath,
  [
    "node_modules/vitest/vitest.mjs",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...process.argv.slice(2)
  ],
  { stdio: "inherit" }
)
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, "utf8")) as {
    numPassedTests: number
    numFailedTests: number
    numPendingTests: number
    numTodoTests: number
  }
  console.log(
    `\nTests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`
  )
}
process.exit(run.status ?? 1)

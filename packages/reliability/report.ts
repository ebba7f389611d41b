/**
 * `pnpm reliability:report` (run from the workspace root): renders the figures of the last reliability run
 * (test-results/reliability.json, written by packages/reliability) into the table between
 * the markers of docs/reliability.md.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { FILE, type Recorded } from "./test/support/Figures.js"

const DOC = "docs/reliability.md"
const BEGIN = "<!-- figures:begin -->"
const END = "<!-- figures:end -->"

const rows = Object.values(JSON.parse(readFileSync(FILE, "utf8")) as Record<string, Recorded>).sort(
  (x, y) => x.scenario.localeCompare(y.scenario)
)
const n = (v: number) => v.toLocaleString("en-US")
const table = [
  "| Scenario | Requests sent | Faults injected | Acknowledged writes | Writes found afterwards | Duplicates | 5xx | Undelivered events |",
  "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.scenario} | ${n(r.requestsSent)} | ${r.faultsInjected} | ${n(r.acknowledgedWrites)} | ${n(r.writesFound)} | ${n(r.duplicates)} | ${n(r.serverErrors)} | ${n(r.undeliveredEvents)} |`
  ),
  "",
  ...rows.map((r) => `- ${r.scenario}: ${r.notes ?? ""} (run ${r.at})`)
].join("\n")

const doc = readFileSync(DOC, "utf8")
const start = doc.indexOf(BEGIN)
const end = doc.indexOf(END)
if (start < 0 || end < start) throw new Error(`${DOC} has no ${BEGIN} … ${END} markers`)
writeFileSync(DOC, `${doc.slice(0, start + BEGIN.length)}\n${table}\n${doc.slice(end)}`)
console.log(`${DOC}: ${rows.length} scenarios from ${FILE}`)

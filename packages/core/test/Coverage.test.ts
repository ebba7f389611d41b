/** docs/compliance.md's coverage table is the one the data gives today (else run `npx -y pnpm@10 rules:coverage`). */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import * as Coverage from "../src/compliance/Coverage.js"
import { AS_OF, between, current } from "../src/compliance/CoverageDoc.js"
import * as Ruleset from "../src/compliance/Ruleset.js"

const doc = readFileSync(new URL("../../../docs/compliance.md", import.meta.url), "utf8")
const table = Coverage.table(Ruleset.DEFAULT, AS_OF)

describe("the coverage table of docs/compliance.md", () => {
  it("is current with the shipped ruleset (else run `npx -y pnpm@10 rules:coverage`)", () => {
    expect(current(doc)).toBe(table)
  })

  it("has one row per place, each with its status, confidence and at least one source", () => {
    const rows = table.split("\n").slice(2)
    expect(rows).toHaveLength(Ruleset.placeCodes(Ruleset.DEFAULT).length)
    for (const row of rows) {
      const cells = row.split(" | ")
      expect(["prohibited", "permitted", "uncertain"]).toContain(cells[1])
      expect(["high", "medium", "low"]).toContain(cells[4])
      expect(["statute", "regulator", "network", "secondary"]).toContain(cells[5])
      expect(Number.parseInt(cells[7]!, 10)).toBeGreaterThan(0)
    }
  })

  it("names the strongest kind of source behind a place's rule, a secondary one only when nothing better is cited", () => {
    expect(
      Coverage.bestSource([{ kind: "secondary" }, { kind: "regulator" }, { kind: "statute" }])
    ).toBe("statute")
    expect(Coverage.bestSource([{ kind: "secondary" }, { kind: "network" }])).toBe("network")
    expect(Coverage.bestSource([{ kind: "secondary" }])).toBe("secondary")
    expect(Coverage.bestSource([])).toBe("—")
    const row = (code: string) =>
      table
        .split("\n")
        .find((r) => r.startsWith(`| ${code} |`))!
        .split(" | ")
    expect(row("AU")[4]).toBe("low") // the 2026 ban: only secondary accounts read
    expect(row("AU")[5]).toBe("secondary")
    expect(row("GB")[5]).toBe("statute")
  })

  it("writing the table twice changes nothing; a document without its markers is refused", () => {
    expect(between(between(doc, table), table)).toBe(between(doc, table))
    expect(() => between("# no markers", table)).toThrow("coverage:start")
  })
})

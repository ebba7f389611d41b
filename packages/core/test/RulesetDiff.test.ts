/**
 * `RulesetDiff.diff` between two versions: what 1.0.0 → 1.1.0 changed is what the CHANGELOG's
 * 1.1.0 entry says (AU, NZ with NZ-INSTORE, US-CO, US-CONVENIENCE-FEE-VISA, and the research
 * places added), and a diff of made-up rules reports each kind of change exactly.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Rule } from "../src/compliance/Rule.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as RulesetDiff from "../src/compliance/RulesetDiff.js"
import * as RulesetVersions from "../src/compliance/RulesetVersions.js"

const v = (version: string) => RulesetVersions.find(version)!.ruleset()

describe("RulesetDiff between 1.0.0 and 1.1.0", () => {
  const diff = RulesetDiff.diff(v("1.0.0"), v("1.1.0"))
  const of = (code: string) => diff.find((d) => d.code === code)

  it("changes what the CHANGELOG's 1.1.0 entry names, and nothing else", () => {
    expect(diff.filter((d) => d.change !== "added").map((d) => [d.code, d.change])).toEqual([
      ["AU", "changed"],
      ["NZ", "changed"],
      ["NZ-INSTORE", "removed"],
      ["US-CO", "changed"],
      ["US-CONVENIENCE-FEE-VISA", "changed"]
    ])
    const added = diff.filter((d) => d.change === "added").map((d) => d.code)
    expect(added).toEqual(expect.arrayContaining(["SE", "CH", "JP", "KW", "US-GU", "VN", "ZA"]))
    expect(added).toHaveLength(53)
  })

  it("names the fields, effective dates and sources of a change", () => {
    expect(of("US-CONVENIENCE-FEE-VISA")).toMatchObject({
      fields: ["standardChannelOnly"],
      effectiveDates: null,
      sources: { added: [], removed: [] }
    })
    const au = of("AU")!
    expect(au.fields).toEqual(expect.arrayContaining(["clauses", "sources", "confidence"]))
    expect(au.effectiveDates!.before).toEqual(["2016-09-01 → —", "2026-07-01 → —"])
    expect(au.effectiveDates!.after.at(-1)).toBe("2026-10-01 → —")
    expect(au.sources.added.some((s) => s.includes("rba.gov.au"))).toBe(true)
  })

  it("is empty from a version to itself, and reversed the other way", () => {
    expect(RulesetDiff.diff(v("1.1.0"), v("1.1.0"))).toEqual([])
    const back = RulesetDiff.diff(v("1.1.0"), v("1.0.0"))
    expect(back.find((d) => d.code === "NZ-INSTORE")?.change).toBe("added")
    expect(back.find((d) => d.code === "SE")?.change).toBe("removed")
  })
})

describe("RulesetDiff on made-up rules", () => {
  // Florida's version in force today (since Dana's Railroad Supply, 2015-11-04).
  const { clauses: _, ...fl } = Ruleset.DEFAULT.rules.find(
    (r) => r.code === "US-FL" && r.effectiveFrom === "2015-11-04"
  )!
  const make = (rules: ReadonlyArray<Rule>) => Ruleset.make(rules, "x")

  it("a changed cap is its field; a new dated version is an effective-date change; a new source is listed", () => {
    const capped: Rule = { ...fl, maxPercentage: 1, sources: [...fl.sources, "https://x.test/a"] }
    const later: Rule = { ...fl, effectiveFrom: "2030-01-01", status: "prohibited" }
    const [d] = RulesetDiff.diff(make([fl]), make([capped, later]))
    expect(d).toEqual({
      code: "US-FL",
      kind: "place",
      change: "changed",
      fields: ["maxPercentage", "sources"],
      effectiveDates: { before: ["2015-11-04 → —"], after: ["2015-11-04 → —", "2030-01-01 → —"] },
      sources: { added: ["https://x.test/a"], removed: [] }
    })
  })
})

/**
 * The released versions of the ruleset: every snapshot decodes into the rule model, the
 * current version's snapshot is exactly the ruleset the research builds (a version names one
 * set of rules), an earlier version answers with its own rules and names itself, and a
 * release refuses to rewrite a version with other rules.
 */
import { describe, expect, it } from "@effect/vitest"
import { versionFiles } from "@levy/rules/versions"
import { Either } from "effect"
import * as Compliance from "../src/compliance/Compliance.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as RulesetVersions from "../src/compliance/RulesetVersions.js"
import * as Rate from "../src/Rate.js"
import { left, right } from "./support.js"

const release = (version: string) => RulesetVersions.find(version)!

describe("RulesetVersions", () => {
  it.each(versionFiles.map((f) => f.file))("versions/%s decodes into the rule model", (file) => {
    const { json } = versionFiles.find((f) => f.file === file)!
    expect(RulesetVersions.rulesOf(file, json).length).toBeGreaterThan(0)
  })

  it("the current version's snapshot is the shipped ruleset (else bump the version and run `npx -y pnpm@10 rules:snapshot`)", () => {
    const current = versionFiles.find((f) => f.file === `${Ruleset.DEFAULT.version}.json`)
    expect(current, `no snapshot versions/${Ruleset.DEFAULT.version}.json`).toBeDefined()
    const shipped: unknown = JSON.parse(JSON.stringify(Ruleset.DEFAULT.rules))
    expect(RulesetVersions.sameJson((current!.json as { rules: unknown }).rules, shipped)).toBe(
      true
    )
  })

  it("lists 1.0.0 and 1.1.0 oldest first, the package's version current and answered by the shipped ruleset", () => {
    expect(RulesetVersions.known()).toEqual(expect.arrayContaining(["1.0.0", "1.1.0"]))
    expect(RulesetVersions.known().indexOf("1.0.0")).toBeLessThan(
      RulesetVersions.known().indexOf("1.1.0")
    )
    const current = RulesetVersions.all.filter((r) => r.current)
    expect(current.map((r) => r.version)).toEqual([Ruleset.DEFAULT.version])
    expect(current[0]!.ruleset()).toBe(Ruleset.DEFAULT)
    expect(RulesetVersions.resolve("latest")).toBe(Ruleset.DEFAULT)
    expect(RulesetVersions.resolve(undefined)).toBe(Ruleset.DEFAULT)
    expect(RulesetVersions.resolve("9.9.9")).toBeUndefined()
    expect(RulesetVersions.unknownMessage("9.9.9")).toContain("1.0.0, 1.1.0")
  })

  it("1.0.0 is the dataset's ruleset: 90 rules, no research places, and it names itself", () => {
    const old = release("1.0.0").ruleset()
    expect(old.version).toBe("1.0.0")
    expect(old.rules).toHaveLength(90)
    expect(Ruleset.placeCodes(old)).not.toContain("SE")
    expect(release("1.0.0").note).toContain("fcc3776")
    expect(RulesetVersions.resolve("1.0.0")).toBe(old) // built once
  })

  // AU: 1.0.0 had "uncertain from 2026-07-01 (RBA change pending, outcome not found)"; 1.1.0
  // reads the RBA's Conclusions Paper: surcharges on Visa prohibited from 2026-10-01.
  it("an earlier version decides by its own rules: AU on a Visa card in November 2026", () => {
    const input = {
      region: "AU",
      percentage: Rate.percent("100"),
      flatFee: Rate.NO_FLAT_FEE,
      cardType: "credit" as const,
      cardNetwork: "visa",
      date: "2026-11-01"
    }
    const then = right(Compliance.check(release("1.0.0").ruleset(), input))
    const now = right(Compliance.check(release("1.1.0").ruleset(), input))
    expect([then.reasonCode, then.rulesetVersion]).toEqual(["legal_uncertainty", "1.0.0"])
    expect([now.reasonCode, now.rulesetVersion]).toEqual(["fees_prohibited", "1.1.0"])
  })
})

describe("RulesetVersions.snapshotOf", () => {
  const changelog = "# x\n\n## 1.1.0 — 2026-11-24\n\n- AU: a change.\n"
  const ruleset = release("1.1.0").ruleset()

  it("takes the version's CHANGELOG entry and the ruleset's rules", () => {
    const snapshot = right(RulesetVersions.snapshotOf(ruleset, changelog, undefined))
    expect(snapshot.released).toBe("2026-11-24")
    expect(snapshot.changes).toEqual(["AU: a change."])
    expect(snapshot.rules).toHaveLength(ruleset.rules.length)
  })

  it("refuses a version without a CHANGELOG entry", () => {
    expect(left(RulesetVersions.snapshotOf(ruleset, "# x\n", undefined))).toContain(
      'no entry "## 1.1.0'
    )
  })

  it("rewrites a released version only with the same rules, keeping its note", () => {
    const same = right(RulesetVersions.snapshotOf(ruleset, changelog, undefined))
    const again = RulesetVersions.snapshotOf(ruleset, changelog, { ...same, note: "kept" })
    expect(Either.map(again, (s) => s.note)).toEqual(Either.right("kept"))
    const other = { ...same, rules: same.rules.slice(1) }
    expect(left(RulesetVersions.snapshotOf(ruleset, changelog, other))).toContain(
      "was released with other rules: bump the version"
    )
  })
})

describe("RulesetVersions.sameJson", () => {
  it("ignores key order, not values", () => {
    expect(RulesetVersions.sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(
      true
    )
    expect(RulesetVersions.sameJson({ a: 1 }, { a: 1, b: null })).toBe(false)
    expect(RulesetVersions.sameJson([1, 2], [2, 1])).toBe(false)
    expect(RulesetVersions.sameJson({ a: "1" }, { a: 1 })).toBe(false)
  })
})

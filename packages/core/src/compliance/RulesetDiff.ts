/**
 * What changed between two versions of the ruleset, jurisdiction by jurisdiction: the codes
 * added and removed, and for a code in both, the rule fields that differ, the dated versions
 * (effective dates) and the sources. Read by `levy rules diff A B`.
 */
import type { Rule } from "./Rule.js"
import type { Ruleset } from "./Ruleset.js"
import { sameJson } from "./RulesetVersions.js"

/** A code's dated versions, as `from → until` ("—" for an open end). */
export type Dates = ReadonlyArray<string>

export interface JurisdictionDiff {
  readonly code: string
  readonly kind: Rule["kind"]
  readonly change: "added" | "removed" | "changed"
  /** Rule fields that differ between versions in force from the same date (changed codes). */
  readonly fields: ReadonlyArray<string>
  /** The code's dated versions before and after, when they differ (or the code is new or gone). */
  readonly effectiveDates: { readonly before: Dates; readonly after: Dates } | null
  /** Source URLs cited after but not before, and before but not after. */
  readonly sources: {
    readonly added: ReadonlyArray<string>
    readonly removed: ReadonlyArray<string>
  }
}

/** The differences from `from` to `to`, by code. */
export const diff = (from: Ruleset, to: Ruleset): ReadonlyArray<JurisdictionDiff> => {
  const before = byCode(from.rules)
  const after = byCode(to.rules)
  const codes = [...new Set([...before.keys(), ...after.keys()])].sort()
  return codes.flatMap((code) => {
    const a = before.get(code) ?? []
    const b = after.get(code) ?? []
    if (sameJson(plain(a), plain(b))) return []
    const datesA = a.map(dates)
    const datesB = b.map(dates)
    return [
      {
        code,
        kind: (b[0] ?? a[0])!.kind,
        change: a.length === 0 ? "added" : b.length === 0 ? "removed" : "changed",
        fields: a.length === 0 || b.length === 0 ? [] : changedFields(a, b),
        effectiveDates: sameJson(datesA, datesB) ? null : { before: datesA, after: datesB },
        sources: {
          added: difference(sourcesOf(b), sourcesOf(a)),
          removed: difference(sourcesOf(a), sourcesOf(b))
        }
      }
    ]
  })
}

/** The fields that differ between the versions starting on the same day (else the latest two). */
const changedFields = (a: ReadonlyArray<Rule>, b: ReadonlyArray<Rule>): ReadonlyArray<string> => {
  const pairs: Array<readonly [Rule, Rule]> = []
  for (const x of a) {
    const y = b.find((r) => r.effectiveFrom === x.effectiveFrom)
    if (y !== undefined) pairs.push([x, y])
  }
  if (pairs.length === 0) pairs.push([a.at(-1)!, b.at(-1)!])
  const fields = new Set<string>()
  for (const [x, y] of pairs) {
    const px = plain(x) as Record<string, unknown>
    const py = plain(y) as Record<string, unknown>
    for (const key of new Set([...Object.keys(px), ...Object.keys(py)])) {
      if (key !== "effectiveFrom" && !sameJson(px[key], py[key])) fields.add(key)
    }
  }
  return [...fields].sort()
}

const byCode = (rules: ReadonlyArray<Rule>): Map<string, Array<Rule>> => {
  const map = new Map<string, Array<Rule>>()
  for (const rule of rules) map.set(rule.code, [...(map.get(rule.code) ?? []), rule])
  for (const list of map.values()) list.sort((x, y) => day(x).localeCompare(day(y)))
  return map
}

const day = (rule: Rule) => rule.effectiveFrom ?? ""

const dates = (rule: Rule): string => `${rule.effectiveFrom ?? "—"} → ${rule.effectiveUntil ?? "—"}`

const sourcesOf = (rules: ReadonlyArray<Rule>) => new Set(rules.flatMap((r) => r.sources))

const difference = (x: ReadonlySet<string>, y: ReadonlySet<string>) =>
  [...x].filter((s) => !y.has(s)).sort()

/** The value as JSON has it: absent, undefined and missing optional fields compare alike. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

/**
 * The coverage table of docs/compliance.md, written from the ruleset: one row per place, the
 * law in force on a day for a consumer's credit-card surcharge (as GET /v1/regions shows it),
 * its confidence, the kind of the best source behind the place's own rule, the dates of that
 * version and of any later one already announced.
 */
import * as Day from "./Day.js"
import * as RegionInfo from "./RegionInfo.js"
import type { Citation } from "./Rule.js"
import type { Ruleset } from "./Ruleset.js"
import * as RulesetModule from "./Ruleset.js"

/** The table in Markdown, as of `date` (ISO). */
export const table = (ruleset: Ruleset, date: string): string => {
  const day = Day.fromIso(date)!
  const rows = RegionInfo.list(ruleset, date).map((info) => {
    const versions = ruleset.places.get(info.regionCode)!
    const current = RulesetModule.inForce(versions, day)?.rule
    const later = versions.filter((v) => v.fromDay > day).map((v) => v.rule.effectiveFrom)
    const cap =
      info.status === "prohibited" || info.maxPercentage === 0
        ? "—"
        : info.maxPercentage >= 100
          ? "none"
          : `${info.maxPercentage} %`
    const from = current?.effectiveFrom ?? "—"
    const until = current?.effectiveUntil ?? later[0] ?? ""
    const dates = until === "" ? `${from} →` : `${from} → ${until}`
    const source = info.sources[0] ?? ""
    return [
      info.state === null ? info.regionCode : `${info.regionCode} (${info.state})`,
      info.status,
      cap,
      current?.sourceStatus === "research" ? "research record" : "dataset",
      info.confidence,
      bestSource(current?.citations ?? []),
      dates,
      `${info.sources.length}: ${source.length > 70 ? `${source.slice(0, 67)}...` : source}`
    ]
  })
  const header = [
    "Jurisdiction",
    "Status",
    "Cap",
    "Record",
    "Confidence",
    "Best source",
    "In force",
    "Sources"
  ]
  return [header, header.map(() => "---"), ...rows]
    .map((cells) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`)
    .join("\n")
}

/** Strongest first: the law's own text, then its regulator, then a card network's own rules. */
const KINDS: ReadonlyArray<Citation["kind"]> = ["statute", "regulator", "network", "secondary"]

/** The kind of the strongest source cited ("—" for a rule without citations, as the dataset's). */
export const bestSource = (citations: ReadonlyArray<Pick<Citation, "kind">>): string =>
  KINDS.find((kind) => citations.some((c) => c.kind === kind)) ?? "—"

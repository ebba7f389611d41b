/**
 * `levy rules diff <from> <to> [--json]`: the jurisdictions whose rules differ between two
 * released versions of the ruleset (docs/design.md §3) — added, removed, and changed with
 * the fields, effective dates and sources that changed. An unknown version is a usage error
 * listing the known ones. With `--account`, what the difference means for that account
 * (RulesDiffAccount.ts).
 */
import { RulesetDiff, RulesetVersions } from "@levy/core"
import { Console, Effect } from "effect"
import { type Command, UsageError } from "./Args.js"
import * as RulesDiffAccount from "./RulesDiffAccount.js"

type DiffCommand = Extract<Command, { _tag: "RulesDiff" }>

/** The release a command-line version names ("latest" is the current one). */
const releaseOf = (version: string) => {
  const release =
    version === RulesetVersions.LATEST
      ? RulesetVersions.all.find((r) => r.current)
      : RulesetVersions.find(version)
  return release === undefined
    ? Effect.fail(new UsageError({ message: RulesetVersions.unknownMessage(version) }))
    : Effect.succeed(release)
}

const MARK = { added: "+", removed: "-", changed: "~" } as const

const count = (diff: ReadonlyArray<RulesetDiff.JurisdictionDiff>, change: string) =>
  diff.filter((d) => d.change === change).length

/** The diff as text: a summary line, then one block per jurisdiction. */
export const format = (
  from: string,
  to: string,
  diff: ReadonlyArray<RulesetDiff.JurisdictionDiff>
): string => {
  if (diff.length === 0) return `Ruleset ${from} → ${to}: no jurisdiction's rules differ.`
  const lines = [
    `Ruleset ${from} → ${to}: ${diff.length} jurisdictions differ (${count(diff, "added")} added, ${count(diff, "removed")} removed, ${count(diff, "changed")} changed).`
  ]
  for (const d of diff) {
    lines.push("", `${MARK[d.change]} ${d.code} (${d.kind}) ${d.change}`)
    if (d.fields.length > 0) lines.push(`    fields: ${d.fields.join(", ")}`)
    if (d.effectiveDates !== null) {
      const show = (dates: RulesetDiff.Dates) => (dates.length === 0 ? "none" : dates.join("; "))
      lines.push(`    effective dates: ${show(d.effectiveDates.before)}`)
      lines.push(`                  ⇒ ${show(d.effectiveDates.after)}`)
    }
    for (const source of d.sources.added) lines.push(`    + source ${source}`)
    for (const source of d.sources.removed) lines.push(`    - source ${source}`)
  }
  return lines.join("\n")
}

export const run = (command: DiffCommand) =>
  command.account === undefined
    ? diffVersions(command)
    : RulesDiffAccount.run(command, command.account)

const diffVersions = (command: DiffCommand) =>
  Effect.gen(function* () {
    const from = yield* releaseOf(command.from)
    const to = yield* releaseOf(command.to)
    const diff = RulesetDiff.diff(from.ruleset(), to.ruleset())
    yield* Console.log(
      command.json
        ? JSON.stringify({ from: from.version, to: to.version, jurisdictions: diff }, null, 2)
        : format(from.version, to.version, diff)
    )
  })

/** One released version of the ruleset (docs/design.md §3). */
import { RulesetVersion } from "@levy/api"
import { RulesetVersions } from "@levy/core"
import { Effect } from "effect"
import { RulesetNotFound } from "./RulesetNotFound.js"

export const retrieveRuleset = (
  version: string
): Effect.Effect<RulesetVersion.RulesetVersion, RulesetNotFound> => {
  const release = RulesetVersions.find(version)
  return release === undefined
    ? Effect.fail(new RulesetNotFound({ version }))
    : Effect.succeed(RulesetVersion.fromEngine(release))
}

/** The ruleset's released versions, oldest first (docs/design.md §3): few, so one page. */
import { RulesetVersion } from "@levy/api"
import { RulesetVersions } from "@levy/core"

export const listRulesets = (): ReadonlyArray<RulesetVersion.RulesetVersion> =>
  RulesetVersions.all.map(RulesetVersion.fromEngine)

/** No released ruleset version `version` (RulesetVersions lists the known ones). */
import { Data } from "effect"

export class RulesetNotFound extends Data.TaggedError("RulesetNotFound")<{
  readonly version: string
}> {}

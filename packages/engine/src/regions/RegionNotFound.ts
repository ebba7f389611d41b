/** No region `code` in the ruleset (on the day asked, when one is). */
import { Data } from "effect"

export class RegionNotFound extends Data.TaggedError("RegionNotFound")<{
  readonly code: string
}> {}

/**
 * A released version of the ruleset as `GET /v1/rulesets` shows it (`object: "ruleset"`): its
 * semver, release date, whether it is the current one, how many jurisdictions (places) it
 * covers, and its CHANGELOG entry (docs/design.md §3).
 */
import type { RulesetVersions } from "@levy/core"
import { Ruleset } from "@levy/core"
import { Schema } from "effect"

/** A pin on the fee configuration: "latest" or a released version. */
export const Pin = Schema.String.pipe(
  Schema.pattern(/^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$/, {
    message: () => 'must be "latest" or a ruleset version such as "1.1.0" (GET /v1/rulesets)'
  })
).annotations({
  identifier: "RulesetPin",
  description:
    '"latest" (default): follow the current ruleset; or a released version ("1.0.0", GET /v1/rulesets) to keep deciding with it.'
})

/** The `{version}` in `/v1/rulesets/{version}`: any text; an unknown version is a 404. */
export const VersionPath = Schema.Struct({
  version: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))
})

export const RulesetVersion = Schema.Struct({
  object: Schema.Literal("ruleset"),
  version: Schema.String.annotations({ description: "The ruleset's semver version." }),
  released: Schema.NullOr(Schema.String).annotations({
    description: "Release date (ISO); null for a current version not yet released."
  }),
  current: Schema.Boolean.annotations({
    description: 'true for the version "latest" names: the one unpinned accounts follow.'
  }),
  jurisdictions: Schema.Number.annotations({
    description: "Places (countries and subdivisions) the version has rules for."
  }),
  changes: Schema.Array(Schema.String).annotations({
    description:
      "The version's CHANGELOG entry: each change names the jurisdiction, the source and the effective date."
  })
}).annotations({ identifier: "Ruleset" })
export type RulesetVersion = typeof RulesetVersion.Type

/** The engine's release as the wire shows it. */
export const fromEngine = (release: RulesetVersions.Release): RulesetVersion => ({
  object: "ruleset",
  version: release.version,
  released: release.released,
  current: release.current,
  jurisdictions: Ruleset.placeCodes(release.ruleset()).length,
  changes: release.changes
})

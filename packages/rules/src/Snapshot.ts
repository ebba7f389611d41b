/**
 * A released version of the ruleset, kept as it was released (`versions/<semver>.json`):
 * its CHANGELOG entry and every rule the engine decided with, in the engine's rule model
 * (`@levy/core`'s `Rule`, which decodes them). Written at release time by
 * `npx -y pnpm@10 rules:snapshot`; never edited afterwards (docs/design.md §3).
 */
import { Schema } from "effect"

const Semver = Schema.String.pipe(Schema.pattern(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/))

export const Snapshot = Schema.Struct({
  version: Semver,
  released: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/)),
  changes: Schema.Array(Schema.String),
  /** How the snapshot was made, when not by `rules:snapshot` at release (a reconstruction). */
  note: Schema.optional(Schema.String),
  /** The rules, as `@levy/core`'s `Rule` schema reads them. */
  rules: Schema.Array(Schema.Unknown)
})
export type Snapshot = typeof Snapshot.Type

export const decode = Schema.decodeUnknownEither(Snapshot)

/** `a` before `b` in semver order (a pre-release before its release). */
export const compareVersions = (a: string, b: string): number => {
  const parts = (v: string) => {
    const [core = "", pre] = v.split("-", 2)
    return { nums: core.split(".").map(Number), pre }
  }
  const x = parts(a)
  const y = parts(b)
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0)
    if (d !== 0) return d
  }
  if (x.pre === y.pre) return 0
  if (x.pre === undefined) return 1
  if (y.pre === undefined) return -1
  return x.pre < y.pre ? -1 : 1
}

/** The file's text: two-space JSON, one field per line, so a release's diff reads in review. */
export const render = (snapshot: Snapshot): string => `${JSON.stringify(snapshot, null, 2)}\n`

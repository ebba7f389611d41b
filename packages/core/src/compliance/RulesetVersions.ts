/**
 * The released versions of the ruleset (docs/design.md §3): each kept as a snapshot in
 * `@levy/rules/versions`, so an earlier version can be served, diffed and pinned. The current
 * version is the ruleset built from the research (`Ruleset.DEFAULT`); a test holds it equal to
 * its own snapshot, so a version names one set of rules wherever it is answered.
 */
import { Changelog, Snapshot, versionFiles } from "@levy/rules/versions"
import { Either, Schema } from "effect"
import { Rule } from "./Rule.js"
import * as Ruleset from "./Ruleset.js"

/** An account that follows the latest version pins this instead of a semver. */
export const LATEST = "latest"

/** One released version. */
export interface Release {
  readonly version: string
  /** The release date; null for a current version not yet snapshotted (development). */
  readonly released: string | null
  /** Its CHANGELOG entry. */
  readonly changes: ReadonlyArray<string>
  readonly current: boolean
  /** How its snapshot was made, when it is a reconstruction. */
  readonly note: string | undefined
  /** Its rules, built into a ruleset on first use. */
  readonly ruleset: () => Ruleset.Ruleset
}

const decodeRules = Schema.decodeUnknownEither(Schema.Array(Rule))

/** The rules a snapshot file holds; a snapshot that does not decode is a defect naming it. */
export const rulesOf = (file: string, json: unknown): ReadonlyArray<Rule> => {
  const snapshot = Snapshot.decode(json)
  if (Either.isLeft(snapshot)) throw new Error(`Invalid ruleset snapshot versions/${file}`)
  const rules = decodeRules(snapshot.right.rules)
  if (Either.isLeft(rules)) throw new Error(`Invalid rule in versions/${file}: ${rules.left}`)
  return rules.right
}

const once = <A>(make: () => A): (() => A) => {
  let value: { readonly a: A } | undefined
  return () => {
    value ??= { a: make() }
    return value.a
  }
}

/**
 * The releases of these snapshot files, oldest first; `current` (the live ruleset) answers for
 * its own version, and is listed even before its snapshot is written.
 */
export const fromFiles = (
  files: ReadonlyArray<{ readonly file: string; readonly json: unknown }>,
  current: Ruleset.Ruleset
): ReadonlyArray<Release> => {
  const releases: Array<Release> = files.map(({ file, json }) => {
    const snapshot = Either.getOrThrowWith(
      Snapshot.decode(json),
      () => new Error(`Invalid ruleset snapshot versions/${file}`)
    )
    const isCurrent = snapshot.version === current.version
    return {
      version: snapshot.version,
      released: snapshot.released,
      changes: snapshot.changes,
      current: isCurrent,
      note: snapshot.note,
      ruleset: isCurrent
        ? () => current
        : once(() => Ruleset.make(rulesOf(file, json), snapshot.version))
    }
  })
  if (!releases.some((r) => r.current)) {
    releases.push({
      version: current.version,
      released: null,
      changes: [],
      current: true,
      note: undefined,
      ruleset: () => current
    })
  }
  return releases.sort((a, b) => Snapshot.compareVersions(a.version, b.version))
}

/** Every released version of the shipped ruleset, oldest first. */
export const all: ReadonlyArray<Release> = /* @__PURE__ */ fromFiles(versionFiles, Ruleset.DEFAULT)

/** The release of `version` ("1.0.0"), if there is one. */
export const find = (
  version: string,
  releases: ReadonlyArray<Release> = all
): Release | undefined => releases.find((r) => r.version === version)

/** The versions known, oldest first, for an error that lists them. */
export const known = (releases: ReadonlyArray<Release> = all): ReadonlyArray<string> =>
  releases.map((r) => r.version)

/** The ruleset an account's pin names: "latest" (or nothing) is the current one. */
export const resolve = (
  pin: string | null | undefined,
  releases: ReadonlyArray<Release> = all
): Ruleset.Ruleset | undefined =>
  pin === undefined || pin === null || pin === LATEST
    ? Ruleset.DEFAULT
    : find(pin, releases)?.ruleset()

/** Whether two JSON values are equal, whatever the order of their keys. */
export const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => sameJson(x, b[i]))
    )
  }
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  const keys = Object.keys(x)
  return (
    keys.length === Object.keys(y).length &&
    keys.every((k) => Object.hasOwn(y, k) && sameJson(x[k], y[k]))
  )
}

/** The text of an error for an unknown version, listing the known ones. */
export const unknownMessage = (version: string, releases: ReadonlyArray<Release> = all): string =>
  `No ruleset version '${version}'. Known versions: ${known(releases).join(", ")} (or "${LATEST}").`

/**
 * The snapshot to write for `ruleset` at release (`rules:snapshot`), from its CHANGELOG entry;
 * or why not: no entry for its version, or an existing snapshot of that version with other
 * rules (a released version never changes: bump the version instead).
 */
export const snapshotOf = (
  ruleset: Ruleset.Ruleset,
  changelog: string,
  existing: unknown
): Either.Either<Snapshot.Snapshot, string> => {
  const entry = Changelog.entryOf(changelog, ruleset.version)
  if (entry === undefined) {
    return Either.left(
      `packages/rules/CHANGELOG.md has no entry "## ${ruleset.version} — YYYY-MM-DD": write it first (jurisdiction, source, effective date).`
    )
  }
  const rules: ReadonlyArray<unknown> = JSON.parse(JSON.stringify(ruleset.rules))
  const before = existing === undefined ? undefined : Snapshot.decode(existing)
  if (before !== undefined && Either.isRight(before)) {
    if (!sameJson(before.right.rules, rules)) {
      return Either.left(
        `Version ${ruleset.version} was released with other rules: bump the version in packages/rules/package.json, add its CHANGELOG entry and run this again.`
      )
    }
  }
  const note = before !== undefined && Either.isRight(before) ? before.right.note : undefined
  return Either.right({
    version: ruleset.version,
    released: entry.released,
    changes: entry.changes,
    ...(note === undefined ? {} : { note }),
    rules
  })
}

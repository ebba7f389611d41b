/**
 * The changes of the law a server announces (docs/design.md §3 "Changes announced"): the days a
 * rule of a ruleset starts or stops being in force, from today through the lead time; and the
 * release the server now runs in place of the last one a server ran before it.
 */
import { Day, type Ruleset, type RulesetVersions } from "@levy/core"
import type { RulesetRelease } from "@levy/storage"

/** Every day a version of some rule starts or ends, sorted, once per ruleset. */
const boundaries = new WeakMap<Ruleset.Ruleset, ReadonlyArray<number>>()

const boundariesOf = (ruleset: Ruleset.Ruleset): ReadonlyArray<number> => {
  let days = boundaries.get(ruleset)
  if (days === undefined) {
    const found = new Set<number>()
    for (const rule of ruleset.rules) {
      for (const date of [rule.effectiveFrom, rule.effectiveUntil]) {
        const day = date == null ? undefined : Day.fromIso(date)
        if (day !== undefined) found.add(day)
      }
    }
    days = [...found].sort((a, b) => a - b)
    boundaries.set(ruleset, days)
  }
  return days
}

/** The days from `today` through `today + leadDays` on which the ruleset's answers may change. */
export const changeDays = (
  ruleset: Ruleset.Ruleset,
  today: number,
  leadDays: number
): ReadonlyArray<number> =>
  boundariesOf(ruleset).filter((day) => day >= today && day <= today + leadDays)

/** A release the server runs in place of the one before it, and since when. */
export interface ReleaseChange {
  readonly before: RulesetVersions.Release
  readonly after: RulesetVersions.Release
  /** When a server first ran `after` (Unix seconds): accounts made since never had `before`. */
  readonly since: number
}

/**
 * The release change the server's `current` version makes: from the latest release before it
 * that a server ran (`seen`), in release order. None when `current` is not a release (an
 * embedding app's overrides) or no earlier release ran on this store (a new installation).
 */
export const releaseChange = (
  current: string,
  seen: ReadonlyArray<RulesetRelease>,
  releases: ReadonlyArray<RulesetVersions.Release>
): ReleaseChange | undefined => {
  const index = releases.findIndex((r) => r.version === current)
  const since = seen.find((s) => s.version === current)?.firstSeen
  if (index < 0 || since === undefined) return undefined
  const ran = new Set(seen.map((s) => s.version))
  const before = releases
    .slice(0, index)
    .filter((r) => ran.has(r.version))
    .at(-1)
  return before === undefined ? undefined : { before, after: releases[index]!, since }
}

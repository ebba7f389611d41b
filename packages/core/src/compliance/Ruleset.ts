/**
 * A versioned set of rules, indexed for the hot path: every answer names the version
 * that decided it. The shipped ruleset comes from the cited dataset; an account may
 * override or add rules on top.
 */
import { researchFiles, version as rulesVersion } from "@levy/rules"
import { Either, Schema } from "effect"
import source from "../../data/regions.source.json" with { type: "json" }
import * as Day from "./Day.js"
import * as ResearchRules from "./ResearchRules.js"
import { Rule, type Terms } from "./Rule.js"
import * as RulesetSource from "./RulesetSource.js"
import type { SourceDataset } from "./SourceRecord.js"

/** A rule with its in-force window and its terms for every (cardholder, fee type). */
export interface CompiledRule {
  readonly rule: Rule
  readonly fromDay: number
  /** First day out of force; Infinity when the version runs until the next one. */
  readonly untilDay: number
  /** Terms by `variant(cardholder, feeType)`. */
  readonly terms: ReadonlyArray<Terms>
}

/** All versions of one code, oldest first. */
export type Versions = ReadonlyArray<CompiledRule>

/** A ruleset: its version, its rules, and the index the engine reads. */
export interface Ruleset {
  readonly version: string
  readonly rules: ReadonlyArray<Rule>
  /** Place codes → versions. */
  readonly places: ReadonlyMap<string, Versions>
  /** Country → its network rules (each code's versions). */
  readonly networks: ReadonlyMap<string, ReadonlyArray<Versions>>
  /** Country → its channel rules. */
  readonly channels: ReadonlyMap<string, ReadonlyArray<Versions>>
  /** The engine's cache of merged policies for this ruleset (see Compliance). */
  readonly policies: Map<string, unknown>
}

/** Index of the terms for a cardholder and fee type. */
export const variant = (business: boolean, convenienceFee: boolean): number =>
  (business ? 2 : 0) + (convenienceFee ? 1 : 0)

/** A ruleset from rules; versions of one code are ordered by `effectiveFrom`. */
export const make = (rules: ReadonlyArray<Rule>, version: string): Ruleset => {
  const byCode = new Map<string, Array<CompiledRule>>()
  for (const rule of rules) {
    const list = byCode.get(rule.code) ?? []
    list.push(compile(rule))
    byCode.set(rule.code, list)
  }
  const places = new Map<string, Versions>()
  const networks = new Map<string, Array<Versions>>()
  const channels = new Map<string, Array<Versions>>()
  for (const [code, list] of byCode) {
    list.sort((a, b) => a.fromDay - b.fromDay)
    const kind = list[0]!.rule.kind
    if (kind === "place") places.set(code, list)
    else push(kind === "network" ? networks : channels, list[0]!.rule.country, list)
  }
  return { version, rules, places, networks, channels, policies: new Map() }
}

/** `base` with `rules` laid over it: a rule replaces the base version with the same code and date. */
export const override = (base: Ruleset, rules: ReadonlyArray<Rule>, version: string): Ruleset => {
  const key = (r: Rule) => `${r.code}@${r.effectiveFrom ?? ""}`
  const replaced = new Set(rules.map(key))
  return make(
    [...base.rules.filter((r) => !replaced.has(key(r))), ...rules],
    `${base.version}+${version}`
  )
}

/** Rules decoded from untrusted JSON (an account's overrides), or a parse error. */
export const decodeRules = Schema.decodeUnknownEither(Schema.Array(Rule))

/** The ruleset built from the cited research dataset shipped in this package. */
export const fromSource = (dataset: SourceDataset): Ruleset =>
  make(RulesetSource.normalise(dataset), RulesetSource.versionOf(dataset))

/**
 * Legacy codes a research record replaces besides its own: NZ's record scopes its in-store
 * ban by channel, so the separate NZ-INSTORE channel rule goes with the old NZ record.
 */
const REPLACES: Readonly<Record<string, ReadonlyArray<string>>> = { NZ: ["NZ-INSTORE"] }

/**
 * The ruleset of the dataset and the research records (`@levy/rules`): a record replaces
 * every version of the dataset's rule with its code. A record that does not validate throws,
 * naming the file and every reason: a ruleset is never built from a bad record.
 */
export const fromSources = (
  dataset: SourceDataset,
  files: ReadonlyArray<{ readonly file: string; readonly json: unknown }>,
  version: string
): Ruleset => {
  const records = ResearchRules.decodeFiles(files)
  if (Either.isLeft(records)) throw new Error(`Invalid research record ${records.left}`)
  const replaced = new Set(records.right.flatMap((r) => [r.code, ...(REPLACES[r.code] ?? [])]))
  const legacy = RulesetSource.normalise(dataset).filter((rule) => !replaced.has(rule.code))
  return make([...legacy, ...records.right.flatMap(ResearchRules.fromRecord)], version)
}

/** The version of a code in force on `day`, or undefined when none is (yet, or any longer). */
export const inForce = (versions: Versions, day: number): CompiledRule | undefined => {
  let found: CompiledRule | undefined
  for (const v of versions) {
    if (v.fromDay > day) break
    found = v
  }
  return found !== undefined && day < found.untilDay ? found : undefined
}

/** Codes of the places (not network or channel rules), sorted. */
export const placeCodes = (ruleset: Ruleset): ReadonlyArray<string> =>
  [...ruleset.places.keys()].sort()

const compile = (rule: Rule): CompiledRule => {
  const terms = (business: boolean, convenienceFee: boolean): Terms => ({
    ...pickTerms(rule),
    ...(convenienceFee ? rule.convenienceFee : null),
    ...(business ? rule.business : null)
  })
  return {
    rule,
    fromDay:
      rule.effectiveFrom === null
        ? Number.NEGATIVE_INFINITY
        : (Day.fromIso(rule.effectiveFrom) ?? 0),
    untilDay:
      rule.effectiveUntil == null
        ? Number.POSITIVE_INFINITY
        : (Day.fromIso(rule.effectiveUntil) ?? Number.POSITIVE_INFINITY),
    terms: [terms(false, false), terms(false, true), terms(true, false), terms(true, true)]
  }
}

const pickTerms = (rule: Rule): Terms => ({
  status: rule.status,
  cardTypes: rule.cardTypes,
  cardholders: rule.cardholders,
  channels: rule.channels,
  maxPercentage: rule.maxPercentage,
  maxFlatFee: rule.maxFlatFee,
  costOfAcceptanceCap: rule.costOfAcceptanceCap,
  flatOnly: rule.flatOnly,
  recurringAllowed: rule.recurringAllowed,
  requiresDisclosure: rule.requiresDisclosure,
  ...(rule.alternatives == null ? {} : { alternatives: rule.alternatives }),
  ...(rule.standardChannelOnly === undefined
    ? {}
    : { standardChannelOnly: rule.standardChannelOnly })
})

const push = <V>(map: Map<string, Array<V>>, key: string, value: V) => {
  const list = map.get(key) ?? []
  list.push(value)
  map.set(key, list)
}

/** The shipped ruleset: the version of `@levy/rules` that carries it. */
export const DEFAULT: Ruleset = /* @__PURE__ */ fromSources(
  source as SourceDataset,
  researchFiles,
  rulesVersion
)

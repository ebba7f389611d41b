/**
 * A place as the API shows it (the specification's Region plus sources, confidence and
 * effective date): the law in force, with the strictest network rule on top, for a
 * consumer's credit-card surcharge.
 */
import { Either } from "effect"
import * as Rate from "../Rate.js"
import * as Compliance from "./Compliance.js"
import * as Day from "./Day.js"
import type { CardType, Confidence, Rule, RuleStatus } from "./Rule.js"
import * as Ruleset from "./Ruleset.js"

export interface RegionInfo {
  readonly regionCode: string
  readonly country: string
  readonly state: string | null
  readonly status: RuleStatus
  readonly allowedCardTypes: ReadonlyArray<CardType>
  /** Percent; 0 where no fee may be charged. */
  readonly maxPercentage: number
  /** Major units; null for no cap. */
  readonly maxFlatFee: number | null
  readonly requiresDisclosure: boolean
  readonly restrictions: string
  readonly disclosureText: string | null
  readonly sources: ReadonlyArray<string>
  readonly confidence: Confidence
  readonly effectiveFrom: string | null
  readonly rulesetVersion: string
  /** Codes of the rules that apply (place, country, networks). */
  readonly rules: ReadonlyArray<string>
}

const CARD_TYPES: ReadonlyArray<CardType> = ["credit", "debit", "prepaid"]

/** The smallest fee there is (one part per million), to ask whether any fee is allowed. */
const PROBE_PERCENTAGE = Rate.percent("0.0001")

/** The region's information on `date` (default today), or undefined for an unknown code. */
export const describe = (
  ruleset: Ruleset.Ruleset,
  code: string,
  date?: string
): RegionInfo | undefined => {
  const versions = ruleset.places.get(code.toUpperCase())
  const day = date === undefined ? Day.fromMillis(Date.now()) : Day.fromIso(date)
  if (versions === undefined || day === undefined) return undefined
  const current = Ruleset.inForce(versions, day) ?? versions[versions.length - 1]!
  const rule = current.rule
  const probe = (cardType: CardType) =>
    Compliance.check(ruleset, {
      region: rule.code,
      cardType,
      percentage: PROBE_PERCENTAGE,
      flatFee: Rate.NO_FLAT_FEE,
      allowUncertain: true,
      date: Day.toIso(day)
    })
  const verdicts = CARD_TYPES.map((t) => [t, probe(t)] as const)
  const credit = Either.getOrThrow(probe("credit"))
  return {
    regionCode: rule.code,
    country: rule.country,
    state: rule.state,
    status: statusOf(ruleset, rule, day),
    allowedCardTypes: verdicts
      .filter(([, v]) => Either.isRight(v) && v.right.compliant)
      .map(([t]) => t),
    maxPercentage: credit.maxPercentage ?? 100,
    maxFlatFee: rule.maxFlatFee,
    requiresDisclosure: rule.requiresDisclosure,
    restrictions: rule.restrictions,
    disclosureText: rule.disclosureText,
    sources: rule.sources,
    confidence: rule.confidence,
    effectiveFrom: rule.effectiveFrom,
    rulesetVersion: ruleset.version,
    rules: credit.rules
  }
}

/** Every place in the ruleset, by code. */
export const list = (ruleset: Ruleset.Ruleset, date?: string): ReadonlyArray<RegionInfo> =>
  Ruleset.placeCodes(ruleset).flatMap((code) => describe(ruleset, code, date) ?? [])

/** The strictest status of the place and its country. */
const statusOf = (ruleset: Ruleset.Ruleset, rule: Rule, day: number): RuleStatus => {
  const country = rule.code.length > 2 ? ruleset.places.get(rule.country) : undefined
  const parent = country === undefined ? undefined : Ruleset.inForce(country, day)?.rule.status
  const order: ReadonlyArray<RuleStatus> = ["prohibited", "uncertain", "permitted"]
  return order.find((s) => s === rule.status || s === parent) ?? rule.status
}

/** Test rulesets with a made-up ban: the shipped ruleset with one place banned from a day. */
import { type Rule, Ruleset } from "@levy/core"

/** `code`'s rule of today, as a ban from `date` (its scoped clauses dropped: the ban is whole). */
export const banFrom = (code: string, date: string): Rule.Rule => {
  const { clauses: _scoped, ...rule } = Ruleset.DEFAULT.places.get(code)!.at(-1)!.rule
  return {
    ...rule,
    effectiveFrom: date,
    effectiveUntil: null,
    status: "prohibited",
    cardTypes: [],
    maxPercentage: 0,
    alternatives: null,
    business: null,
    convenienceFee: null,
    restrictions: "A ban made up for a test."
  }
}

/** The shipped ruleset with `code` (default US-NY) banned from `date`. */
export const withBan = (date: string, code = "US-NY"): Ruleset.Ruleset =>
  Ruleset.override(Ruleset.DEFAULT, [banFrom(code, date)], "ban")

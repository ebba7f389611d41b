/** Random inputs shared by the engine's property tests: who pays, how and where. */
import fc from "fast-check"
import * as Day from "../src/compliance/Day.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Rate from "../src/Rate.js"

export const PLACES = Ruleset.placeCodes(Ruleset.DEFAULT)

/** Codes that are no place of the ruleset: made up, or a network or channel rule's own code. */
export const UNKNOWN = [
  "XX",
  "US-ZZ",
  "ZZ-ON",
  "US-NETWORK-VISA",
  "NZ-INSTORE",
  "CA-NETWORK-VISA-MASTERCARD"
]

export const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined })

/** Days from 2012 (before any rule) to 2028 (after every dated change), and the change days. */
export const isoDay = fc.oneof(
  fc.integer({ min: Day.fromIso("2012-01-01")!, max: Day.fromIso("2028-12-31")! }).map(Day.toIso),
  fc.constantFrom(
    "2013-01-27",
    "2023-04-14",
    "2023-04-15",
    "2025-10-31",
    "2025-11-01",
    "2026-06-30",
    "2026-07-01"
  )
)

/** A payment's context: a place (sometimes an unknown one), card, channel, fee type and day. */
export const context = fc.record({
  region: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...PLACES) },
    { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN) }
  ),
  cardType: optional(fc.constantFrom("credit" as const, "debit" as const, "prepaid" as const)),
  cardNetwork: optional(
    fc.constantFrom("visa", "mastercard", "amex", "discover", "interac", "unionpay")
  ),
  cardholder: optional(fc.constantFrom("consumer" as const, "business" as const)),
  channel: optional(fc.constantFrom("online" as const, "in_person" as const)),
  feeType: optional(fc.constantFrom("surcharge" as const, "convenience_fee" as const)),
  recurring: optional(fc.boolean()),
  disclosed: optional(fc.boolean()),
  allowUncertain: optional(fc.boolean()),
  costOfAcceptance: optional(fc.integer({ min: 0, max: 60_000 }).map(Rate.partsPerMillion)),
  date: optional(isoDay)
})

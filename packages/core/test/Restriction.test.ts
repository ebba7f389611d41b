/**
 * `Compliance.restrictionsOf` says what the rules of a context do to any fee: the verdict
 * `Compliance.check` gives on a fee of any amount follows from it (blocked, flat-only, the rate
 * cap for the cost of acceptance, the flat cap), for random contexts of the shipped ruleset.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import * as Currency from "../src/Currency.js"
import * as Compliance from "../src/compliance/Compliance.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Rate from "../src/Rate.js"

const R = Ruleset.DEFAULT
const optional = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: undefined })

const context = fc.record({
  region: fc.constantFrom(...Ruleset.placeCodes(R)),
  cardType: optional(fc.constantFrom("credit" as const, "debit" as const, "prepaid" as const)),
  cardholder: optional(fc.constantFrom("consumer" as const, "business" as const)),
  channel: optional(fc.constantFrom("online" as const, "in_person" as const)),
  feeType: optional(fc.constantFrom("surcharge" as const, "convenience_fee" as const)),
  cardNetwork: optional(fc.constantFrom("visa", "amex", "interac", "eftpos")),
  cardIssuingCountry: optional(fc.constantFrom("US", "DE", "AU", "JP")),
  standardChannel: optional(fc.constantFrom("online" as const, "in_person" as const)),
  date: optional(fc.constantFrom("2030-01-01"))
})

describe("Compliance.restrictionsOf", () => {
  it("predicts the verdict on any fee in the context", () => {
    fc.assert(
      fc.property(
        context,
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        fc.constantFrom(undefined, 15_000, 30_000),
        fc.constantFrom("usd", "jpy", "kwd"),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        (ctx, flagsAt, allowUncertain, costOfAcceptance, code, amount, fee, flat) => {
          const unit = Currency.lookup(code)!
          const flags = Compliance.PAYMENT_FLAGS[flagsAt]!
          const found = Compliance.restrictionsOf(R, ctx)
          if (found === undefined || !Array.isArray(found)) throw new Error("a known place")
          const r = (found as ReadonlyArray<Compliance.Restriction>)[flagsAt]!
          const flatPart = Math.min(flat, fee)
          const verdict = Either.getOrThrow(
            Compliance.check(R, {
              ...ctx,
              ...flags,
              allowUncertain,
              costOfAcceptance:
                costOfAcceptance === undefined ? undefined : Rate.partsPerMillion(costOfAcceptance),
              percentage: Rate.ZERO_PERCENT,
              flatFee: Rate.NO_FLAT_FEE,
              amount,
              unit,
              currency: code,
              fee,
              flatPart
            })
          )
          const none = r.blocked || (r.uncertain && !allowUncertain)
          const cap = r.rateCap(costOfAcceptance)
          const flatCap = Compliance.flatCapIn(r.flatCap, unit)
          expect(verdict.maxPercentage).toBe(
            none ? 0 : cap === Number.POSITIVE_INFINITY ? null : Rate.percentageToNumber(cap)
          )
          if (none) expect(verdict.maxFee).toBe(0)
          const compliant =
            fee === 0 ||
            (!none &&
              !(r.flatOnly && fee > flatPart) &&
              (flatCap === null || flatPart <= flatCap) &&
              (cap === Number.POSITIVE_INFINITY || fee * Rate.PPM <= amount * cap))
          expect(verdict.compliant).toBe(compliant)
        }
      ),
      { numRuns: 2_000 }
    )
  })

  it("is undefined for a place the ruleset does not know", () => {
    expect(Compliance.restrictionsOf(R, { region: "ZZ" })).toBe(undefined)
  })
})

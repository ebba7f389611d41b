/**
 * Network parity (research field `networkParity`): American Express's US rule that a surcharge
 * on its cards be "not ... any higher than any surcharge imposed on transactions effected with
 * any other Credit Card" (the class settlement's terms as a processor quotes them; research
 * record US-NETWORK-AMEX). The account's configuration is one fee for every network, lowered per
 * card by the rules; so an Amex card's fee is bound by every other US network's rule as it
 * stands for the same payment, and the verdict says through which rule.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import * as Compliance from "../src/compliance/Compliance.js"
import * as ResearchRules from "../src/compliance/ResearchRules.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Decimal from "../src/Decimal.js"
import * as Rate from "../src/Rate.js"
import * as Rounding from "../src/Rounding.js"
import { on100, pct, today } from "./lawCases.js"

const amex = { cardNetwork: "amex" }
const PARITY = "through rule US-NETWORK-AMEX"

describe("American Express in the US: no higher than the other networks' cards", () => {
  it("today Visa's 3 % binds an Amex card ('lowered from 4% to 3%' from 2023-04-15), named as Visa's through Amex's parity", () => {
    expect(on100("US-AL", 300, today, amex).compliant).toBe(true)
    const over = on100("US-AL", 301, today, amex)
    expect(over.reasonCode).toBe("network_cap_exceeded")
    expect(over.reason).toContain("rule US-NETWORK-VISA")
    expect(over.reason).toContain(PARITY)
    expect(over.maxFee).toBe(300)
    expect(over.rules).toEqual(
      expect.arrayContaining(["US-NETWORK-AMEX", "US-NETWORK-VISA", "US-NETWORK-MASTERCARD"])
    )
  })

  it("from 2013-01-27 to 2023-04-14 Visa's cap was 4 %, so an Amex card's was too (the dataset's fixed 3 % was wrong then)", () => {
    expect(on100("US-AL", 400, "2020-06-01", amex).compliant).toBe(true)
    expect(on100("US-AL", 401, "2020-06-01", amex).reasonCode).toBe("network_cap_exceeded")
    expect(on100("US-AL", 400, "2023-04-15", amex).reasonCode).toBe("network_cap_exceeded")
  })

  it("before 2013-01-27 Visa and Mastercard barred surcharges, so no surcharge on Amex was 'no higher'", () => {
    const before = on100("US-AL", 100, "2013-01-26", amex)
    expect(before.reasonCode).toBe("fees_prohibited")
    expect(before.reason).toContain(PARITY)
    expect(before.maxFee).toBe(0)
  })

  it("the merchant's cost of acceptance still caps it, and a Visa card's own verdict does not mention parity", () => {
    const cost = { costOfAcceptance: pct("2.5") }
    expect(on100("US-AL", 251, today, { ...amex, ...cost }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
    const visa = on100("US-AL", 301, today, { cardNetwork: "visa" })
    expect(visa.reason).not.toContain(PARITY)
    expect(visa.rules).not.toContain("US-NETWORK-AMEX")
  })

  it("an Amex card where no network rule asks for parity (Canada) is not bound by it", () => {
    const ca = on100("CA-ON", 240, today, amex)
    expect(ca.reason ?? "").not.toContain("parity")
  })
})

/** A made-up place whose law caps four-party cards at 1 % and leaves three-party ones alone. */
const record = (code: string, kind: string, rules: ReadonlyArray<object>) => ({
  file: `${code}.json`,
  json: {
    code,
    kind,
    name: code,
    currency: "usd",
    checkedOn: "2026-12-01",
    versions: [
      {
        effectiveFrom: "1900-01-01",
        effectiveUntil: null,
        confidence: "low",
        rules: rules.map((rule) => ({
          limit: null,
          alternatives: null,
          standardChannelOnly: false,
          requiresDisclosure: false,
          notes: "",
          ...rule
        })),
        sources: [{ url: "https://example.org/", title: "made up", kind: "secondary", quote: "-" }],
        notes: ""
      }
    ]
  }
})
const cap = (percent: string) => ({
  maxPercentage: percent,
  maxFlatFee: null,
  costOfAcceptance: false
})
const madeUp = Ruleset.make(
  Either.getOrThrow(
    ResearchRules.decodeFiles([
      record("ZZ", "place", [
        { scope: {}, status: "permitted" },
        { scope: { schemes: ["four_party"] }, status: "permitted", limit: cap("1") }
      ]),
      record("ZZ-NETWORK-VISA", "network", [
        { scope: { networks: ["visa"] }, status: "permitted", limit: cap("5") }
      ]),
      record("ZZ-NETWORK-AMEX", "network", [
        { scope: { networks: ["amex"] }, status: "permitted", networkParity: true }
      ])
    ])
  ).flatMap(ResearchRules.fromRecord),
  "test"
)

describe("parity judges the other network's card under the place's law for its own scheme", () => {
  it("a three-party card the law leaves alone is held to the 1 % the law sets for a Visa card", () => {
    const check = (cardNetwork: string, fee: number) =>
      Either.getOrThrow(
        Compliance.check(madeUp, {
          region: "ZZ",
          cardNetwork,
          cardType: "credit",
          amount: 10_000,
          fee,
          flatPart: 0,
          percentage: Rate.partsPerMillion(0),
          flatFee: Rate.flatFromDecimal(Decimal.ZERO)
        })
      )
    expect(check("visa", 101).reasonCode).toBe("percentage_over_limit")
    expect(check("amex", 100).compliant).toBe(true)
    const over = check("amex", 101)
    expect(over.reasonCode).toBe("percentage_over_limit")
    expect(over.reason).toBe(
      "The fee is above 1% of the amount, the maximum under the law of ZZ (for another network's comparable card, which binds this one through rule ZZ-NETWORK-AMEX: a fee no higher than on other networks' cards)."
    )
  })
})

const R = Ruleset.DEFAULT
const OTHERS = ["visa", "mastercard", "discover"] as const
const PLACES = ["US", "US-AL", "US-NY", "US-CO", "US-CT", "US-MN", "US-UT", "US-TX"]

describe("network parity (property)", () => {
  it("the fee the engine leaves on an Amex card is never above the fee it leaves on another network's comparable card with the same configuration", () => {
    fc.assert(
      fc.property(
        fc.record({
          region: fc.constantFrom(...PLACES),
          date: fc.constantFrom("2012-06-01", "2013-06-01", "2020-01-01", "2023-04-15", today),
          cardType: fc.constantFrom("credit" as const, "debit" as const, "prepaid" as const),
          cardholder: fc.constantFrom("consumer" as const, "business" as const),
          channel: fc.constantFrom("online" as const, "in_person" as const),
          allowUncertain: fc.boolean(),
          costOfAcceptance: fc.option(
            fc.integer({ min: 0, max: 60_000 }).map(Rate.partsPerMillion),
            {
              nil: undefined
            }
          ),
          amount: fc.integer({ min: 50, max: 3_000_000 }),
          percentage: fc.integer({ min: 0, max: 80_000 })
        }),
        ({ percentage, amount, ...ctx }) => {
          const fee = Rounding.mulDivDown(amount, percentage, Rate.PPM)
          const on = (cardNetwork: string) =>
            Either.getOrThrow(
              Compliance.adjustToCompliant(R, {
                ...ctx,
                cardNetwork,
                amount,
                fee,
                flatPart: 0,
                percentage: Rate.partsPerMillion(percentage),
                flatFee: Rate.flatFromDecimal(Decimal.ZERO)
              })
            ).fee
          const amexFee = on("amex")
          for (const other of OTHERS) expect(amexFee).toBeLessThanOrEqual(on(other))
        }
      ),
      { numRuns: 300 }
    )
  })
})

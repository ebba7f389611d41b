/**
 * Conditions on the merchant's category (a clause's `scope.merchantCategories`, ISO 18245 codes
 * that the account states as `merchantCategoryCode`). Texas: "This section does not apply to: (1)
 * a state agency, county, local governmental entity, or other governmental entity that accepts a
 * credit card for the payment of fees, taxes, or other charges" (§ 604A.0021(b), and § 604A.002(b)
 * for debit and stored-value cards). British Columbia's Passenger Transportation Board: "The new
 * rules prohibits licensees from charging a credit card surcharge to passengers for credit card
 * payment" (2023-10). Research records US-TX and CA-BC.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import * as Clauses from "../src/compliance/Clauses.js"
import * as Compliance from "../src/compliance/Compliance.js"
import type { Clause, RuleStatus, Terms } from "../src/compliance/Rule.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Rate from "../src/Rate.js"
import { on100 } from "./lawCases.js"
import { CREDIT_ONLINE } from "./support.js"

const day = "2026-12-02"

const payment = CREDIT_ONLINE
const tax = { merchantCategoryCode: "9311", cardNetwork: "visa" }

describe("Texas: the governmental-entity exemptions of §§ 604A.0021(b)(1) and 604A.002(b)(1)", () => {
  it("a merchant stating no category, or another one, meets the credit-card ban as before: legal uncertainty", () => {
    expect(on100("US-TX", 100, day, { cardNetwork: "visa" }).reasonCode).toBe("legal_uncertainty")
    const restaurant = { cardNetwork: "visa", merchantCategoryCode: "5812" }
    expect(on100("US-TX", 100, day, restaurant).reasonCode).toBe("legal_uncertainty")
  })

  it("a tax office (9311) may surcharge a credit card, Visa's 3 % cap still binding", () => {
    expect(on100("US-TX", 300, day, tax).compliant).toBe(true)
    expect(on100("US-TX", 301, day, tax).reasonCode).toBe("network_cap_exceeded")
  })

  it("and a debit card too (§ 604A.002(b)(1)) under Texas's own rule, though federal law still bars it", () => {
    const texas = Ruleset.DEFAULT.rules.find((r) => r.code === "US-TX" && r.effectiveUntil == null)!
    const debit = (merchantCategory: string | undefined) =>
      Clauses.resolve(texas.clauses!, { ...payment, cardType: "debit", merchantCategory }).terms
    expect(debit("9311").cardTypes).toContain("debit")
    expect(debit(undefined).cardTypes).not.toContain("debit")
    // The US record bars debit-card fees for every merchant alike.
    const verdict = on100("US-TX", 100, day, { ...tax, cardType: "debit" })
    expect([verdict.reasonCode, verdict.rules.includes("US")]).toStrictEqual([
      "card_type_not_allowed",
      true
    ])
  })

  it("the exemption rests on the legislature's own text: H.B. 1881's bill analysis, cited as statute", () => {
    // "whereas public schools currently have methods in place for passing along those fees"
    const texas = Ruleset.DEFAULT.rules.find((r) => r.code === "US-TX" && r.effectiveUntil == null)!
    const analysis = texas.citations?.find((c) => c.url.includes("capitol.texas.gov/tlodocs/84R"))
    expect(analysis?.kind).toBe("statute")
    expect(analysis?.quote).toContain("public schools currently have methods in place")
  })

  it("every government code of the record is exempt, a surety's bail bond (9223) is not", () => {
    for (const code of ["9211", "9222", "9311", "9399", "9402", "9405"]) {
      const verdict = on100("US-TX", 100, day, { cardNetwork: "visa", merchantCategoryCode: code })
      expect([code, verdict.compliant]).toStrictEqual([code, true])
    }
    const surety = { cardNetwork: "visa", merchantCategoryCode: "9223" }
    expect(on100("US-TX", 100, day, surety).reasonCode).toBe("legal_uncertainty")
  })
})

describe("British Columbia: the Passenger Transportation Board's ban for taxis and ride-hailing (4121)", () => {
  it("from 2023-10-18 a taxi may charge no card fee, and the reason says why it differs", () => {
    const taxi = on100("CA-BC", 100, day, { cardNetwork: "visa", merchantCategoryCode: "4121" })
    expect(taxi.reasonCode).toBe("fees_prohibited")
    expect(taxi.reason).toContain("British Columbia (CA-BC), for a merchant of category 4121")
  })

  it("before that day, and for every other merchant, the networks' 2.4 % cap is all that binds", () => {
    const before = { cardNetwork: "visa", merchantCategoryCode: "4121" }
    expect(on100("CA-BC", 240, "2023-10-17", before).compliant).toBe(true)
    expect(on100("CA-BC", 240, day, { cardNetwork: "visa" }).compliant).toBe(true)
    expect(on100("CA-BC", 241, day, { cardNetwork: "visa" }).reasonCode).toBe(
      "network_cap_exceeded"
    )
  })
})

describe("merchantCategoryCode is four digits", () => {
  it.each(["931", "93111", "ab12", " 9311", ""])("%j is refused, naming the field", (code) => {
    const refused = Compliance.check(Ruleset.DEFAULT, {
      region: "US-TX",
      percentage: Rate.percent("1"),
      flatFee: Rate.NO_FLAT_FEE,
      merchantCategoryCode: code
    })
    expect(Either.isLeft(refused) && refused.left.param).toBe("merchantCategoryCode")
  })
})

// ---- the resolution, over arbitrary clauses -----------------------------------

const terms = (status: RuleStatus, maxPercentage: number | null): Terms => ({
  ...Clauses.UNCERTAIN,
  status,
  maxPercentage
})
const STATUSES: ReadonlyArray<RuleStatus> = ["permitted", "uncertain", "prohibited"]
const category = fc.constantFrom("4121", "5812", "9311", "9399")
const clause: fc.Arbitrary<Clause> = fc.record({
  scope: fc.record(
    {
      merchantCategories: fc.uniqueArray(category, { minLength: 1, maxLength: 2 }),
      cardTypes: fc.constantFrom(["credit" as const], ["debit" as const])
    },
    { requiredKeys: [] }
  ),
  terms: fc
    .tuple(fc.constantFrom(...STATUSES), fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }))
    .map(([status, cap]) => terms(status, cap))
})

const resolve = (clauses: ReadonlyArray<Clause>, merchantCategory: string | undefined) =>
  Clauses.resolve(clauses, { ...payment, merchantCategory })

/** The clauses as they stand for a merchant of `code`: the category condition met or dropped. */
const forCategory = (clauses: ReadonlyArray<Clause>, code: string | undefined) =>
  clauses.flatMap(({ scope: { merchantCategories, ...rest }, terms }) => {
    if (merchantCategories === undefined) return [{ scope: rest, terms, met: 0 }]
    return code !== undefined && merchantCategories.includes(code)
      ? [{ scope: rest, terms, met: 1 }]
      : []
  })

describe("a category condition is one more scope field, met only by the category it names", () => {
  it("the terms are those of the most specific clause the merchant's category meets", () => {
    fc.assert(
      fc.property(
        fc.array(clause, { minLength: 1, maxLength: 5 }),
        fc.option(category, { nil: undefined }),
        (clauses, code) => {
          // The oracle: drop the clauses the category misses; of the rest, count a met condition
          // as one more field and take the first of the most specific.
          const left = forCategory(clauses, code)
          const specificity = (c: (typeof left)[number]) => Object.keys(c.scope).length + c.met
          const matching = left.filter(
            (c) => c.scope.cardTypes === undefined || c.scope.cardTypes.includes("credit")
          )
          const best = matching.reduce<(typeof left)[number] | undefined>(
            (b, c) => (b === undefined || specificity(c) > specificity(b) ? c : b),
            undefined
          )
          const got = resolve(clauses, code).terms
          if (best === undefined) expect(got.status).toBe("uncertain")
          else if (best.terms.status === "prohibited") {
            // A clause that bans credit: credit is not an allowed card type.
            expect(got.cardTypes.includes("credit")).toBe(false)
          } else {
            expect(got.status).toBe(best.terms.status)
            expect(got.maxPercentage).toBe(best.terms.maxPercentage)
          }
        }
      )
    )
  })

  it("a merchant stating no category is judged as one whose category no clause names", () => {
    fc.assert(
      fc.property(fc.array(clause, { minLength: 1, maxLength: 5 }), (clauses) => {
        expect(resolve(clauses, undefined)).toStrictEqual(resolve(clauses, "0000"))
      })
    )
  })
})

/**
 * Public bodies' own card fees, modelled by merchant category (the government codes of US-TX:
 * 9211, 9222, 9311, 9399, 9402, 9405), re-checked 2026-12-02. New Mexico: "A state agency or
 * local governing body may charge a uniform convenience fee to cover the [exact] fees imposed by
 * the financial institution for the cost of processing a credit card or electronic transfer
 * transaction" (SB 132 of 2011, nmlegis.gov, amending NMSA § 6-10-1.2). Mississippi: card fees on
 * payments to counties, municipalities and state agencies "shall be assessed to the user ... so
 * that the user will pay the full cost of using the electronic payment" (HB 1326 of 2013,
 * billstatus.ls.state.ms.us, amending §§ 17-25-1 and 27-104-33), and a county or municipality
 * shall not "charge the user any additional amount above the processing fee on each transaction"
 * (§ 17-25-1 as SB 2011 of 2019 quotes it). Both are a cap at the cost of acceptance, which the
 * card networks' records already put on every merchant's surcharge: the verdicts agree with and
 * without a category, and the clauses themselves show the state's own term.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Clauses from "../src/compliance/Clauses.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import { on100, pct } from "./lawCases.js"
import { CREDIT_ONLINE } from "./support.js"

const day = "2026-12-02"
const GOVERNMENT = ["9211", "9222", "9311", "9399", "9402", "9405"]

/** The rule of `code` in force on `date`. */
const ruleOn = (code: string, date: string) =>
  Ruleset.DEFAULT.rules.find(
    (r) =>
      r.code === code &&
      (r.effectiveFrom ?? "0000-00-00") <= date &&
      (r.effectiveUntil == null || date < r.effectiveUntil)
  )!

/** The state's own terms, on `date`, for a credit card surcharge by a merchant of `category`. */
const stateTerms = (code: string, date: string, category: string | undefined) =>
  Clauses.resolve(ruleOn(code, date).clauses!, { ...CREDIT_ONLINE, merchantCategory: category })
    .terms

/** Every government category meets the state's own terms: permitted, at most the cost. */
const expectGovernmentCostCap = (code: string) => {
  for (const category of GOVERNMENT) {
    const terms = stateTerms(code, day, category)
    expect([category, terms.status, terms.costOfAcceptanceCap]).toStrictEqual([
      category,
      "permitted",
      true
    ])
  }
}

/** A credit-card surcharge of `fee` on 100.00 with a cost of acceptance of 2.5 %. */
const atCost = (code: string, fee: number, category?: string) =>
  on100(code, fee, day, {
    cardNetwork: "visa",
    costOfAcceptance: pct("2.5"),
    ...(category === undefined ? {} : { merchantCategoryCode: category })
  })

describe("New Mexico: NMSA § 6-10-1.2(B), a convenience fee 'to cover' the processing fees", () => {
  it("for every government category the state's own rule caps the fee at the cost of acceptance", () => {
    // "may charge a uniform convenience fee to cover the [exact] fees imposed by the financial
    // institution for the cost of processing a credit card or electronic transfer transaction".
    expectGovernmentCostCap("US-NM")
  })

  it("a merchant stating no category, or a restaurant (5812), has no state cap, as before", () => {
    expect(stateTerms("US-NM", day, undefined).costOfAcceptanceCap).toBe(false)
    expect(stateTerms("US-NM", day, "5812").costOfAcceptanceCap).toBe(false)
  })

  it("from 2010-05-19, when subsection B was added; before it no clause names a category", () => {
    // The 2010 amendment's date is read in a copy's annotation; SB 132 (2011) amends a
    // subsection B already in the law.
    expect(stateTerms("US-NM", "2010-05-19", "9311").costOfAcceptanceCap).toBe(true)
    expect(stateTerms("US-NM", "2010-05-18", "9311").costOfAcceptanceCap).toBe(false)
    const before = ruleOn("US-NM", "2010-05-18").clauses!
    expect(before.some((c) => c.scope.merchantCategories !== undefined)).toBe(false)
  })

  it("a tax office's surcharge at its cost passes, one cent over is refused", () => {
    expect(atCost("US-NM", 250, "9311").compliant).toBe(true)
    expect(atCost("US-NM", 251, "9311").reasonCode).toBe("over_cost_of_acceptance")
  })

  it("the record cites SB 132 on the legislature's site as a statute", () => {
    const cited = ruleOn("US-NM", day).citations?.find((c) => c.url.includes("nmlegis.gov"))
    expect(cited?.kind).toBe("statute")
  })
})

describe("Mississippi: §§ 17-25-1 and 27-104-33, the user pays 'the full cost' and no more", () => {
  it("for every government category the state's own rule caps the fee at the cost of acceptance", () => {
    // "so that the user will pay the full cost of using the electronic payment"; "shall not ...
    // charge the user any additional amount above the processing fee on each transaction".
    expectGovernmentCostCap("US-MS")
  })

  it("a merchant stating no category, or a surety's bail bond (9223), has no state cap", () => {
    expect(stateTerms("US-MS", day, undefined).costOfAcceptanceCap).toBe(false)
    expect(stateTerms("US-MS", day, "9223").costOfAcceptanceCap).toBe(false)
  })

  it("a court's (9211) surcharge at its cost passes, one cent over is refused", () => {
    expect(atCost("US-MS", 250, "9211").compliant).toBe(true)
    expect(atCost("US-MS", 251, "9211").reasonCode).toBe("over_cost_of_acceptance")
  })

  it("the record cites the Legislature's bill texts as statutes, and only those", () => {
    const hosts = (ruleOn("US-MS", day).citations ?? [])
      .filter((c) => c.kind !== "secondary")
      .map((c) => new URL(c.url).hostname)
    expect(new Set(hosts)).toStrictEqual(new Set(["billstatus.ls.state.ms.us"]))
  })

  it("for other merchants the rule still rests on no statute: low, the networks' 3 % binds", () => {
    // The bill texts govern counties, municipalities and state agencies, not private sellers.
    const visa = { cardNetwork: "visa" }
    expect(ruleOn("US-MS", day).confidence).toBe("low")
    expect(on100("US-MS", 300, day, visa).compliant).toBe(true)
    expect(on100("US-MS", 301, day, visa).reasonCode).toBe("network_cap_exceeded")
  })
})

describe("the networks already cap every merchant's surcharge at cost", () => {
  it.each(["US-NM", "US-MS"])(
    "%s: the verdicts agree with and without a government category",
    (code) => {
      for (const fee of [250, 251]) {
        expect(atCost(code, fee, "9399").reasonCode).toBe(atCost(code, fee).reasonCode)
      }
    }
  )
})

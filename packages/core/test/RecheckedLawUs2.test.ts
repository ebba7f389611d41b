/**
 * The US states recorded as permitted on secondary sources, re-checked on 2026-12-02 for a
 * primary source (issue 29, item 3). Where one was read it bears on a public body's fee or on a
 * bill, not on private sellers: the rules stay as they were and low, and these cases pin both the
 * citation and the verdicts it must not have changed. The passage each rests on is quoted beside it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Ruleset from "../src/compliance/Ruleset.js"
import { on100 } from "./lawCases.js"

const day = "2026-12-02"
const visa = { cardNetwork: "visa" }
const mastercard = { cardNetwork: "mastercard" }

/** The rule of `code` in force on `day`. */
const inForce = (code: string) =>
  Ruleset.DEFAULT.rules.find(
    (r) =>
      r.code === code &&
      (r.effectiveFrom === null || r.effectiveFrom <= day) &&
      (r.effectiveUntil === undefined || r.effectiveUntil === null || r.effectiveUntil > day)
  )!

/** The citation of today's rule of `code` on `host`. */
const citedFrom = (code: string, host: string) =>
  inForce(code).citations?.find((c) => new URL(c.url).hostname === host)

/** `code` cites the legislature's text on `host`, quoting `words`, and stays low confidence. */
const citesStatuteAndStaysLow = (code: string, host: string, words: string) => {
  const cited = citedFrom(code, host)
  expect(cited?.kind, code).toBe("statute")
  expect(cited?.quote, code).toContain(words)
  expect(inForce(code).confidence, code).toBe("low")
}

describe("US-MT: the legislature's own texts show the 3 % is a local government's fee", () => {
  it("SB 163 (2003) and MCA § 30-14-228 are cited as statute; the rule stays low", () => {
    // SB 163: "AN ACT ALLOWING THE PAYMENT OF TAXES AND FEES TO LOCAL GOVERNMENT ENTITIES BY
    // CREDIT CARD"; § 30-14-228(2)(a): it "applies to a retail establishment only if the
    // establishment has an individual accepting payment in person".
    citesStatuteAndStaysLow("US-MT", "leg.mt.gov", "LOCAL GOVERNMENT ENTITIES")
    citesStatuteAndStaysLow("US-MT", "www.leg.mt.gov", "accepting payment in person")
  })

  it("a merchant's 3.5 % Mastercard surcharge is not held to the local governments' 3 %", () => {
    expect(on100("US-MT", 350, day, mastercard).compliant).toBe(true)
    expect(on100("US-MT", 400, day, mastercard).compliant).toBe(true)
    expect(on100("US-MT", 401, day, mastercard).reasonCode).toBe("network_cap_exceeded")
  })
})

describe("US-OH: R.C. § 113.40 governs what is owed to the state", () => {
  it("codes.ohio.gov is cited as statute; the rule stays low", () => {
    // § 113.40(A)(4): "Revenue" is "any other amount a person owes to a state office ... or to a
    // state entity".
    citesStatuteAndStaysLow("US-OH", "codes.ohio.gov", "owes to a state office")
  })

  it("a private seller's surcharge: the networks' caps and disclosure, no state notice rule", () => {
    expect(on100("US-OH", 400, day, mastercard).compliant).toBe(true)
    expect(on100("US-OH", 401, day, mastercard).reasonCode).toBe("network_cap_exceeded")
    expect(on100("US-OH", 300, day, { ...visa, disclosed: false }).reasonCode).toBe(
      "disclosure_required"
    )
  })
})

describe("US-NM: NMSA § 6-10-1.2's convenience fee is a public body's", () => {
  it("SB 132 (2011) on nmlegis.gov is cited as statute; the rule stays low", () => {
    // SB 132: "A state agency or local governing body may charge a uniform convenience fee".
    citesStatuteAndStaysLow("US-NM", "nmlegis.gov", "state agency or local governing body")
  })

  it("a merchant's credit surcharge is bound only by the networks", () => {
    expect(on100("US-NM", 300, day, visa).compliant).toBe(true)
    expect(on100("US-NM", 301, day, visa).reasonCode).toBe("network_cap_exceeded")
  })
})

describe("US-RI: H 5213 (2013), the ban bill, stayed in House Corporations", () => {
  it("the bill's own text is cited as statute; the rule stays low", () => {
    // H 5213 § 6-26.2-1: the intent "to ... protect consumers ... by prohibiting credit card
    // surcharges"; "Referred To: House Corporations".
    citesStatuteAndStaysLow(
      "US-RI",
      "webserver.rilegislature.gov",
      "by prohibiting credit card surcharges"
    )
  })

  it("a surcharge is not prohibited, and is refused undisclosed", () => {
    expect(on100("US-RI", 300, day, visa).compliant).toBe(true)
    expect(on100("US-RI", 300, day, { ...visa, disclosed: false }).reasonCode).toBe(
      "disclosure_required"
    )
  })
})

describe("US-SC: H. 4613 (2025-2026) binds processors, not merchants", () => {
  it("the bill on scstatehouse.gov is cited as statute; the rule stays low", () => {
    // H. 4613: "A credit card payment processor may not charge a swipe fee on the sales tax
    // portion of any retail transaction."
    citesStatuteAndStaysLow(
      "US-SC",
      "www.scstatehouse.gov",
      "credit card payment processor may not charge a swipe fee"
    )
  })

  it("a merchant's credit surcharge is bound only by the networks; debit is refused", () => {
    expect(on100("US-SC", 300, day, visa).compliant).toBe(true)
    expect(on100("US-SC", 301, day, visa).reasonCode).toBe("network_cap_exceeded")
    expect(on100("US-SC", 100, day, { cardType: "debit" }).reasonCode).toBe("card_type_not_allowed")
  })
})

/**
 * The law of nineteen US jurisdictions (AK to MT) as re-checked in 2026-11 (group
 * lawa): each research record that replaced a dataset record, against cited cases. The source
 * each expectation rests on is quoted beside it; the record's own `sources` carry the URLs.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Ruleset from "../src/compliance/Ruleset.js"
import { on100, pct, today } from "./lawCases.js"

const visa = { cardNetwork: "visa" }
const mastercard = { cardNetwork: "mastercard" }
/** A flat 1.00 convenience fee on 100.00 through Visa's convenience-fee rule. */
const convenience = { ...visa, feeType: "convenience_fee" as const, flatPart: 100 }

describe("US-FL: § 501.0117, then Dana's Railroad Supply (11th Cir. 2015-11-04)", () => {
  it("before 2015-11-04 a credit-card surcharge was a misdemeanour", () => {
    // § 501.0117(1): a seller "may not impose a surcharge on the buyer or lessee for electing to
    // use a credit card in lieu of payment by cash, check, or similar means".
    const verdict = on100("US-FL", 100, "2015-11-03", visa)
    expect(verdict.reasonCode).toBe("card_type_not_allowed")
    expect(verdict.reason).toContain("Florida")
  })

  it("before 2015-11-04 a convenience fee on a credit card was caught too", () => {
    // § 501.0117(1): a surcharge "is any additional amount imposed at the time of a sale ... for
    // the privilege of using a credit card"; only certain schools' convenience fees are exempt.
    expect(on100("US-FL", 100, "2015-11-03", convenience).reasonCode).toBe("card_type_not_allowed")
  })

  it("from 2015-11-04 allowed, with no state cap: Visa's 3 % binds", () => {
    // Justia: the court "must strike down section 501.0117 as an unconstitutional abridgment of
    // free speech".
    expect(on100("US-FL", 300, "2015-11-04", visa).compliant).toBe(true)
    expect(on100("US-FL", 300, today, visa).compliant).toBe(true)
    expect(on100("US-FL", 301, today, visa).reasonCode).toBe("network_cap_exceeded")
  })

  it("debit stays refused under the networks' rules (the statute never reached debit)", () => {
    expect(on100("US-FL", 100, today, { cardType: "debit" }).reasonCode).toBe(
      "card_type_not_allowed"
    )
  })
})

describe("US-LA: SB 254 (Act 751, La. R.S. 51:3081), debit fees banned from 2026-08-01", () => {
  it("a convenience fee on a debit card: allowed the day before, refused from the date", () => {
    // act751.com: it "prohibits charging a customer an extra amount for paying with a debit card";
    // Decision Depot: "scheduled to become effective on August 1, 2026".
    const debit = { ...convenience, cardType: "debit" as const }
    expect(on100("US-LA", 100, "2026-07-31", debit).compliant).toBe(true)
    const after = on100("US-LA", 100, "2026-08-01", debit)
    expect(after.reasonCode).toBe("card_type_not_allowed")
    expect(after.reason).toContain("Louisiana")
  })

  it("credit cards are untouched: a 3 % Visa surcharge is compliant before and after", () => {
    // Press-Herald: the act "does not change existing rules regarding credit card surcharges".
    expect(on100("US-LA", 300, "2026-07-31", visa).compliant).toBe(true)
    expect(on100("US-LA", 300, today, visa).compliant).toBe(true)
    expect(on100("US-LA", 301, today, visa).reasonCode).toBe("network_cap_exceeded")
  })
})

describe("US-GA: § 13-1-15 governs lenders' convenience fees, not retail surcharges", () => {
  it("a credit-card surcharge within the networks' caps is compliant", () => {
    // § 13-1-15(e): "This Code section shall apply only to loans made pursuant to Chapter 1 of
    // Title 7, installment loans made pursuant to Chapter 3 of Title 7" (and credit-sale contracts).
    expect(on100("US-GA", 300, today, visa).compliant).toBe(true)
    expect(on100("US-GA", 301, today, visa).reasonCode).toBe("network_cap_exceeded")
  })

  it("HB 726 (2025; surcharges at most cost) is a bill: Mastercard's own cost cap still binds", () => {
    const cost = { ...mastercard, costOfAcceptance: pct("2.5") }
    expect(on100("US-GA", 250, today, cost).compliant).toBe(true)
    expect(on100("US-GA", 251, today, cost).reasonCode).toBe("over_cost_of_acceptance")
  })
})

describe("US-DC: disclosure, no cap", () => {
  it("an undisclosed surcharge is refused (D.C. Code § 26-131.08; the Attorney General's fee alert)", () => {
    // § 26-131.08: no surcharge "unless the surcharge is clearly disclosed to the person before the
    // surcharge is incurred".
    expect(on100("US-DC", 300, today, visa).compliant).toBe(true)
    expect(on100("US-DC", 300, today, { ...visa, disclosed: false }).reasonCode).toBe(
      "disclosure_required"
    )
  })
})

describe("US-MT: § 7-6-617's 3 % governs local governments, not merchants", () => {
  it("a 3.5 % Mastercard surcharge within cost is compliant (Mastercard's 4 % binds, no state cap)", () => {
    // § 7-6-617(3)(a): "A person who makes payments to a local government entity ... may be
    // required to pay a convenience fee of up to 3%". Processors' 3 % cap for merchants: not found.
    expect(on100("US-MT", 350, today, mastercard).compliant).toBe(true)
    expect(on100("US-MT", 401, today, mastercard).reasonCode).toBe("network_cap_exceeded")
  })
})

describe("the jurisdictions with no state rule: the networks' rules decide", () => {
  // NCSL's statutes table ("Alabama | None | None |", and so for AK, AZ, AR); the Michigan
  // Attorney General: "Michigan does not have any such law"; HB 1930's findings (Hawaii): existing
  // protections "do not extend to, cap, or directly regulate surcharges"; processors' guides.
  const noStateRule = [
    "US-AK",
    "US-AL",
    "US-AR",
    "US-AZ",
    "US-DE",
    "US-HI",
    "US-IA",
    "US-ID",
    "US-IN",
    "US-KY",
    "US-MD",
    "US-MI",
    "US-MO",
    "US-MS"
  ]

  it("Visa 3 % on a credit card is compliant, 3.01 % is not; debit is refused", () => {
    for (const region of noStateRule) {
      expect(on100(region, 300, today, visa).compliant, region).toBe(true)
      expect(on100(region, 301, today, visa).reasonCode, region).toBe("network_cap_exceeded")
      expect(on100(region, 100, today, { cardType: "debit" }).reasonCode, region).toBe(
        "card_type_not_allowed"
      )
    }
  })
})

// Low where no primary source was read (docs/compliance.md, Sourcing standard): US-LA. US-AR
// and US-GA medium since a state authority's own page was read on 2026-12-02 (RecheckedLawUs1).
describe("the re-checked records decide, with the confidence the research supports", () => {
  const expected: Record<string, "high" | "medium" | "low"> = {
    "US-AK": "low",
    "US-AL": "low",
    "US-AR": "medium",
    "US-AZ": "low",
    "US-DC": "medium",
    "US-DE": "low",
    "US-FL": "medium",
    "US-GA": "medium",
    "US-HI": "medium",
    "US-IA": "low",
    "US-ID": "low",
    "US-IN": "low",
    "US-KY": "low",
    "US-LA": "low",
    "US-MD": "low",
    "US-MI": "medium",
    "US-MO": "low",
    "US-MS": "low",
    "US-MT": "low"
  }

  it("today's rule of each code is a research record, not the dataset's", () => {
    for (const [code, confidence] of Object.entries(expected)) {
      const inForce = Ruleset.DEFAULT.rules
        .filter((r) => r.code === code && (r.effectiveFrom ?? "") <= today)
        .sort((a, b) => (a.effectiveFrom ?? "").localeCompare(b.effectiveFrom ?? ""))
        .at(-1)
      expect(inForce?.sourceStatus, code).toBe("research")
      expect(inForce?.confidence, code).toBe(confidence)
    }
  })
})

/**
 * The law as re-checked in 2026-11 for US-NC to US-WY and Puerto Rico: each
 * research record that replaced a dataset record, against cited cases. The passage each
 * expectation rests on is quoted beside it; the record's own `sources` carry the URLs.
 */
import { describe, expect, it } from "@effect/vitest"
import { on100, pct, today } from "./lawCases.js"

const visa = { cardNetwork: "visa" }
// Before 2013-01-27 Visa and Mastercard forbade surcharges themselves (US-NETWORK-VISA), so the
// state law alone is seen on a Discover card.
const discover = { cardNetwork: "discover" }

describe("US-PR: 10 L.P.R.A. § 11 (Ley 150 of 2008-08-04)", () => {
  it("before 2008-08-04 the law was not researched: legal uncertainty", () => {
    expect(on100("US-PR", 100, "2008-08-03", discover).reasonCode).toBe("legal_uncertainty")
  })

  it("from 2008-08-04 no surcharge on a credit or debit card, nor a convenience fee", () => {
    // § 11: "Ningún comerciante podrá imponer un cargo adicional o “surcharge” ... incluyendo
    // una tarjeta de crédito o débito".
    expect(on100("US-PR", 100, "2008-08-04", visa).reasonCode).toBe("fees_prohibited")
    expect(on100("US-PR", 100, today, { cardType: "debit" }).reasonCode).toBe("fees_prohibited")
    const convenience = { feeType: "convenience_fee" as const, flatPart: 100 }
    expect(on100("US-PR", 100, today, convenience).reasonCode).toBe("fees_prohibited")
  })
})

describe("US-VA: Va. Code § 59.1-608 (SB 1212) from 2025-07-01; HB 1519 never reenacted", () => {
  it("the day before SB 1212: no state rule, the networks' 3 % binds", () => {
    // MCC: surcharges allowed "without any state-specific restrictions, until now".
    expect(on100("US-VA", 300, "2025-06-30", visa).compliant).toBe(true)
    expect(on100("US-VA", 301, "2025-06-30", visa).reasonCode).toBe("network_cap_exceeded")
  })

  it("from 2025-07-01: still allowed, never without disclosure; no ban took effect", () => {
    // § 59.1-608 A: the "total price, which shall include all mandatory fees or surcharges";
    // RD857: HB 1519 "shall not become effective unless reenacted by the 2025 session".
    expect(on100("US-VA", 300, "2025-07-01", visa).compliant).toBe(true)
    expect(on100("US-VA", 300, today, { ...visa, disclosed: false }).reasonCode).toBe(
      "disclosure_required"
    )
  })
})

describe("US-OR: SB 430 (all-in online prices) from 2026-01-01", () => {
  it("before and after: allowed online with disclosure, within the networks' caps", () => {
    // Yeeld: the surcharge "isn’t a fee that every purchaser must pay to complete the transaction".
    const online = { ...visa, channel: "online" as const }
    expect(on100("US-OR", 300, "2025-12-31", online).compliant).toBe(true)
    expect(on100("US-OR", 300, "2026-01-01", online).compliant).toBe(true)
    expect(on100("US-OR", 300, "2026-01-01", { ...online, disclosed: false }).reasonCode).toBe(
      "disclosure_required"
    )
  })
})

describe("US-SC: the 1976 ban's end not dated by a primary source", () => {
  it("before 2013-01-27 legal uncertainty, after it allowed within the networks' caps", () => {
    // Nickel: "a 2013 amendment to Title 39, Section 39-1-100"; MCC: "that changed in 2012".
    expect(on100("US-SC", 100, "2012-06-01", discover).reasonCode).toBe("legal_uncertainty")
    expect(on100("US-SC", 300, "2013-01-27", visa).compliant).toBe(true)
  })
})

describe("US-NV and US-SD: the regulators' cost-of-acceptance reading", () => {
  it("US-NV: not above what the merchant pays to accept the card (Attorney General, 2020)", () => {
    // "The surcharge may not exceed how much the merchant pays to accept the card".
    const cost = { ...visa, costOfAcceptance: pct("1.5") }
    expect(on100("US-NV", 150, today, cost).compliant).toBe(true)
    expect(on100("US-NV", 151, today, cost).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("US-SD: credit cards only, at most cost (Consumer Protection, as quoted)", () => {
    // "The surcharge cannot exceed the amount that the merchant actually pays to accept credit cards".
    const cost = { ...visa, costOfAcceptance: pct("2") }
    expect(on100("US-SD", 201, today, cost).reasonCode).toBe("over_cost_of_acceptance")
    expect(on100("US-SD", 100, today, { cardType: "debit" }).reasonCode).toBe(
      "card_type_not_allowed"
    )
  })
})

describe("Bills that did not become law change nothing", () => {
  it("US-NC: H 13's 2 % / 3 % cap was not enacted, so 3 % on Visa stays compliant", () => {
    // Green Sheet (2025-09-26): "North Carolina does not regulate credit card surcharges now".
    expect(on100("US-NC", 300, today, visa).compliant).toBe(true)
    expect(on100("US-NC", 301, today, visa).reasonCode).toBe("network_cap_exceeded")
  })

  it("US-WI, US-WV, US-RI: the 2013-2014 ban bills were never enacted", () => {
    // WI AB 239 (2013) and WV SB 499 (2013) would have barred credit card surcharges.
    for (const region of ["US-WI", "US-WV", "US-RI"]) {
      expect(on100(region, 300, today, visa).compliant).toBe(true)
    }
  })
})

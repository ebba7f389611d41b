/**
 * Canada as re-checked in 2026-11: the networks' rules as network records of their
 * own (Visa and Mastercard from the 2022 settlement, Interac), Quebec's ban, and places whose
 * law does not forbid a fee. The source each expectation rests on is quoted beside it.
 */
import { describe, expect, it } from "@effect/vitest"
import { on100, pct, today } from "./lawCases.js"

describe("Visa and Mastercard in Canada", () => {
  it("before 2022-10-06 the no-surcharge rules forbade it ('standards permitting such surcharging become effective on October 6, 2022')", () => {
    expect(on100("CA-ON", 100, "2022-10-05", { cardNetwork: "visa" }).reasonCode).toBe(
      "fees_prohibited"
    )
  })

  it("from 2022-10-06: the lesser of 2.4 % and the merchant discount rate (Chase: 'currently 2.4%')", () => {
    const mc = { cardNetwork: "mastercard", costOfAcceptance: pct("3") }
    expect(on100("CA-ON", 240, today, mc).compliant).toBe(true)
    expect(on100("CA-ON", 241, today, mc).reasonCode).toBe("network_cap_exceeded")
    const cheap = { cardNetwork: "visa", costOfAcceptance: pct("1.5") }
    expect(on100("CA-BC", 151, today, cheap).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("never on Visa or Mastercard debit or prepaid ('may not be assessed on debit or prepaid Cards')", () => {
    for (const cardType of ["debit", "prepaid"] as const) {
      expect(on100("CA", 100, today, { cardNetwork: "visa", cardType }).reasonCode).toBe(
        "card_type_not_allowed"
      )
    }
  })

  it("a debit card of an unknown network: the strictest network rule binds", () => {
    expect(on100("CA-AB", 100, today, { cardType: "debit" }).reasonCode).toBe(
      "card_type_not_allowed"
    )
  })
})

describe("Interac debit: a disclosed surcharge the cardholder may cancel", () => {
  it("allowed with notice (Interac requirement as quoted by Merrco: 'opportunity to cancel the IDP Transaction without cost')", () => {
    const interac = {
      cardNetwork: "interac",
      cardType: "debit" as const,
      channel: "in_person" as const
    }
    expect(on100("CA-ON", 50, today, interac).compliant).toBe(true)
    expect(on100("CA-ON", 50, today, { ...interac, disclosed: false }).reasonCode).toBe(
      "disclosure_required"
    )
  })
})

describe("Quebec: Consumer Protection Act s. 224(c)", () => {
  it("no card fee at all, Interac included (FCAC: 'except in Quebec')", () => {
    expect(on100("CA-QC", 100, today, { cardNetwork: "visa" }).reasonCode).toBe("fees_prohibited")
    const interac = { cardNetwork: "interac", cardType: "debit" as const }
    expect(on100("CA-QC", 50, today, interac).reasonCode).toBe("fees_prohibited")
  })
})

/**
 * The US federal record and the US card-network rules, and the EU/EEA records of group C, as
 * re-checked in 2026-11. The source each expectation rests on is quoted beside it;
 * the research record carries its URL.
 */
import { describe, expect, it } from "@effect/vitest"
import { on100, pct, today } from "./lawCases.js"

const visa = { cardNetwork: "visa" }
const mastercard = { cardNetwork: "mastercard" }
const discover = { cardNetwork: "discover" }
const amex = { cardNetwork: "amex" }
const cost = (percent: string) => ({ costOfAcceptance: pct(percent) })

describe("US networks: the 2013 settlement's rule change, Visa's 3 % from 2023-04-15", () => {
  it("before 2013-01-27 Visa and Mastercard barred surcharges (SmartBrief: 'effective Jan. 27, 2013 ... permitted')", () => {
    expect(on100("US-AL", 200, "2013-01-26", visa).reasonCode).toBe("fees_prohibited")
    expect(on100("US-AL", 200, "2013-01-26", mastercard).reasonCode).toBe("fees_prohibited")
    expect(on100("US-AL", 200, "2013-01-27", visa).compliant).toBe(true)
  })

  it("Mastercard: 4 % from 2013-01-27 ('up to a cap of 4 percent')", () => {
    expect(on100("US-AL", 400, "2013-01-27", mastercard).compliant).toBe(true)
    expect(on100("US-AL", 401, "2013-01-27", mastercard).reasonCode).toBe("network_cap_exceeded")
  })

  it("US federal law before 2013-01-27 is not modelled (the 1976 TILA ban 'lapsed' in 1984)", () => {
    // Discover's rule has no dated ban, so the federal record's own verdict shows.
    expect(on100("US-AL", 200, "2013-01-26", discover).reasonCode).toBe("legal_uncertainty")
    expect(on100("US-AL", 200, "2013-01-27", { ...discover, ...cost("2") }).compliant).toBe(true)
  })

  it("Visa: 4 % until 2023-04-14, 3 % from 2023-04-15 ('lowered from 4% to 3%')", () => {
    expect(on100("US-AL", 400, "2023-04-14", visa).compliant).toBe(true)
    expect(on100("US-AL", 301, "2023-04-15", visa).reasonCode).toBe("network_cap_exceeded")
    expect(on100("US-AL", 300, today, visa).compliant).toBe(true)
  })

  it("Visa: the lower of the MDR and 3 % ('or 3% whichever is lowest')", () => {
    expect(on100("US-AL", 251, today, { ...visa, ...cost("2.5") }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
  })

  it("Mastercard: still 4 % ('stands at 4%'); no lowering found", () => {
    expect(on100("US-AL", 400, today, mastercard).compliant).toBe(true)
    expect(on100("US-AL", 401, today, mastercard).reasonCode).toBe("network_cap_exceeded")
  })

  it("debit and prepaid never surcharged ('debit cards and prepaid cards cannot be surcharged')", () => {
    for (const network of [visa, mastercard, discover, {}]) {
      expect(on100("US", 100, today, { ...network, cardType: "debit" }).reasonCode).toBe(
        "card_type_not_allowed"
      )
      expect(on100("US", 100, today, { ...network, cardType: "prepaid" }).reasonCode).toBe(
        "card_type_not_allowed"
      )
    }
  })

  it("Discover: at cost, no percentage cap ('Not greater than the cost of acceptance')", () => {
    expect(on100("US-AL", 450, today, { ...discover, ...cost("4.5") }).compliant).toBe(true)
    expect(on100("US-AL", 451, today, { ...discover, ...cost("4.5") }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
  })

  it("Amex: not above the other brands' surcharge, read as Visa's 3 %", () => {
    expect(on100("US-AL", 301, today, amex).reasonCode).toBe("network_cap_exceeded")
  })

  it("the November 2025 settlement is only proposed: no premium-card change modelled", () => {
    // The Yeeld: "this settlement hasn't been approved"; Talli: "only after final court approval".
    expect(on100("US-AL", 301, "2027-06-01", visa).reasonCode).toBe("network_cap_exceeded")
  })

  it("a state ban still binds on top (US-CT)", () => {
    expect(on100("US-CT", 100, today, visa).reasonCode).toBe("fees_prohibited")
  })
})

describe("DE: § 312a Abs. 4 Nr. 2 BGB, the cost cap outside § 270a", () => {
  it("a consumer Amex card: 'über die Kosten hinausgeht, die dem Unternehmer ... entstehen' is void", () => {
    expect(on100("DE", 120, today, { ...amex, ...cost("1.2") }).compliant).toBe(true)
    expect(on100("DE", 121, today, { ...amex, ...cost("1.2") }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
  })
})

describe("CY: the ban from L. 31(I)/2018's commencement, 2018-04-18", () => {
  it("before ('came into force on April 18, 2018'): not researched, legal uncertainty", () => {
    expect(on100("CY", 100, "2018-04-17", visa).reasonCode).toBe("legal_uncertainty")
  })

  it("from 2018-04-18: 'the beneficiary is not allowed to request charges', Amex too", () => {
    expect(on100("CY", 100, "2018-04-18", visa).reasonCode).toBe("fees_prohibited")
    expect(on100("CY", 100, today, { ...amex, ...cost("2") }).reasonCode).toBe("fees_prohibited")
  })
})

describe("AT: ZaDiG 2018 from 2018-06-01 ('Das ZaDiG 2018 tritt am 01.06.2018 in Kraft')", () => {
  it("every card, commercial Amex included, before and after the new act", () => {
    const business = { cardholder: "business" as const }
    expect(on100("AT", 100, "2018-05-31", { ...amex, ...business }).reasonCode).toBe(
      "fees_prohibited"
    )
    expect(on100("AT", 100, today, { ...amex, ...business }).reasonCode).toBe("fees_prohibited")
  })
})

/**
 * The law as re-checked in 2026-11: each research record that replaced a dataset
 * record, against cited cases. The source each expectation rests on is quoted beside it; the
 * record's own `sources` carry the URLs.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Ruleset from "../src/compliance/Ruleset.js"
import { on100, pct, today } from "./lawCases.js"

describe("US bans confirmed in 2026-11: CT, ME, MA", () => {
  it("US-CT: no surcharge by any method, convenience fees included (Conn. Gen. Stat. § 42-133ff; DCP)", () => {
    // DCP: "a business may not charge a customer a surcharge for choosing one payment type".
    expect(on100("US-CT", 100, today).reasonCode).toBe("fees_prohibited")
    const convenience = { feeType: "convenience_fee" as const, flatPart: 100 }
    expect(on100("US-CT", 100, today, convenience).reasonCode).toBe("fees_prohibited")
  })

  it("US-ME: credit and debit alike (9-A M.R.S. § 8-509(1) 'credit card or debit card')", () => {
    expect(on100("US-ME", 100, today).reasonCode).toBe("fees_prohibited")
    expect(on100("US-ME", 100, today, { cardType: "debit" }).reasonCode).toBe("fees_prohibited")
  })

  it("US-MA: still banned, the 2024-2025 cost-cap bills not enacted (c. 140D § 28A; WSBS 2026-01-12)", () => {
    expect(on100("US-MA", 100, today, { costOfAcceptance: pct("3") }).reasonCode).toBe(
      "fees_prohibited"
    )
  })
})

describe("US-NY: GBL § 518 in three regimes", () => {
  const mc = { cardNetwork: "mastercard" }

  it("before 2018-10-23 the statute's meaning was contested: legal uncertainty", () => {
    // 32 NY3d 382: "Few statutes have provoked such diverse interpretations."
    expect(on100("US-NY", 100, "2017-06-01", mc).reasonCode).toBe("legal_uncertainty")
  })

  it("2018-10-23 to 2024-02-10: allowed with the total card price posted, no state cap", () => {
    // Justia summary: complies "so long as the merchant posts the total dollars and cents price".
    expect(on100("US-NY", 300, "2020-06-01", mc).compliant).toBe(true)
    expect(on100("US-NY", 300, "2020-06-01", { ...mc, disclosed: false }).reasonCode).toBe(
      "disclosure_required"
    )
  })

  it("from 2024-02-11: at most what the card company charges the business", () => {
    // § 518(1): the surcharge "may not exceed the amount of the surcharge charged to the business".
    const cost = { ...mc, costOfAcceptance: pct("2.5") }
    expect(on100("US-NY", 250, "2024-02-11", cost).compliant).toBe(true)
    const over = on100("US-NY", 251, "2024-02-11", cost)
    expect(over.reasonCode).toBe("over_cost_of_acceptance")
    expect(over.maxFee).toBe(250)
  })
})

describe("US-CA: Civ. Code § 1748.1, Italian Colors, then SB 478", () => {
  it("before and after 2024-07-01 the answer is legal uncertainty, never a plain 'allowed'", () => {
    // AG: Italian Colors applies "to merchants that are similarly situated"; SB 478 requires
    // listed prices to "include all required fees", and whether a card fee is one is unsettled.
    expect(on100("US-CA", 100, "2020-06-01").reasonCode).toBe("legal_uncertainty")
    expect(on100("US-CA", 100, today).reasonCode).toBe("legal_uncertainty")
  })

  it("opted in, the networks' caps still bind (Visa 3 %)", () => {
    const visa = { cardNetwork: "visa", allowUncertain: true }
    expect(on100("US-CA", 300, today, visa).compliant).toBe(true)
    expect(on100("US-CA", 301, today, visa).reasonCode).toBe("network_cap_exceeded")
  })

  it("SB 478 rests on the Attorney General's own words (2024-05-08), and stays low: they do not say whether a card fee is 'required'", () => {
    // oag.ca.gov press release, 2024-05-08: SB 478 "makes it illegal for businesses to advertise
    // or list a price for a good or service that does not include all required fees or charges
    // other than certain government taxes and shipping costs".
    const rule = Ruleset.DEFAULT.rules.find(
      (r) => r.code === "US-CA" && r.effectiveFrom === "2024-07-01"
    )!
    const ag = rule.citations?.find((c) =>
      c.url.startsWith("https://oag.ca.gov/news/press-releases/")
    )
    expect(ag?.kind).toBe("regulator")
    expect(ag?.quote).toContain("does not include all required fees or charges")
    expect(rule.confidence).toBe("low")
  })
})

describe("US-KS: the 1986 ban, CardX (2021-02-25), the 2024 act (2025-01-01)", () => {
  it("the ban before CardX: prohibited", () => {
    // K.S.A. 16a-2-403 (1986): "No seller or lessor ... may impose a surcharge on a card holder".
    expect(on100("US-KS", 100, "2020-06-01").reasonCode).toBe("fees_prohibited")
  })

  it("after CardX and under the 2024 act: allowed, with notice, within the networks' caps", () => {
    // CardX, 522 F.Supp.3d 929; K.S.A. 16a-2-403 (L. 2024, ch. 6, § 51): "clear and conspicuous notice".
    expect(on100("US-KS", 300, "2021-03-01", { cardNetwork: "visa" }).compliant).toBe(true)
    expect(on100("US-KS", 300, today, { cardNetwork: "visa" }).compliant).toBe(true)
    expect(on100("US-KS", 300, today, { cardNetwork: "visa", disclosed: false }).reasonCode).toBe(
      "disclosure_required"
    )
  })
})

describe("US-OK: SB 677 from 2025-11-01, the lesser of 2 % and cost", () => {
  const mc = { cardNetwork: "mastercard" }

  it("the day before: the § 2-417 ban", () => {
    expect(on100("US-OK", 100, "2025-10-31", mc).reasonCode).toBe("fees_prohibited")
  })

  it("2 % binds even where the merchant's cost is higher; cost binds where lower", () => {
    // Nickel: "2% or actual processing cost, whichever is lower".
    const high = { ...mc, costOfAcceptance: pct("2.8") }
    expect(on100("US-OK", 200, "2025-11-01", high).compliant).toBe(true)
    expect(on100("US-OK", 201, "2025-11-01", high).reasonCode).toBe("percentage_over_limit")
    const low = { ...mc, costOfAcceptance: pct("1.5") }
    expect(on100("US-OK", 200, "2025-11-01", low).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("credit cards only (AGG: 'Surcharges may be assessed only on credit cards')", () => {
    expect(on100("US-OK", 100, "2025-11-01", { cardType: "debit" }).reasonCode).toBe(
      "card_type_not_allowed"
    )
  })

  it("the unconfirmed 4.5 % bill changes nothing on 2026-11-01: 2 % still binds", () => {
    expect(on100("US-OK", 201, today, { ...mc, costOfAcceptance: pct("4") }).reasonCode).toBe(
      "percentage_over_limit"
    )
  })
})

describe("US-IL: no state limit; the 2021 1 % bill was never law", () => {
  it("3 % on Visa is compliant, above it the network's cap binds", () => {
    // HB 3128 "Limits the surcharge to 1%" — introduced, not enacted (Nickel: "failed to pass").
    expect(on100("US-IL", 300, today, { cardNetwork: "visa" }).compliant).toBe(true)
    expect(on100("US-IL", 301, today, { cardNetwork: "visa" }).reasonCode).toBe(
      "network_cap_exceeded"
    )
  })
})

describe("GB: SI 2012/3110 from 2013-04-06, reg. 6A from 2018-01-13", () => {
  it("2013-2017: any card, at most the trader's cost (reg. 4)", () => {
    // Explanatory Note: surcharges "where the surcharges exceed the cost to the trader" are prohibited.
    const cost = { cardNetwork: "visa", costOfAcceptance: pct("1.2") }
    expect(on100("GB", 120, "2016-06-01", cost).compliant).toBe(true)
    expect(on100("GB", 121, "2016-06-01", cost).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("from 2018-01-13: no fee on any card that is not commercial, Amex included", () => {
    // Reg. 6A(1): "A payee must not charge a payer any fee" for a card "which ... is not a commercial card".
    for (const cardNetwork of ["visa", "amex"]) {
      expect(on100("GB", 100, today, { cardNetwork, cardIssuingCountry: "US" }).reasonCode).toBe(
        "fees_prohibited"
      )
    }
    expect(on100("GB", 100, "2018-01-12", { costOfAcceptance: pct("1") }).compliant).toBe(true)
  })

  it("a commercial card: at most cost (reg. 6A(2)); no 2024-2025 extension of the ban was found", () => {
    const business = { cardholder: "business" as const, costOfAcceptance: pct("1.8") }
    expect(on100("GB", 180, today, business).compliant).toBe(true)
    expect(on100("GB", 181, today, business).reasonCode).toBe("over_cost_of_acceptance")
  })
})

describe("EU: PSD2 Art. 62 (the PSR not yet in force)", () => {
  it("a consumer four-party card: prohibited (Art. 62(4)); three-party or commercial: national law", () => {
    // EBA single rulebook, Art. 62(4): no charges for instruments "for which interchange fees are regulated".
    expect(on100("EU", 100, today, { cardNetwork: "visa" }).reasonCode).toBe("fees_prohibited")
    expect(on100("EU", 100, today, { cardNetwork: "amex" }).reasonCode).toBe("legal_uncertainty")
    const business = { cardholder: "business" as const, allowUncertain: true }
    const cost = { ...business, costOfAcceptance: pct("1") }
    expect(on100("EU", 100, today, cost).compliant).toBe(true)
    expect(on100("EU", 101, today, cost).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("a consumer Visa card issued in an EEA state paying in region EU is same-area: banned (Art. 62(4))", () => {
    // Art. 62(4) covers instruments with regulated interchange, i.e. EEA-issued consumer cards.
    const issuedIn = (cardIssuingCountry: string) =>
      on100("EU", 100, today, { cardNetwork: "visa", cardIssuingCountry }).reasonCode
    expect(issuedIn("DE")).toBe("fees_prohibited")
    expect(issuedIn("NO")).toBe("fees_prohibited")
    expect(issuedIn("US")).not.toBe("fees_prohibited")
  })
})

describe("US-MN, US-NJ, US-TX, US-UT re-checked in 2026-11 (ruleset 1.3.0)", () => {
  it("US-MN: at most 5 % (§ 325G.051 subd. 1(4)); Visa's 3 % binds first, Mastercard's 4 % too", () => {
    // "(4) the surcharge does not exceed five percent of the purchase price."
    expect(on100("US-MN", 300, today, { cardNetwork: "visa" }).compliant).toBe(true)
    expect(on100("US-MN", 301, today, { cardNetwork: "visa" }).reasonCode).toBe(
      "network_cap_exceeded"
    )
  })

  it("US-NJ: no state rule before P.L.2023, c.146; from 2023-08-18 at most the actual cost", () => {
    // H&K: the act "appears to be the first effort in New Jersey to regulate credit card surcharge fees".
    const visa = { cardNetwork: "visa", costOfAcceptance: pct("2") }
    // Before the act only the networks' rules bound (the dataset had no rule: legal_uncertainty).
    expect(on100("US-NJ", 200, "2023-08-17", visa).compliant).toBe(true)
    // 56:8-156.2(a): not "greater than the actual cost to the seller to process the credit card payment".
    expect(on100("US-NJ", 201, "2023-08-18", visa).reasonCode).toBe("over_cost_of_acceptance")
    expect(on100("US-NJ", 200, today, visa).compliant).toBe(true)
  })

  it("US-TX: credit uncertain (§ 604A.0021 still in the 2024 code, HB 3615 died), debit prohibited (§ 604A.002)", () => {
    expect(on100("US-TX", 100, today).reasonCode).toBe("legal_uncertainty")
    const debit = { cardType: "debit" as const, allowUncertain: true }
    expect(on100("US-TX", 100, today, debit).reasonCode).toBe("card_type_not_allowed")
  })

  it("US-UT: whether § 13-38a-302 outlived its 2014-06-30 sunset was not verified → uncertain", () => {
    expect(on100("US-UT", 100, today).reasonCode).toBe("legal_uncertainty")
  })
})

describe("MY: Bank Negara Malaysia, 2018", () => {
  it("no surcharge on debit or credit cards ('retailers cease imposing surcharges on debit and credit card transactions')", () => {
    expect(on100("MY", 100, today).reasonCode).toBe("fees_prohibited")
    expect(on100("MY", 100, today, { cardType: "debit" }).reasonCode).toBe("fees_prohibited")
  })
})

/** The version of `code` in force on `day` (ruleset 3.0.2's re-check cites what it read there). */
const inForce = (code: string, day: string) =>
  Ruleset.DEFAULT.rules.find(
    (r) =>
      r.code === code &&
      (r.effectiveFrom === null || r.effectiveFrom <= day) &&
      (r.effectiveUntil === undefined || r.effectiveUntil === null || r.effectiveUntil > day)
  )!

const citedFrom = (code: string, day: string, host: string) =>
  inForce(code, day).citations?.find((c) => new URL(c.url).hostname === host)

describe("Re-checked for a primary source in ruleset 3.0.2", () => {
  it("US-TX: the legislature's own text shows § 604A.0021 and its penalty still in force in 2023; credit stays uncertain", () => {
    // H.B. 3615 (2023), Senate committee substitute on capitol.texas.gov: § 604A.003 as in force,
    // the words the bill would strike in brackets: "violates Section 604A.002 [or 604A.0021]".
    const bill = citedFrom("US-TX", today, "capitol.texas.gov")
    expect(bill?.kind).toBe("statute")
    expect(bill?.quote).toContain("[or 604A.0021]")
    expect(inForce("US-TX", today).confidence).toBe("medium")
    expect(on100("US-TX", 100, today).reasonCode).toBe("legal_uncertainty")
  })
  it("SE: the ban's issuing-region scope rests on the act's own 1 kap. 1 a §; a card issued outside the EEA stays uncertain", () => {
    // Lag (2010:751) 1 kap. 1 a § (Lag 2018:175), rkrattsbaser.gov.se: where either party's
    // provider "hör hemma utanför EES", 5 kap. 1 § second paragraph does not apply.
    const act = citedFrom("SE", today, "rkrattsbaser.gov.se")
    expect(act?.kind).toBe("statute")
    expect(act?.quote).toContain("5 kap. 1 § andra stycket")
    const issuedIn = (cardIssuingCountry: string) =>
      on100("SE", 100, today, { cardNetwork: "visa", cardIssuingCountry }).reasonCode
    expect(issuedIn("SE")).toBe("fees_prohibited")
    expect(issuedIn("US")).toBe("legal_uncertainty")
  })
  it("AU 2026-10-01: the decision and the networks' rules unread, so the ban rests on secondary sources only and stays low", () => {
    // The RBA's July 2025 consultation paper (a proposal for 2026-07-01) is read but not cited:
    // the coverage table must not show a regulator behind a ban no regulator's text read decides.
    const ban = inForce("AU", "2026-10-01")
    expect(ban.citations?.every((c) => c.kind === "secondary")).toBe(true)
    expect(ban.confidence).toBe("low")
    const visa = { cardNetwork: "visa", costOfAcceptance: pct("1") }
    expect(on100("AU", 100, "2026-09-30", visa).compliant).toBe(true)
    expect(on100("AU", 100, "2026-10-01", visa).reasonCode).toBe("fees_prohibited")
  })
  it("CA-BC: the Passenger Transportation Board's taxi and ride-hailing ban is cited, not modelled; other merchants stay permitted", () => {
    // ptboard.bc.ca (2023-10-18): "The new rules prohibits licensees from charging a credit
    // card surcharge to passengers for credit card payment." One regulated sector, and the
    // rule model has no merchant-kind scope, so the province's verdict does not change.
    const board = citedFrom("CA-BC", today, "www.ptboard.bc.ca")
    expect(board?.kind).toBe("regulator")
    expect(board?.quote).toContain("prohibits licensees from charging a credit card surcharge")
    expect(inForce("CA-BC", today).confidence).toBe("low")
    expect(on100("CA-BC", 100, today, { cardNetwork: "visa" }).compliant).toBe(true)
  })
  it("CA-QC: Quebec's own consumer regulator states the ban; a disclosed fee on any card is still refused", () => {
    // opc.gouv.qc.ca: "A merchant cannot charge fees when you use a debit or credit card", and
    // a notice at the till or a sign "does not entitle the merchant to charge such fees".
    const office = citedFrom("CA-QC", today, "www.opc.gouv.qc.ca")
    expect(office?.kind).toBe("regulator")
    expect(office?.quote).toContain("cannot charge fees when you use a debit or credit card")
    const disclosed = { cardNetwork: "visa", disclosed: true }
    expect(on100("CA-QC", 100, today, disclosed).reasonCode).toBe("fees_prohibited")
    const interac = { cardNetwork: "interac", cardType: "debit" as const, disclosed: true }
    expect(on100("CA-QC", 50, today, interac).reasonCode).toBe("fees_prohibited")
  })
})

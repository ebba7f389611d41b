/**
 * AU, NZ, the Canadian provinces and territories, twelve EEA states and four US territories as
 * re-checked in 2026-11 (group A). The source each expectation rests on is quoted
 * beside it; the research record carries its URL.
 */
import { describe, expect, it } from "@effect/vitest"
import { on100, pct, today } from "./lawCases.js"

const visa = { cardNetwork: "visa" }
const amex = { cardNetwork: "amex" }
const business = { cardholder: "business" as const }
const cost = (percent: string) => ({ costOfAcceptance: pct(percent) })

describe("AU: the RBA's removal of surcharging on eftpos, Mastercard and Visa, final from 2026-10-01", () => {
  it("the day before, a Visa surcharge at cost is allowed; from 2026-10-01 it is not", () => {
    // Sierra Legal: "From 1 October 2026 ... designated card networks ... to impose 'no-surcharge' rules".
    expect(on100("AU", 150, "2026-09-30", { ...visa, ...cost("1.5") }).compliant).toBe(true)
    expect(on100("AU", 150, "2026-10-01", { ...visa, ...cost("1.5") }).reasonCode).toBe(
      "fees_prohibited"
    )
  })

  it("business cards on Visa are covered; American Express stays allowed at cost", () => {
    // MerchantRates: "business cards on Visa, Mastercard or eftpos are covered".
    expect(on100("AU", 100, today, { ...visa, ...business, ...cost("1") }).reasonCode).toBe(
      "fees_prohibited"
    )
    // APS readiness: "Surcharges on Amex are still permitted under the new rules."
    expect(on100("AU", 150, today, { ...amex, ...cost("1.5") }).compliant).toBe(true)
    expect(on100("AU", 151, today, { ...amex, ...cost("1.5") }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
  })
})

describe("NZ: the in-store ban bill stalled, so from 2026-03-20 its status is unknown", () => {
  const inStore = { ...visa, channel: "in_person" as const, ...cost("1.5") }

  it("in store, a Visa surcharge at cost is allowed on 2026-03-19 and uncertain from 2026-03-20", () => {
    // Newstalk ZB, 2026-02-19: "a second and third reading yet to occur"; Bill 205-2: "comes into
    // force 1 month after Royal assent". Was prohibited from 2026-05-01.
    expect(on100("NZ", 150, "2026-03-19", inStore).compliant).toBe(true)
    expect(on100("NZ", 150, "2026-03-20", inStore).reasonCode).toBe("legal_uncertainty")
    expect(on100("NZ", 150, today, inStore).reasonCode).toBe("legal_uncertainty")
  })

  it("opted in to uncertain rules, the cost of acceptance still binds in store", () => {
    const optedIn = { ...inStore, allowUncertain: true }
    expect(on100("NZ", 150, today, optedIn).compliant).toBe(true)
    expect(on100("NZ", 151, today, optedIn).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("online and other networks stay outside the bill, at most cost", () => {
    const online = { ...inStore, channel: "online" as const }
    expect(on100("NZ", 150, today, online).compliant).toBe(true)
    expect(on100("NZ", 151, today, online).reasonCode).toBe("over_cost_of_acceptance")
    expect(on100("NZ", 150, today, { ...inStore, ...amex }).compliant).toBe(true)
  })
})

describe("Canadian provinces and territories: no provincial rule outside Quebec", () => {
  const provinces = [
    "CA-AB",
    "CA-BC",
    "CA-MB",
    "CA-NB",
    "CA-NL",
    "CA-NS",
    "CA-NT",
    "CA-NU",
    "CA-ON",
    "CA-PE",
    "CA-SK",
    "CA-YT"
  ]

  it("a Visa credit surcharge is allowed up to the networks' 2.4 %, with notice", () => {
    // FCAC: "you have the option of adding a surcharge to a credit card transaction (except in Quebec)".
    for (const code of provinces) {
      expect(on100(code, 240, today, visa).compliant, code).toBe(true)
      expect(on100(code, 241, today, visa).reasonCode, code).toBe("network_cap_exceeded")
      expect(on100(code, 240, today, { ...visa, disclosed: false }).reasonCode, code).toBe(
        "disclosure_required"
      )
    }
  })

  it("Alberta: the Act does not forbid the fee but it must be disclosed; Quebec still bans it", () => {
    // Minister Nally: "credit card fees must be accurately disclosed to the card user and on any bill".
    expect(on100("CA-AB", 200, today, { ...visa, disclosed: false }).reasonCode).toBe(
      "disclosure_required"
    )
    expect(on100("CA-QC", 200, today, visa).reasonCode).toBe("fees_prohibited")
  })
})

describe("LT: the Bank of Lithuania — no fee for any payment instrument, 'no exceptions'", () => {
  it("a consumer Amex card and a commercial Visa card: prohibited (were allowed at cost)", () => {
    // Lietuvos bankas: the Law on Payments "aiškiai draudžiama ir nenumatoma jokių išimčių".
    expect(on100("LT", 100, today, { ...amex, ...cost("2") }).reasonCode).toBe("fees_prohibited")
    expect(on100("LT", 100, today, { ...visa, ...business, ...cost("2") }).reasonCode).toBe(
      "fees_prohibited"
    )
  })

  it("before the PSD2 date the record stays uncertain", () => {
    expect(on100("LT", 100, "2017-06-01", visa).reasonCode).toBe("legal_uncertainty")
  })
})

describe("SK: Act 250/2007 — no fee to a consumer for any payment instrument", () => {
  it("a consumer's Amex or US-issued Visa card: prohibited (were allowed at cost)", () => {
    // "Predávajúci nesmie spotrebiteľovi účtovať poplatky za použitie platobného prostriedku."
    expect(on100("SK", 100, today, { ...amex, ...cost("2") }).reasonCode).toBe("fees_prohibited")
    const us = { ...visa, cardIssuingCountry: "US", ...cost("2") }
    expect(on100("SK", 100, today, us).reasonCode).toBe("fees_prohibited")
  })

  it("a commercial Visa card: still at most cost (PSD2 art. 62(3))", () => {
    expect(on100("SK", 100, today, { ...visa, ...business, ...cost("1") }).compliant).toBe(true)
    expect(on100("SK", 101, today, { ...visa, ...business, ...cost("1") }).reasonCode).toBe(
      "over_cost_of_acceptance"
    )
  })
})

describe("LI: the PSD2 regime from the ZDG of 2019 ('ausgegeben am 6. September 2019')", () => {
  it("before 2019-09-06 legal uncertainty (was the PSD2 ban for all time); from it the ban", () => {
    expect(on100("LI", 100, "2019-09-05", visa).reasonCode).toBe("legal_uncertainty")
    expect(on100("LI", 100, "2019-09-06", visa).reasonCode).toBe("fees_prohibited")
    expect(on100("LI", 100, today, { ...amex, ...cost("1") }).compliant).toBe(true)
  })
})

describe("LV: PTAC confirms the PSD2 ban ('Traders may no longer charge you any extra')", () => {
  it("a consumer Visa card is prohibited; an Amex card at most cost", () => {
    expect(on100("LV", 100, today, visa).reasonCode).toBe("fees_prohibited")
    expect(on100("LV", 100, today, { ...amex, ...cost("1") }).compliant).toBe(true)
  })
})

describe("US territories: no territorial law found; only the networks' rules bind", () => {
  const territories = ["US-AS", "US-GU", "US-MP", "US-VI"]

  it("today a Visa credit surcharge is allowed up to Visa's 3 %, never on debit", () => {
    // Visa notice: "in the U.S. or its territories where surcharges are not prohibited by local law".
    for (const code of territories) {
      expect(on100(code, 300, today, visa).compliant, code).toBe(true)
      expect(on100(code, 301, today, visa).reasonCode, code).toBe("network_cap_exceeded")
      expect(on100(code, 100, today, { ...visa, cardType: "debit" }).reasonCode, code).toBe(
        "card_type_not_allowed"
      )
    }
  })

  it("before 2013 no territorial rule is in force; Visa's own no-surcharge rule still forbids", () => {
    // The networks' pre-2013 no-surcharge rule is no longer copied into the territory records:
    // it is US-NETWORK-VISA's own past regime, so a Discover card sees the territory alone.
    for (const code of territories) {
      expect(on100(code, 100, "2010-06-01", { cardNetwork: "discover" }).reasonCode, code).toBe(
        "legal_uncertainty"
      )
      expect(on100(code, 100, "2010-06-01", visa).reasonCode, code).toBe("fees_prohibited")
    }
  })

  it("US-VI: the surcharge-ban bill was tabled, so no territorial ban", () => {
    // St. John Tradewinds: "It was tabled."
    expect(on100("US-VI", 200, today, { ...visa, ...cost("2") }).compliant).toBe(true)
  })
})

describe("PL: PSD2 from the Act of 10 May 2018 ('entered into force on 20 June 2018')", () => {
  it("a consumer Visa card: uncertain on 2018-06-19 (was prohibited), prohibited from 2018-06-20", () => {
    expect(on100("PL", 100, "2018-06-19", visa).reasonCode).toBe("legal_uncertainty")
    expect(on100("PL", 100, "2018-06-20", visa).reasonCode).toBe("fees_prohibited")
  })
})

describe("LU and LV: the PSD2 ban from the national transposition, not the EU date", () => {
  it("LU: the Law of 20 July 2018 'entered into force on 29 July 2018'", () => {
    expect(on100("LU", 100, "2018-07-28", visa).reasonCode).toBe("legal_uncertainty")
    expect(on100("LU", 100, "2018-07-29", visa).reasonCode).toBe("fees_prohibited")
  })

  it("LV: the amendment of 20.06.2018 to the Law on Payment Services and Electronic Money", () => {
    expect(on100("LV", 100, "2018-06-19", visa).reasonCode).toBe("legal_uncertainty")
    expect(on100("LV", 100, "2018-06-20", visa).reasonCode).toBe("fees_prohibited")
  })
})

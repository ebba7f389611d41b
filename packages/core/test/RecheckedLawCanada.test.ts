/**
 * Canada as re-checked in 2026-11: the networks' rules as network records of their
 * own (Visa and Mastercard from the 2022 settlement, Interac), Quebec's ban, and places whose
 * law does not forbid a fee. The source each expectation rests on is quoted beside it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Day from "../src/compliance/Day.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
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

/*
 * The provinces and territories other than Alberta, British Columbia, Ontario and Quebec,
 * re-checked on 2026-12-02 for a primary source on card surcharges: no provincial or
 * territorial text on fees for paying by card was read, so each record stays `permitted` at
 * low confidence on the FCAC's statement and the networks' cap still binds.
 */
const day = "2026-12-02"
const visa = { cardNetwork: "visa" }

const rechecked = ["CA-MB", "CA-NB", "CA-NL", "CA-NS", "CA-NT", "CA-NU", "CA-PE", "CA-SK", "CA-YT"]

/** The version of `code` in force on the re-check day, as the engine looks it up. */
const inForce = (code: string) =>
  Ruleset.inForce(Ruleset.DEFAULT.places.get(code) ?? [], Day.fromIso(day)!)!.rule

const citedFrom = (code: string, host: string) =>
  inForce(code).citations?.find((c) => new URL(c.url).hostname === host)

describe("Canadian provinces and territories re-checked on 2026-12-02", () => {
  it("each was re-checked that day and stays low: nothing provincial or territorial on card surcharges was read", () => {
    // FCAC: "you have the option of adding a surcharge to a credit card transaction (except in
    // Quebec)"; the notes say what was looked for on each province's own sites and not found.
    for (const code of rechecked) {
      const rule = inForce(code)
      expect(rule.currentAsOf, code).toBe(day)
      expect(rule.confidence, code).toBe("low")
      expect(rule.restrictions, code).toContain("Re-checked 2026-12-02:")
      expect(citedFrom(code, "www.canada.ca")?.kind, code).toBe("regulator")
    }
  })

  it("so the networks' rule decides: a Visa credit surcharge passes at 2.4 % and fails one cent over", () => {
    // FCAC: surcharges may not be "higher than 2.4%"; no provincial cap or ban was found.
    for (const code of rechecked) {
      expect(on100(code, 240, day, visa).compliant, code).toBe(true)
      expect(on100(code, 241, day, visa).reasonCode, code).toBe("network_cap_exceeded")
    }
  })

  it("CA-NT: OpenNWT's reading copy of the Act is cited as what it is, secondary", () => {
    // gazette.opennwt.ca: "This is an unofficial reading copy parsed from the Department of
    // Justice consolidation PDF above", a third party's copy, not the territory's own text.
    const copy = citedFrom("CA-NT", "gazette.opennwt.ca")
    expect(copy?.kind).toBe("secondary")
    expect(copy?.quote).toContain("Total cash price")
  })
})

/**
 * The EEA records re-checked on 2026-12-02 (BG, CY, HR, LI, MT, RO and the EU baseline):
 * PSD2 Art. 62 as the EU record cites it, and what the re-check read in copies of national law
 * for the periods before PSD2. The source each expectation rests on is quoted beside it; the
 * research record carries its URL.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Ruleset from "../src/compliance/Ruleset.js"
import { on100, pct } from "./lawCases.js"

const recheck = "2026-12-02"

const ruleOf = (code: string, effectiveFrom: string | null) => {
  const rule = Ruleset.DEFAULT.rules.find(
    (r) => r.code === code && r.effectiveFrom === effectiveFrom
  )
  if (rule === undefined) throw new Error(`no ${code} version from ${effectiveFrom}`)
  return rule
}

describe("EU: cards outside PSD2 Art. 62(4) are the member state's to decide (Art. 62(3), (5))", () => {
  const usIssuedVisa = { cardNetwork: "visa", cardIssuingCountry: "US" }

  it("a consumer Visa card issued outside the EEA: legal uncertainty, not a ban", () => {
    // Art. 62(5): "Member States may prohibit or limit the right of the payee to request charges".
    expect(on100("EU", 100, recheck, usIssuedVisa).reasonCode).toBe("legal_uncertainty")
    // Art. 62(4) bans charges only where interchange is regulated: the same card issued in the EEA.
    const eeaIssued = { cardNetwork: "visa", cardIssuingCountry: "DE", allowUncertain: true }
    expect(on100("EU", 100, recheck, eeaIssued).reasonCode).toBe("fees_prohibited")
  })

  it("opted in, the charge is capped at the payee's direct cost", () => {
    // Art. 62(3): "Any charges applied shall not exceed the direct costs borne by the payee".
    const optedIn = { ...usIssuedVisa, allowUncertain: true, costOfAcceptance: pct("1.5") }
    expect(on100("EU", 150, recheck, optedIn).compliant).toBe(true)
    expect(on100("EU", 151, recheck, optedIn).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("the PSD2 version cites Art. 62(5) as statute and keeps its high confidence", () => {
    const rule = ruleOf("EU", "2018-01-13")
    const art625 = rule.citations?.find((c) => c.quote.startsWith("Member States may prohibit"))
    expect(art625?.kind).toBe("statute")
    expect(art625?.url).toContain("eba.europa.eu")
    expect(rule.confidence).toBe("high")
  })
})

describe("CY and RO before PSD2: a ban read only in copies stays uncertain", () => {
  it("CY before 2018-04-18: the 2009 law's card ban, read on cylaw.org, is cited as secondary", () => {
    // L. 128(I)/2009 art. 46(2): "Ο δικαιούχος απαγορεύεται να επιβάλλει επιβάρυνση ... κάρτα
    // πληρωμής ή ανάλογο μέσο" (copy on cylaw.org; no primary text read).
    expect(on100("CY", 100, "2015-06-01", { cardNetwork: "visa" }).reasonCode).toBe(
      "legal_uncertainty"
    )
    const copy = ruleOf("CY", null).citations?.find((c) => c.url.includes("cylaw.org"))
    expect(copy?.kind).toBe("secondary")
    expect(ruleOf("CY", null).confidence).toBe("low")
  })

  it("RO before 2019-12-13: OUG 113/2009 art. 117, quoted by the press only, stays uncertain", () => {
    // conso.ro: art. 117 "beneficiarul platii nu poate solicita platitorului un pret suplimentar".
    expect(on100("RO", 100, "2015-06-01", { cardNetwork: "visa" }).reasonCode).toBe(
      "legal_uncertainty"
    )
    const press = ruleOf("RO", null).citations?.find((c) => c.url.includes("conso.ro"))
    expect(press?.kind).toBe("secondary")
  })
})

describe("BG, HR, LI, MT, RO today: PSD2's minimum, no national extension read", () => {
  it.each(["BG", "HR", "LI", "MT", "RO"])(
    "%s: a consumer Visa card is banned, a commercial card allowed up to cost (confidence low)",
    (code) => {
      // PSD2 Art. 62(4) as transposed; Art. 62(3): charges "shall not exceed the direct costs".
      expect(on100(code, 100, recheck, { cardNetwork: "visa" }).reasonCode).toBe("fees_prohibited")
      const business = {
        cardNetwork: "visa",
        cardholder: "business" as const,
        costOfAcceptance: pct("1")
      }
      expect(on100(code, 100, recheck, business).compliant).toBe(true)
      expect(on100(code, 101, recheck, business).reasonCode).toBe("over_cost_of_acceptance")
      expect(
        Ruleset.DEFAULT.rules.find((r) => r.code === code && r.effectiveUntil === null)?.confidence
      ).toBe("low")
    }
  )
})

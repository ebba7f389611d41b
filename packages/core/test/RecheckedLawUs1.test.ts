/**
 * Twelve US states recorded as permitted on secondary sources only (AK, AL, AR, DE, GA, IA, ID,
 * IN, KY, MD, MO, MS), re-checked for a primary source on 2026-12-02. Where one was read (AR,
 * GA, KY) it is cited here with the words each expectation rests on; the others stay low.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Ruleset from "../src/compliance/Ruleset.js"
import { on100, pct } from "./lawCases.js"

const day = "2026-12-02"
const visa = { cardNetwork: "visa" }
const mastercard = { cardNetwork: "mastercard" }

/** The rule of `code` with no end date, and its citation from `host`. */
const current = (code: string) =>
  Ruleset.DEFAULT.rules.find((r) => r.code === code && (r.effectiveUntil ?? null) === null)!
const citation = (code: string, host: string) =>
  current(code).citations?.find((c) => new URL(c.url).hostname === host)

/** The rule of `code` cites the regulator's page on `host`, at `confidence`. */
const expectRegulator = (code: string, host: string, confidence: "medium" | "low") => {
  expect(citation(code, host)?.kind).toBe("regulator")
  expect(current(code).confidence).toBe(confidence)
}

/**
 * The state's own rule asks for disclosure (Visa's does too, so the verdict alone would not
 * show it), and a 3 % Visa surcharge today passes disclosed and is refused undisclosed.
 */
const expectDisclosureRequired = (code: string) => {
  expect(current(code).requiresDisclosure).toBe(true)
  expect(on100(code, 300, day, visa).compliant).toBe(true)
  expect(on100(code, 300, day, { ...visa, disclosed: false }).reasonCode).toBe(
    "disclosure_required"
  )
}

describe("Re-checked for a primary source on 2026-12-02 (US-AR, US-GA, US-KY)", () => {
  it("US-AR: the Attorney General says Arkansas retailers may surcharge credit cards, disclosed", () => {
    // ag.arkansas.gov: "Retailers in 40 states, including Arkansas, are permitted to do so".
    expectRegulator("US-AR", "ag.arkansas.gov", "medium")
    // "those that do so must make clear to the consumer what the additional cost will be".
    expectDisclosureRequired("US-AR")
  })

  it("US-AR: 'up to 4 percent ... depending on the amount the merchant pays': cost binds", () => {
    // The alert names the networks' settlement as the source of the 4 % and the cost limit, so
    // they bind through the network records (here Mastercard's), not the state's rule.
    const cost = { ...mastercard, costOfAcceptance: pct("2.5") }
    expect(on100("US-AR", 250, day, cost).compliant).toBe(true)
    expect(on100("US-AR", 251, day, cost).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("US-GA: the State's consumer-protection page: permitted, at most the cost of acceptance", () => {
    // consumered.georgia.gov (2021-03-03): merchants "are permitted to pass the transaction fee
    // along to the consumer"; "the amount of the surcharge cannot exceed the amount the merchant
    // pays to accept the card". It names no Georgia statute for the limit, which binds through
    // the network records (here Mastercard's); the state's rule has none of its own.
    expectRegulator("US-GA", "consumered.georgia.gov", "medium")
    const cost = { ...mastercard, costOfAcceptance: pct("2.5") }
    expect(on100("US-GA", 250, day, cost).compliant).toBe(true)
    expect(on100("US-GA", 251, day, cost).reasonCode).toBe("over_cost_of_acceptance")
  })

  it("US-GA: 'merchants who add a credit card surcharge ... must post a sign at the point of entry'", () => {
    expectDisclosureRequired("US-GA")
  })

  it("US-KY: the Attorney General's surcharge guidance requires disclosure; card surcharges stay low", () => {
    // kentucky.gov (2020-12-08, COVID-19 surcharges): "Surcharges must be clearly and
    // conspicuously disclosed to a customer prior to the point of sale". It says nothing of card
    // surcharges or of the 3 % cap a processor claims, so confidence stays low.
    expectRegulator("US-KY", "kentucky.gov", "low")
    expectDisclosureRequired("US-KY")
  })
})

// US-MS has cited the Legislature's bill texts since 2026-12-02, for public bodies only: its
// private-merchant rule, still low, is tested in RecheckedLawPublicBodies.test.ts.
describe("No primary source found on 2026-12-02: AK, AL, DE, IA, ID, IN, MD, MO stay low", () => {
  const low = ["US-AK", "US-AL", "US-DE", "US-IA", "US-ID", "US-IN", "US-MD", "US-MO"]

  it.each(low)(
    "%s: every citation secondary, confidence low, a disclosed 3 %% Visa fee passes",
    (code) => {
      const rule = current(code)
      expect(rule.citations?.every((c) => c.kind === "secondary")).toBe(true)
      expect(rule.confidence).toBe("low")
      expect(on100(code, 300, day, visa).compliant).toBe(true)
      expect(on100(code, 301, day, visa).reasonCode).toBe("network_cap_exceeded")
    }
  )
})

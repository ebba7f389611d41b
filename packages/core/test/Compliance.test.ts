/**
 * The compliance engine against the cited dataset (data/regions.source.json, a copy of
 * packages/core/data/regions.source.json) and docs/design.md §3. Every expectation below is read from a
 * record's caps, card types or `restrictions` text, quoted next to the case.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import source from "../data/regions.source.json" with { type: "json" }
import { ComplianceRules } from "../src/ComplianceRules.js"
import * as Currency from "../src/Currency.js"
import * as Compliance from "../src/compliance/Compliance.js"
import * as Day from "../src/compliance/Day.js"
import type { Rule } from "../src/compliance/Rule.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import type { SourceDataset } from "../src/compliance/SourceRecord.js"
import * as Disclosure from "../src/Disclosure.js"
import * as Estimate from "../src/Estimate.js"
import * as FeeSchedule from "../src/FeeSchedule.js"
import * as Rate from "../src/Rate.js"

const R = Ruleset.DEFAULT
const USD = Currency.lookup("usd")!
/** A day on which every dated change in the data has settled (OK, KS) and AU has not yet changed. */
const DAY = "2025-12-01"

const pct = Rate.percent
const flat = Rate.flat

type Input = Partial<Compliance.ComplianceInput>

const input = (i: Input): Compliance.ComplianceInput => ({
  percentage: Rate.ZERO_PERCENT,
  flatFee: Rate.NO_FLAT_FEE,
  date: DAY,
  ...i
})

const check = (i: Input, ruleset: Ruleset.Ruleset = R): Compliance.ComplianceVerdict =>
  Either.getOrThrow(Compliance.check(ruleset, input(i)))

/** A consumer credit-card surcharge of `fee` minor units on 100.00 (10000 minor units). */
const on100 = (region: string, fee: number, more: Input = {}): Compliance.ComplianceVerdict =>
  check({ region, cardType: "credit", amount: 10_000, fee, flatPart: 0, ...more })

const codeOf = (v: Compliance.ComplianceVerdict) => v.reasonCode

const ruleOf = (code: string, effectiveFrom?: string | null): Rule => {
  const found = R.rules.find(
    (r) => r.code === code && (effectiveFrom === undefined || r.effectiveFrom === effectiveFrom)
  )
  if (found === undefined) throw new Error(`no rule ${code}`)
  return found
}

/**
 * Florida's version in force today, the plain permissive place the override cases start from
 * (allowed since Dana's Railroad Supply, 11th Cir. 2015-11-04; the version before it is the
 * § 501.0117 ban). Its research clauses are dropped so that an override's flat terms decide.
 */
const floridaToday = (): Rule => {
  const { clauses: _, ...rule } = ruleOf("US-FL", "2015-11-04")
  return rule
}

describe("every reason code has a case from the data", () => {
  const cases: ReadonlyArray<readonly [string, Input, Compliance.ReasonCode]> = [
    [
      "US-CT bans surcharges (§ 42-133ff)",
      { region: "US-CT", cardType: "credit" },
      "fees_prohibited"
    ],
    [
      "US debit: networks forbid it",
      { region: "US-FL", cardType: "debit" },
      "card_type_not_allowed"
    ],
    [
      "US-CO 2 % cap",
      { region: "US-CO", cardType: "credit", percentage: pct("2.01") },
      "percentage_over_limit"
    ],
    [
      "Visa 3 %",
      { region: "US-FL", cardType: "credit", cardNetwork: "visa", percentage: pct("3.01") },
      "network_cap_exceeded"
    ],
    [
      "US-NJ: not more than the actual cost",
      { region: "US-NJ", cardType: "credit", percentage: pct("2.5"), costOfAcceptance: pct("2.2") },
      "over_cost_of_acceptance"
    ],
    // The only maxFlatFee in the data is 0 on prohibited places, so a cap comes from an override (below).
    [
      "US-FL disclosure",
      { region: "US-FL", cardType: "credit", percentage: pct("2"), disclosed: false },
      "disclosure_required"
    ],
    [
      "Visa convenience fee is flat only",
      { region: "US-FL", cardType: "credit", feeType: "convenience_fee", percentage: pct("1") },
      "convenience_fee_must_be_flat"
    ],
    [
      "Visa convenience fee is card-absent only",
      {
        region: "US-FL",
        cardType: "credit",
        feeType: "convenience_fee",
        channel: "in_person",
        flatFee: flat("2")
      },
      "convenience_fee_channel"
    ],
    [
      "US-TX § 604A.0021 unclear",
      { region: "US-TX", cardType: "credit", percentage: pct("2") },
      "legal_uncertainty"
    ],
    ["not a region", { region: "XX", cardType: "credit", percentage: pct("2") }, "unknown_region"]
  ]
  it.each(cases)("%s", (_name, i, code) => {
    const v = check({ percentage: pct("1"), ...i })
    expect(v.compliant).toBe(false)
    expect(v.reasonCode).toBe(code)
    expect(v.reason).toEqual(expect.any(String))
  })

  it("flat_fee_over_limit: an account's maxFlatFee", () => {
    const capped = Ruleset.override(R, [{ ...floridaToday(), maxFlatFee: 1 }], "flat_cap")
    const v = check({ region: "US-FL", cardType: "credit", flatFee: flat("1.01") }, capped)
    expect(v.reasonCode).toBe("flat_fee_over_limit")
  })

  it("cardholder_not_allowed: the dataset's own DE record (PSD2 Art. 62(4), consumers excluded)", () => {
    // Ruleset 1.3.0's research record for DE bans the card (fees_prohibited) instead.
    const dataset = Ruleset.fromSource(source as SourceDataset)
    const v = check({ region: "DE", cardType: "credit", percentage: pct("1") }, dataset)
    expect(v.reasonCode).toBe("cardholder_not_allowed")
  })

  it("the table and the special cases cover every reason code", () => {
    const covered = new Set([
      ...cases.map(([, , code]) => code),
      "flat_fee_over_limit",
      "cardholder_not_allowed",
      "no_region" // compliant, not a failure: the "region absent" case below
    ])
    expect([...covered].sort()).toEqual([...Compliance.reasonCodes].sort())
  })
})

describe("every normalised status, and every status word of the data", () => {
  const TWO = 200 // 2 % of 100.00: under every cap in the data, so only the status decides
  const cases: ReadonlyArray<readonly [string, string, Input, Compliance.ReasonCode | null]> = [
    ["permitted", "US-FL", {}, null],
    ["permitted_with_state_cap", "US-CO", {}, null],
    ["permitted_cost_capped", "US-NJ", {}, null],
    ["permitted_with_network_cap", "CA", { currency: "cad" }, null],
    ["permitted_card_not_present", "NZ", {}, null],
    ["permitted_cost_capped_pending_change", "AU", {}, null],
    ["prohibited", "US-CT", {}, "fees_prohibited"],
    ["prohibited_consumer_cards", "EU", {}, "cardholder_not_allowed"],
    ["prohibited_consumer", "GB", {}, "cardholder_not_allowed"],
    ["uncertain", "US-UT", {}, "legal_uncertainty"],
    ["restricted_all_in_pricing", "US-CA", {}, "legal_uncertainty"],
    // NZ-INSTORE is a channel rule: it binds NZ in store.
    ["prohibited_if_enacted", "NZ", { channel: "in_person" }, "legal_uncertainty"]
  ]
  // The dataset's own ruleset: research records have since replaced AU and NZ (see ResearchRules.test.ts).
  const dataset = Ruleset.fromSource(source as SourceDataset)
  it.each(cases)("%s (%s)", (word, region, more, code) => {
    expect(dataset.rules.some((r) => r.sourceStatus === word)).toBe(true)
    const fee = { region, cardType: "credit" as const, amount: 10_000, fee: TWO, flatPart: 0 }
    expect(codeOf(check({ ...fee, ...more }, dataset))).toBe(code)
  })

  it("network_rule: Visa's rule is no region, but binds on top of a state's law", () => {
    expect(codeOf(on100("US-NETWORK-VISA", TWO))).toBe("unknown_region")
    expect(codeOf(on100("US-FL", 301, { cardNetwork: "visa" }))).toBe("network_cap_exceeded")
  })

  it("normalised statuses: permitted, prohibited and uncertain each decide", () => {
    const statuses = new Set(R.rules.map((r) => r.status))
    expect([...statuses].sort()).toEqual(["permitted", "prohibited", "uncertain"])
    expect(on100("US-FL", TWO).compliant).toBe(true)
    expect(codeOf(on100("US-MA", TWO))).toBe("fees_prohibited")
    expect(codeOf(on100("US-TX", TWO))).toBe("legal_uncertainty")
  })
})

describe("caps at the limit and one minor unit above", () => {
  it("US-CO: 2 % of the total (C.R.S. § 5-2-212 option I)", () => {
    const ok = on100("US-CO", 200)
    expect(ok.compliant).toBe(true)
    expect(ok.reason).toBeNull()
    expect(ok.maxPercentage).toBe(2)
    expect(ok.maxFee).toBe(200)
    const over = on100("US-CO", 201)
    expect(over.reasonCode).toBe("percentage_over_limit")
    expect(over.maxFee).toBe(200)
  })

  it("US-CO: the fee computed from the rates, half-up", () => {
    const at = (percent: string, flatFee = "0") =>
      check({
        region: "US-CO",
        cardType: "credit",
        amount: 10_000,
        percentage: pct(percent),
        flatFee: flat(flatFee)
      })
    expect(at("2").compliant).toBe(true)
    expect(at("2.004").compliant).toBe(true) // 200.4 → 200
    expect(at("2.005").reasonCode).toBe("percentage_over_limit") // 200.5 → 201
    // Caps bind the effective rate: a flat part counts.
    expect(at("1", "1.00").compliant).toBe(true)
    expect(at("1", "1.01").reasonCode).toBe("percentage_over_limit")
    expect(at("0", "2.01").reasonCode).toBe("percentage_over_limit")
  })

  it("without an amount the nominal percentage is checked, and a flat fee only against maxFlatFee", () => {
    const at = (percentage: Rate.Percentage, flatFee = Rate.NO_FLAT_FEE) =>
      check({ region: "US-CO", cardType: "credit", percentage, flatFee })
    expect(at(pct("2")).compliant).toBe(true)
    expect(at(pct("2.0001")).reasonCode).toBe("percentage_over_limit")
    expect(at(pct("2"), flat("25")).compliant).toBe(true)
    expect(at(pct("2")).maxFee).toBeNull()
    expect(at(pct("2")).maxPercentage).toBe(2)
  })

  it("Visa: 3 % in a permissive state (US-FL)", () => {
    expect(on100("US-FL", 300, { cardNetwork: "visa" }).compliant).toBe(true)
    const over = on100("US-FL", 301, { cardNetwork: "visa" })
    expect(over.reasonCode).toBe("network_cap_exceeded")
    expect(over.maxPercentage).toBe(3)
    expect(over.maxFee).toBe(300)
  })

  it("Mastercard: 4 % in the same state", () => {
    expect(on100("US-FL", 400, { cardNetwork: "mastercard" }).compliant).toBe(true)
    const over = on100("US-FL", 401, { cardNetwork: "mastercard" })
    expect(over.reasonCode).toBe("network_cap_exceeded")
    expect(over.maxPercentage).toBe(4)
  })

  it("an unknown network gets the strictest network cap present (Visa 3 %)", () => {
    expect(on100("US-FL", 300).compliant).toBe(true)
    expect(codeOf(on100("US-FL", 301))).toBe("network_cap_exceeded")
    expect(codeOf(on100("US-FL", 301, { cardNetwork: "unionpay" }))).toBe("network_cap_exceeded")
  })

  it("Canada: the networks' 2.4 % (2022 settlement)", () => {
    expect(on100("CA", 240, { currency: "cad" }).compliant).toBe(true)
    const over = on100("CA", 241, { currency: "cad" })
    expect(over.reasonCode).toBe("network_cap_exceeded")
    expect(over.maxPercentage).toBe(2.4)
    expect(over.maxFee).toBe(240)
    // The place's own currency is the default.
    expect(codeOf(on100("CA", 241))).toBe("network_cap_exceeded")
  })

  it("a subdivision inherits its country: CA-ON gets the 2.4 % network cap", () => {
    expect(on100("CA-ON", 240).compliant).toBe(true)
    const over = on100("CA-ON", 241)
    expect(over.reasonCode).toBe("network_cap_exceeded")
    expect(over.rules).toEqual(expect.arrayContaining(["CA", "CA-ON"]))
  })

  it("US-MN: 5 % in law, but Visa's 3 % binds; Mastercard's 4 %; the law where no network caps", () => {
    expect(on100("US-MN", 300, { cardNetwork: "visa" }).compliant).toBe(true)
    expect(codeOf(on100("US-MN", 301, { cardNetwork: "visa" }))).toBe("network_cap_exceeded")
    expect(codeOf(on100("US-MN", 301))).toBe("network_cap_exceeded")
    expect(on100("US-MN", 400, { cardNetwork: "mastercard" }).compliant).toBe(true)
    expect(codeOf(on100("US-MN", 401, { cardNetwork: "mastercard" }))).toBe("network_cap_exceeded")
    // Discover: "not greater than the cost of acceptance", no percentage: the 5 % of § 325G.051 binds.
    expect(on100("US-MN", 500, { cardNetwork: "discover" }).compliant).toBe(true)
    expect(codeOf(on100("US-MN", 501, { cardNetwork: "discover" }))).toBe("percentage_over_limit")
    // American Express "must equal the cap of other card brands processed": Visa's 3 % binds.
    expect(on100("US-MN", 300, { cardNetwork: "amex" }).compliant).toBe(true)
    expect(codeOf(on100("US-MN", 301, { cardNetwork: "amex" }))).toBe("network_cap_exceeded")
  })

  it("cost of acceptance binds where the law or networks cap at cost (US-NJ, US-NY, NZ, AU)", () => {
    for (const region of ["US-NJ", "US-NY", "NZ", "AU"]) {
      const cost = { costOfAcceptance: pct("1.5") }
      expect(on100(region, 150, cost).compliant).toBe(true)
      const over = on100(region, 151, cost)
      expect(over.reasonCode).toBe("over_cost_of_acceptance")
      expect(over.maxFee).toBe(150)
      expect(over.maxPercentage).toBe(1.5)
    }
  })

  it("the lowest cap decides whose it is: law below cost, cost below law", () => {
    // Minnesota's 5 % (§ 325G.051) on a Discover card, whose rule caps at cost alone.
    const discover = { cardNetwork: "discover" }
    expect(codeOf(on100("US-MN", 501, { ...discover, costOfAcceptance: pct("6") }))).toBe(
      "percentage_over_limit"
    )
    expect(codeOf(on100("US-MN", 151, { ...discover, costOfAcceptance: pct("1.5") }))).toBe(
      "over_cost_of_acceptance"
    )
  })
})

describe("card types", () => {
  it("US: credit only, never debit or prepaid (network rules), nor an unknown card type", () => {
    expect(on100("US-FL", 200).compliant).toBe(true)
    expect(codeOf(on100("US-FL", 200, { cardType: "debit" }))).toBe("card_type_not_allowed")
    expect(codeOf(on100("US-FL", 200, { cardType: "prepaid" }))).toBe("card_type_not_allowed")
    expect(codeOf(on100("US-FL", 200, { cardType: undefined }))).toBe("card_type_not_allowed")
    expect(on100("US-FL", 200, { cardType: "debit" }).maxFee).toBe(0)
  })

  it("Canada: no surcharge on Visa debit; Interac's own rule allows a disclosed one (1.3.0)", () => {
    // Chase: "a surcharge may not be assessed on debit or prepaid Cards" (Visa, Mastercard); the
    // dataset's "Interac debit: no surcharge" was not confirmed (research/CA-NETWORK-INTERAC.json).
    expect(codeOf(on100("CA", 200, { cardType: "debit", cardNetwork: "visa" }))).toBe(
      "card_type_not_allowed"
    )
    expect(on100("CA", 200, { cardType: "debit", cardNetwork: "interac" }).compliant).toBe(true)
  })

  it("AU: designated card systems include debit and prepaid, so any card type is fine", () => {
    expect(on100("AU", 200, { cardType: "debit" }).compliant).toBe(true)
    expect(on100("AU", 200, { cardType: "prepaid" }).compliant).toBe(true)
    expect(on100("AU", 200, { cardType: undefined }).compliant).toBe(true)
  })

  it("NZ online: credit and debit", () => {
    expect(on100("NZ", 200, { cardType: "debit" }).compliant).toBe(true)
  })
})

describe("places where fees are prohibited", () => {
  it.each(["US-CT", "US-ME", "US-MA", "US-PR", "CA-QC", "MY"])("%s", (region) => {
    const v = on100(region, 100)
    expect(v.compliant).toBe(false)
    expect(v.reasonCode).toBe("fees_prohibited")
    expect(v.maxPercentage).toBe(0)
    expect(v.maxFee).toBe(0)
    // A zero fee is always compliant.
    const zero = on100(region, 0)
    expect(zero.compliant).toBe(true)
    expect(zero.reasonCode).toBeNull()
    // Without an amount.
    expect(check({ region, cardType: "credit", flatFee: flat("0.01") }).reasonCode).toBe(
      "fees_prohibited"
    )
  })

  it("the prohibition comes before the card type (ME: credit or debit)", () => {
    expect(codeOf(on100("US-ME", 100, { cardType: "debit" }))).toBe("fees_prohibited")
  })

  it("US-CT: a card-based convenience fee is prohibited too", () => {
    const v = check({
      region: "US-CT",
      cardType: "credit",
      feeType: "convenience_fee",
      flatFee: flat("2")
    })
    expect(v.reasonCode).toBe("fees_prohibited")
  })
})

describe("cardholders: EU/EEA and UK ban consumer cards, business cards at cost", () => {
  it.each(["DE", "FR", "DK", "NO"])(
    "%s consumer, card unknown → fees_prohibited (research records 1.3.0: the strictest card is banned)",
    (region) => {
      const v = on100(region, 100)
      expect(v.reasonCode).toBe("fees_prohibited")
      expect(v.maxFee).toBe(0)
    }
  )

  it.each(["EU", "GB", "DE", "FR", "DK", "NO"])(
    "%s consumer card → fees_prohibited (research records: the ban follows the card)",
    (region) => {
      const v = on100(region, 100, { cardNetwork: "visa" })
      expect(v.reasonCode).toBe("fees_prohibited")
      expect(v.maxFee).toBe(0)
    }
  )

  it.each(["GB", "DK", "NO"])("%s business: permitted, at cost", (region) => {
    const business = { cardholder: "business" as const }
    expect(on100(region, 250, business).compliant).toBe(true)
    expect(on100(region, 250, { ...business, cardType: "debit" }).compliant).toBe(true)
    const cost = { ...business, costOfAcceptance: pct("1.8") }
    expect(on100(region, 180, cost).compliant).toBe(true)
    const over = on100(region, 181, cost)
    expect(over.reasonCode).toBe("over_cost_of_acceptance")
    expect(over.maxFee).toBe(180)
  })

  it("EU business: national law not read → legal_uncertainty", () => {
    // DE's § 270a BGB covers consumer payments only: its business cards are permitted at cost (1.3.0).
    expect(codeOf(on100("EU", 100, { cardholder: "business" }))).toBe("legal_uncertainty")
    expect(on100("EU", 100, { cardholder: "business", allowUncertain: true }).compliant).toBe(true)
  })

  it("IT business: prohibited, d.lgs. 11/2010 art. 3(4) binds every payer since 2018 (2.1.0)", () => {
    expect(codeOf(on100("IT", 100, { cardholder: "business" }))).toBe("fees_prohibited")
    expect(on100("IT", 100, { cardholder: "business", allowUncertain: true }).compliant).toBe(false)
  })
})

describe("legally uncertain places", () => {
  it.each(["US-TX", "US-UT", "US-CA"])(
    "%s → legal_uncertainty, compliant with allowUncertain",
    (region) => {
      const v = on100(region, 200)
      expect(v.reasonCode).toBe("legal_uncertainty")
      expect(v.maxFee).toBe(0)
      expect(on100(region, 200, { allowUncertain: false }).reasonCode).toBe("legal_uncertainty")
      expect(on100(region, 200, { allowUncertain: true }).compliant).toBe(true)
    }
  )

  it("opting in does not lift the caps or the card types", () => {
    expect(codeOf(on100("US-TX", 301, { allowUncertain: true }))).toBe("network_cap_exceeded")
    // § 604A.002 bans debit surcharges outright.
    expect(codeOf(on100("US-TX", 100, { allowUncertain: true, cardType: "debit" }))).toBe(
      "card_type_not_allowed"
    )
  })
})

describe("convenience fees (US-CONVENIENCE-FEE-VISA)", () => {
  const cf = (region: string, more: Input = {}) =>
    check({
      region,
      cardType: "credit",
      feeType: "convenience_fee",
      flatFee: flat("1.50"), // 1.5 % of 100.00: under every cap of a permissive state
      amount: 10_000,
      ...more
    })

  it("a flat fee online is fine, and the channel's disclosure is shown", () => {
    const v = cf("US-FL")
    expect(v.compliant).toBe(true)
    expect(v.disclosureText).toBe(ruleOf("US-CONVENIENCE-FEE-VISA").disclosureText)
    const text = Disclosure.render(v.disclosureText, {
      amount: 10_000,
      fee: 150,
      flatPart: 150,
      currency: USD
    })
    expect(text).toContain("A convenience fee of $1.50 applies")
  })

  it("(7) flat or fixed amount: any percentage → convenience_fee_must_be_flat", () => {
    expect(cf("US-FL", { percentage: pct("1") }).reasonCode).toBe("convenience_fee_must_be_flat")
    expect(cf("US-FL", { percentage: pct("1"), amount: undefined }).reasonCode).toBe(
      "convenience_fee_must_be_flat"
    )
    expect(cf("US-FL", { fee: 250, flatPart: 150 }).reasonCode).toBe("convenience_fee_must_be_flat")
  })

  it("(2) card-absent only: in person → convenience_fee_channel", () => {
    expect(cf("US-FL", { channel: "in_person" }).reasonCode).toBe("convenience_fee_channel")
    expect(cf("US-FL", { channel: "online" }).compliant).toBe(true)
  })

  it("(10) not on recurring or instalment transactions", () => {
    expect(cf("US-FL", { recurring: true }).reasonCode).toBe("convenience_fee_channel")
    // A recurring surcharge is not a convenience fee.
    expect(on100("US-FL", 200, { recurring: true }).compliant).toBe(true)
  })

  it("applies to all payment forms: debit in a permissive state is fine", () => {
    expect(cf("US-FL", { cardType: "debit" }).compliant).toBe(true)
    expect(cf("US-FL", { cardType: "prepaid" }).compliant).toBe(true)
    expect(cf("US-IL", { cardType: "debit", cardNetwork: "visa" }).compliant).toBe(true)
  })

  it("…but state law may still forbid it on debit: US-TX § 604A.002, US-CO", () => {
    expect(cf("US-TX", { cardType: "debit", allowUncertain: true }).reasonCode).toBe(
      "card_type_not_allowed"
    )
    expect(cf("US-TX", { cardType: "debit" }).reasonCode).toBe("card_type_not_allowed")
    expect(cf("US-CO", { cardType: "debit" }).reasonCode).toBe("card_type_not_allowed")
    expect(cf("US-CO", { cardType: "credit" }).compliant).toBe(true)
  })

  it("a surcharge in person is not governed by the convenience-fee rule", () => {
    expect(on100("US-FL", 200, { channel: "in_person" }).compliant).toBe(true)
  })
})

describe("channels: NZ in store vs online (research/NZ.json)", () => {
  // Bill 205-2 would prohibit "surcharges on all in-store EFTPOS, Visa and Mastercard payments"
  // (Buddle Findlay), but on 2026-02-19 it still awaited "a second and third reading" (Newstalk ZB):
  // whether it is law is unknown from 2026-03-20, one month after the earliest possible assent.
  const after = { date: "2026-06-01" }
  it("in person on EFTPOS, Visa or Mastercard, or an unknown network → legal_uncertainty", () => {
    for (const cardNetwork of ["eftpos", "visa", "mastercard", undefined]) {
      const v = on100("NZ", 200, { ...after, channel: "in_person", cardNetwork })
      expect(v.reasonCode).toBe("legal_uncertainty")
    }
  })

  it("in person before 2026-03-20, or on another network (Amex), at most the cost → permitted", () => {
    expect(on100("NZ", 200, { date: "2026-03-19", channel: "in_person" }).compliant).toBe(true)
    const amex = { ...after, channel: "in_person" as const, cardNetwork: "amex" }
    expect(on100("NZ", 200, amex).compliant).toBe(true)
  })

  it("online (the default channel) is permitted", () => {
    expect(on100("NZ", 200, after).compliant).toBe(true)
    expect(on100("NZ", 200, { ...after, channel: "online", cardNetwork: "visa" }).compliant).toBe(
      true
    )
  })
})

describe("disclosure", () => {
  it("disclosed: false → disclosure_required; a zero fee needs none", () => {
    const v = on100("US-FL", 200, { disclosed: false })
    expect(v.reasonCode).toBe("disclosure_required")
    expect(v.maxFee).toBe(0)
    expect(on100("US-FL", 200, { disclosed: true }).compliant).toBe(true)
    expect(on100("US-FL", 0, { disclosed: false }).compliant).toBe(true)
  })

  it("the order of checks: prohibition, then uncertainty, then disclosure", () => {
    expect(codeOf(on100("US-CT", 200, { disclosed: false }))).toBe("fees_prohibited")
    expect(codeOf(on100("US-TX", 200, { disclosed: false }))).toBe("legal_uncertainty")
    expect(codeOf(on100("US-FL", 200, { disclosed: false }))).toBe("disclosure_required")
  })

  it("the disclosure text is the place's own wording (CO: statutory)", () => {
    const co = on100("US-CO", 200)
    expect(co.disclosureText).toContain("pursuant to section 5-2-212, Colorado Revised Statutes")
    expect(on100("US-KS", 250).disclosureText).toBe(ruleOf("US-KS", "2025-01-01").disclosureText)
    expect(on100("US-NY", 250).disclosureText).toBe(ruleOf("US-NY", "2024-02-11").disclosureText)
  })

  it("the rendered disclosure fills the placeholders: the effective rate, the totals as money", () => {
    const render = (region: string, fee: number, amount = 10_000) =>
      Disclosure.render(on100(region, fee).disclosureText, {
        amount,
        fee,
        flatPart: 0,
        currency: USD
      })
    // K.S.A.: "A {rate}% surcharge applies to credit card payments."
    expect(render("US-KS", 250)).toBe("A 2.5% surcharge applies to credit card payments.")
    expect(render("US-KS", 199)).toBe("A 1.99% surcharge applies to credit card payments.")
    expect(render("US-KS", 300, 20_000)).toBe("A 1.5% surcharge applies to credit card payments.")
    expect(render("US-NY", 300)).toBe(
      "Credit card price: $103.00 (includes a 3% card surcharge). Cash/debit price: $100.00."
    )
  })
})

describe("effective dates", () => {
  const at = (region: string, fee: number, date: string, more: Input = {}) =>
    on100(region, fee, { date, ...more })

  it("Visa: 4 % until 2023-04-14, 3 % from 2023-04-15", () => {
    const visa = { cardNetwork: "visa" }
    expect(at("US-FL", 400, "2023-04-14", visa).compliant).toBe(true)
    expect(at("US-FL", 401, "2023-04-14", visa).reasonCode).toBe("network_cap_exceeded")
    expect(at("US-FL", 301, "2023-04-15", visa).reasonCode).toBe("network_cap_exceeded")
    expect(at("US-FL", 300, "2023-04-15", visa).compliant).toBe(true)
  })

  it("US-OK: prohibited before 2025-11-01 (old § 2-417), 2 % from then (SB 677)", () => {
    expect(at("US-OK", 100, "2025-10-31").reasonCode).toBe("fees_prohibited")
    expect(at("US-OK", 200, "2025-11-01").compliant).toBe(true)
    expect(at("US-OK", 201, "2025-11-01").reasonCode).toBe("percentage_over_limit")
  })

  it("no rule known on a date → legal_uncertainty, naming that date (a rule that starts later)", () => {
    // A place whose only version starts on 2030-01-01, alone in its ruleset. The shipped places
    // are being dated back to 1900 as they are re-checked (US since the network re-check: before
    // 2013-01-27 its law is uncertain and the Visa and Mastercard no-surcharge rules bind), so a
    // gap is made here rather than looked for in the data.
    const later = Ruleset.make(
      [{ ...ruleOf("US-FL"), effectiveFrom: "2030-01-01", effectiveUntil: null }],
      "starts_later"
    )
    const i = { region: "US-FL", cardType: "credit" as const, amount: 10_000, fee: 200 }
    const v = check({ ...i, date: "2029-12-31" }, later)
    expect(v.reasonCode).toBe("legal_uncertainty")
    expect(v.reason).toContain("2029-12-31")
    // The message names the day asked about, not one asked about before.
    expect(check({ ...i, date: "2029-12-30" }, later).reason).toContain("2029-12-30")
    expect(check({ ...i, date: "2030-01-01" }, later).reasonCode).not.toBe("legal_uncertainty")
  })

  it("US-KS: the 1986 ban until CardX (2021-02-25), then allowed (research record, 2026-11)", () => {
    expect(at("US-KS", 200, "2021-02-24").reasonCode).toBe("fees_prohibited")
    expect(at("US-KS", 200, "2021-02-25").compliant).toBe(true)
    expect(at("US-KS", 200, "2025-01-01").compliant).toBe(true)
  })

  it("AU: eftpos, Mastercard and Visa surcharges end on 2026-10-01 (RBA conclusions)", () => {
    // "From 1 October 2026 ... designated card networks – currently EFTPOS, Mastercard, and Visa
    // – to impose 'no-surcharge' rules" (Sierra Legal); Amex is outside the removal.
    expect(at("AU", 200, "2026-09-30", { cardNetwork: "visa" }).compliant).toBe(true)
    expect(at("AU", 200, "2026-10-01", { cardNetwork: "visa" }).reasonCode).toBe("fees_prohibited")
    expect(at("AU", 200, "2026-10-01").reasonCode).toBe("fees_prohibited")
    expect(at("AU", 200, "2026-10-01", { cardNetwork: "amex" }).compliant).toBe(true)
  })

  it("Canada before the 2022-10-06 settlement: the networks' no-surcharge rules → fees_prohibited", () => {
    // Cash Matters: the networks "modified their no-surcharge rules" from 2022-10-06 (1.3.0).
    expect(at("CA", 200, "2022-10-05").reasonCode).toBe("fees_prohibited")
    expect(at("CA", 200, "2022-10-06").compliant).toBe(true)
  })

  it("the date defaults to today (UTC)", () => {
    const today = Day.toIso(Day.fromMillis(Date.now()))
    const i = { region: "US-CO", cardType: "credit" as const, amount: 10_000, fee: 201 }
    const implicit = Either.getOrThrow(
      Compliance.check(R, { percentage: Rate.ZERO_PERCENT, flatFee: Rate.NO_FLAT_FEE, ...i })
    )
    expect(implicit).toEqual(check({ ...i, date: today }))
  })

  it("an answer for a later day never stands in for today's (an account's future version)", () => {
    const custom = Ruleset.override(
      R,
      [{ ...floridaToday(), effectiveFrom: "2099-01-01", status: "prohibited", cardTypes: [] }],
      "future_ban"
    )
    const i = { region: "US-FL", cardType: "credit" as const, amount: 10_000, fee: 200 }
    expect(check({ ...i, date: "2099-06-01" }, custom).reasonCode).toBe("fees_prohibited")
    const today = Either.getOrThrow(
      Compliance.check(custom, { percentage: Rate.ZERO_PERCENT, flatFee: Rate.NO_FLAT_FEE, ...i })
    )
    expect(today.compliant).toBe(true)
    expect(check({ ...i, date: "2098-12-31" }, custom).compliant).toBe(true)
    expect(check({ ...i, date: "2099-01-01" }, custom).reasonCode).toBe("fees_prohibited")
  })

  it("an invalid date is refused whatever was asked before, even for an unknown region", () => {
    expect(on100("XX", 100).reasonCode).toBe("unknown_region")
    const result = Compliance.check(R, input({ region: "XX", date: "2025-02-30" }))
    expect(Either.isLeft(result) && result.left.param).toBe("date")
  })

  it.each(["2025-02-30", "2025-2-1", "yesterday", "2025-13-01", ""])(
    "an invalid date %j is a FeeError naming date",
    (date) => {
      const result = Compliance.check(R, input({ region: "US-CO", date }))
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) {
        expect(result.left.param).toBe("date")
        expect(result.left.code).toBe("parameter_invalid")
      }
    }
  )
})

describe("regions", () => {
  it.each(["XX", "US-ZZ", "ZZ-ON", "US-NETWORK-VISA", "US-CONVENIENCE-FEE-VISA", "NZ-INSTORE", ""])(
    "%j → unknown_region",
    (region) => {
      const v = on100(region, 100)
      expect(v.compliant).toBe(false)
      expect(v.reasonCode).toBe("unknown_region")
      expect(v.region).toBe(region)
      expect(on100(region, 0).reasonCode).toBe("unknown_region")
    }
  )

  it("region absent or null: no rules apply, region null, and the answer says so (no_region)", () => {
    for (const region of [undefined, null]) {
      const v = check({ region, cardType: "debit", percentage: pct("50"), amount: 10_000 })
      expect(v.compliant).toBe(true)
      expect(v.region).toBeNull()
      expect(v.reasonCode).toBe("no_region")
      expect(v.reason).toBeNull()
      expect(v.maxFee).toBeNull()
      expect(v.rulesetVersion).toBe(R.version)
    }
  })

  it("the region is echoed as sent", () => {
    expect(on100("US-CO", 200).region).toBe("US-CO")
  })

  it("every answer names the ruleset version, the version of @levy/rules", () => {
    expect(R.version).toMatch(/^\d+\.\d+\.\d+$/)
    for (const region of ["US-CO", "XX", "US-CT", "GB"]) {
      expect(on100(region, 100).rulesetVersion).toBe(R.version)
    }
  })

  it("an unsupported currency is a FeeError naming currency", () => {
    const result = Compliance.check(R, input({ region: "US-CO", amount: 10_000, currency: "xyz" }))
    expect(Either.isLeft(result) && result.left.param).toBe("currency")
  })
})

describe("maxFee", () => {
  const max = (region: string | null, more: Input = {}) =>
    Either.getOrThrow(
      Compliance.maxFee(R, { ...input({ region, cardType: "credit", ...more }), amount: 10_000 })
    )
  it("the largest compliant fee in minor units", () => {
    expect(max("US-CO")).toBe(200)
    expect(max("US-FL")).toBe(300)
    expect(max("US-FL", { cardNetwork: "mastercard" })).toBe(400)
    expect(max("CA")).toBe(240)
    expect(max("US-CT")).toBe(0)
    expect(max(null)).toBeNull()
    expect(max("GB", { cardholder: "business" })).toBeNull()
  })

  it("rounds down: 2 % of 9999 is 199", () => {
    expect(
      Either.getOrThrow(
        Compliance.maxFee(R, { ...input({ region: "US-CO", cardType: "credit" }), amount: 9_999 })
      )
    ).toBe(199)
  })
})

describe("adjustToCompliant and charges", () => {
  const adjust = (i: Input & { amount: number; fee: number; flatPart: number }) =>
    Either.getOrThrow(Compliance.adjustToCompliant(R, { ...input(i), ...i }))

  it("lowers an over-cap fee to the cap and keeps the original verdict", () => {
    const a = adjust({
      region: "US-CO",
      cardType: "credit",
      amount: 10_000,
      fee: 320,
      flatPart: 30
    })
    expect(a.fee).toBe(200)
    expect(a.verdict.compliant).toBe(true)
    expect(a.original.reasonCode).toBe("percentage_over_limit")
  })

  it("0 where fees are prohibited or the card type is not allowed", () => {
    expect(
      adjust({ region: "US-CT", cardType: "credit", amount: 10_000, fee: 320, flatPart: 30 }).fee
    ).toBe(0)
    expect(
      adjust({ region: "US-FL", cardType: "debit", amount: 10_000, fee: 320, flatPart: 30 }).fee
    ).toBe(0)
  })

  it("a compliant fee is kept", () => {
    const a = adjust({
      region: "US-FL",
      cardType: "credit",
      amount: 10_000,
      fee: 250,
      flatPart: 30
    })
    expect(a.fee).toBe(250)
    expect(a.verdict).toBe(a.original)
  })

  it("a convenience fee with a percentage keeps its flat part only", () => {
    const a = adjust({
      region: "US-FL",
      cardType: "credit",
      feeType: "convenience_fee",
      amount: 10_000,
      fee: 350,
      flatPart: 250
    })
    expect(a.original.reasonCode).toBe("convenience_fee_must_be_flat")
    expect(a.original.maxFee).not.toBe(0)
    expect(a.fee).toBe(250)
    expect(a.verdict.compliant).toBe(true)
  })

  it("a convenience fee that would be blocked even if flat is lowered to 0", () => {
    const base = {
      region: "US-FL",
      cardType: "credit" as const,
      feeType: "convenience_fee" as const,
      amount: 10_000,
      fee: 350,
      flatPart: 250
    }
    const undisclosed = adjust({ ...base, disclosed: false })
    expect(undisclosed.original.reasonCode).toBe("convenience_fee_must_be_flat")
    expect(undisclosed.original.maxFee).toBe(0)
    expect(undisclosed.fee).toBe(0)
    expect(undisclosed.verdict.compliant).toBe(true)
    const texas = adjust({ ...base, region: "US-TX" })
    expect(texas.original.maxFee).toBe(0)
    expect(texas.fee).toBe(0)
  })

  it("an unknown region collects no fee", () => {
    const a = adjust({ region: "XX", cardType: "credit", amount: 10_000, fee: 320, flatPart: 30 })
    expect(a.fee).toBe(0)
    expect(a.verdict.reasonCode).toBe("unknown_region")
  })

  it("chargeQuote lowers the spec's 2.9 % + 0.30 to Colorado's 2 %", () => {
    const q = Either.getOrThrow(
      Estimate.chargeQuote(FeeSchedule.DEFAULT, R, {
        amount: 10_000,
        currency: "usd",
        region: "US-CO",
        cardType: "credit",
        date: DAY
      })
    )
    expect(q.convenienceFee).toBe(200)
    expect(q.totalAmount).toBe(10_200)
    expect(q.adjustment).toBe(-120)
    expect(q.compliant).toBe(true)
    expect(q.configured.reasonCode).toBe("percentage_over_limit")
    expect(q.configured.convenienceFee).toBe(320)
    expect(q.configured.totalAmount).toBe(10_320)
  })

  it("an estimate is what a charge collects: US-NY Visa credit, 2.9 % + 0.30 on 100.00 → 300", () => {
    const request = {
      amount: 10_000,
      currency: "usd",
      region: "US-NY",
      cardType: "credit",
      cardNetwork: "visa",
      date: DAY
    } as const
    const e = Either.getOrThrow(Estimate.estimate(FeeSchedule.DEFAULT, R, request))
    const c = Either.getOrThrow(Estimate.chargeQuote(FeeSchedule.DEFAULT, R, request))
    expect(e).toEqual(c)
    expect(e.convenienceFee).toBe(300)
    expect(e.totalAmount).toBe(10_300)
    expect(e.adjustment).toBe(-20)
    expect(e.compliant).toBe(true)
    expect(e.compliance.reasonCode).toBeNull()
    // The configured fee and why it was lowered, beside it.
    expect(e.configured).toMatchObject({
      convenienceFee: 320,
      totalAmount: 10_320,
      compliant: false,
      reasonCode: "network_cap_exceeded"
    })
    // The disclosure describes the 3 % collected, not the 3.2 % configured.
    expect(e.compliance.disclosureText).toBe(
      "Credit card price: $103.00 (includes a 3% card surcharge). Cash/debit price: $100.00."
    )
    // Under nonCompliant: "reject" the configured fee is what a charge would be refused for.
    const rejected = Estimate.asConfigured(e)
    expect(rejected.convenienceFee).toBe(320)
    expect(rejected.compliant).toBe(false)
    expect(rejected.compliance.reasonCode).toBe("network_cap_exceeded")
  })
})

describe("custom rulesets", () => {
  it("Ruleset.override: US-FL capped at 1 % changes the answer and names the override", () => {
    const custom = Ruleset.override(R, [{ ...floridaToday(), maxPercentage: 1 }], "acct_fl_1pct")
    expect(custom.version).toBe(`${R.version}+acct_fl_1pct`)
    expect(on100("US-FL", 101).compliant).toBe(true)
    const v = check(
      { region: "US-FL", cardType: "credit", amount: 10_000, fee: 101, flatPart: 0 },
      custom
    )
    expect(v.reasonCode).toBe("percentage_over_limit")
    expect(v.rulesetVersion).toBe(custom.version)
    expect(v.maxFee).toBe(100)
    expect(
      check({ region: "US-FL", cardType: "credit", amount: 10_000, fee: 100 }, custom).compliant
    ).toBe(true)
    // The shipped ruleset is unchanged.
    expect(on100("US-FL", 300).compliant).toBe(true)
  })

  it("maxFlatFee via an override → flat_fee_over_limit, with and without an amount", () => {
    const custom = Ruleset.override(R, [{ ...floridaToday(), maxFlatFee: 1 }], "flat1")
    const at = (f: string, amount?: number) =>
      check({ region: "US-FL", cardType: "credit", flatFee: flat(f), amount }, custom)
    expect(at("1").compliant).toBe(true)
    expect(at("1.001").reasonCode).toBe("flat_fee_over_limit")
    expect(at("1.00", 10_000).compliant).toBe(true)
    expect(at("1.01", 10_000).reasonCode).toBe("flat_fee_over_limit")
    const a = Either.getOrThrow(
      Compliance.adjustToCompliant(custom, {
        ...input({ region: "US-FL", cardType: "credit" }),
        amount: 10_000,
        fee: 250,
        flatPart: 150
      })
    )
    expect(a.fee).toBe(200)
    expect(a.verdict.compliant).toBe(true)
  })

  it("an added subdivision inherits its country's law (AU's cost cap and its 2026-10-01 change)", () => {
    const { clauses: _, effectiveUntil: __, ...au } = ruleOf("AU", "2016-09-01")
    const nsw: Rule = {
      ...au,
      code: "AU-NSW",
      state: "New South Wales",
      status: "permitted",
      costOfAcceptanceCap: false,
      effectiveFrom: null
    }
    const custom = Ruleset.override(R, [nsw], "nsw")
    const at = (fee: number, more: Input = {}) =>
      check({ region: "AU-NSW", cardType: "debit", amount: 10_000, fee, ...more }, custom)
    expect(at(200).compliant).toBe(true)
    expect(at(151, { costOfAcceptance: pct("1.5") }).reasonCode).toBe("over_cost_of_acceptance")
    expect(at(100, { date: "2026-10-01" }).reasonCode).toBe("fees_prohibited")
    expect(codeOf(on100("AU-NSW", 100))).toBe("unknown_region")
  })

  it.effect("ComplianceRules.withOverrides answers with the overridden ruleset", () =>
    Effect.gen(function* () {
      const rules = yield* ComplianceRules
      const v = yield* rules.check(
        input({ region: "US-FL", cardType: "credit", amount: 10_000, fee: 101 })
      )
      expect(v.reasonCode).toBe("percentage_over_limit")
      expect(v.rulesetVersion).toBe(`${R.version}+acct_1`)
    }).pipe(
      Effect.provide(
        ComplianceRules.withOverrides([{ ...floridaToday(), maxPercentage: 1 }], "acct_1")
      )
    )
  )
})

/** The disclosure a payer is shown: rendered for the fee collected, in the charge's currency. */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as Currency from "../src/Currency.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Disclosure from "../src/Disclosure.js"
import * as Estimate from "../src/Estimate.js"
import * as FeeSchedule from "../src/FeeSchedule.js"
import * as Rate from "../src/Rate.js"

const R = Ruleset.DEFAULT
const DAY = "2025-12-01"

const schedule = (input: FeeSchedule.FeeScheduleInput) => Either.getOrThrow(FeeSchedule.make(input))

const quote = (s: FeeSchedule.FeeSchedule, request: Estimate.FeeRequest) =>
  Either.getOrThrow(Estimate.chargeQuote(s, R, { date: DAY, ...request }))

const unit = (code: string) => Currency.lookup(code)!

describe("Currency.format", () => {
  it("shows an amount with its symbol or code and the digits a price has", () => {
    expect(Currency.format(unit("usd"), 10_320)).toBe("$103.20")
    expect(Currency.format(unit("jpy"), 1_000)).toBe("¥1,000")
    // ISK and HUF: two decimals on the wire, whole units in a price.
    expect(Currency.format(unit("isk"), 500_000)).toBe("ISK 5,000")
    expect(Currency.format(unit("huf"), 500_000)).toBe("HUF 5,000")
    expect(Currency.format(unit("bhd"), 1_230)).toBe("BHD 1.230")
    expect(Currency.format(unit("usd"), 99_999_999)).toBe("$999,999.99")
  })
})

describe("Disclosure.render", () => {
  const charged = (fee: number, code = "usd", amount = 10_000): Disclosure.Charged => ({
    amount,
    fee,
    flatPart: 0,
    currency: unit(code)
  })

  it("fills every placeholder as money in the charge's currency", () => {
    const text = "Card {credit_total}, cash {cash_total}, fee {fee} ({rate}%)."
    expect(Disclosure.render(text, charged(300))).toBe(
      "Card $103.00, cash $100.00, fee $3.00 (3%)."
    )
    expect(Disclosure.render(text, charged(100, "jpy", 5_000))).toBe(
      "Card ¥5,100, cash ¥5,000, fee ¥100 (2%)."
    )
    expect(Disclosure.render(text, charged(10, "bhd", 1_000))).toBe(
      "Card BHD 1.010, cash BHD 1.000, fee BHD 0.010 (1%)."
    )
  })

  it("a template's own $ before a placeholder is not doubled", () => {
    expect(
      Disclosure.render(`A convenience fee of $${"{flat}"} applies.`, {
        ...charged(150),
        flatPart: 150
      })
    ).toBe("A convenience fee of $1.50 applies.")
  })

  it("no fee, no disclosure; no template, none either", () => {
    expect(Disclosure.render("We add a surcharge of {rate}%.", charged(0))).toBeNull()
    expect(Disclosure.render(null, charged(300))).toBeNull()
  })

  it("a notice that no fee is charged is replaced when a fee is charged", () => {
    const uk = "No surcharge is charged for paying by card or other payment method."
    expect(Disclosure.render(uk, charged(100, "gbp"))).toBe(
      "A card surcharge of £1.00 (1% of the amount) is added to this payment: you pay £101.00 instead of £100.00."
    )
    // A text naming a fee and a card it is not charged on is kept.
    const nz = "A surcharge of {rate}% applies to credit card payments. No surcharge on debit."
    expect(Disclosure.render(nz, charged(100))).toBe(
      "A surcharge of 1% applies to credit card payments. No surcharge on debit."
    )
  })

  it("researchers' bracketed notes are not shown to the payer", () => {
    expect(
      Disclosure.render("Pay {rate}% by card. [Option (II) wording: '...cost.']", charged(200))
    ).toBe("Pay 2% by card.")
  })
})

describe("every quote carries the rendered text", () => {
  it("US-NY: the totals of the fee collected, in dollars", () => {
    const q = quote(FeeSchedule.DEFAULT, {
      amount: 10_000,
      currency: "usd",
      region: "US-NY",
      cardType: "credit",
      cardNetwork: "visa"
    })
    expect(q.convenienceFee).toBe(300)
    expect(q.compliance.disclosureText).toBe(
      "Credit card price: $103.00 (includes a 3% card surcharge). Cash/debit price: $100.00."
    )
  })

  it("US-CO: the statute's text without the research note", () => {
    const q = quote(schedule({ percentage: "2", flatFee: "0" }), {
      amount: 10_000,
      currency: "usd",
      region: "US-CO",
      cardType: "credit"
    })
    expect(q.convenienceFee).toBe(200)
    expect(q.compliance.disclosureText).toContain("Colorado Revised Statutes")
    expect(q.compliance.disclosureText).not.toContain("[")
    expect(q.compliance.disclosureText).not.toContain("Option (II)")
  })

  it("a fee of 0 (a debit card in US-FL) has no disclosure, not 'a surcharge of 0%'", () => {
    const q = quote(FeeSchedule.DEFAULT, {
      amount: 10_000,
      currency: "usd",
      region: "US-FL",
      cardType: "debit"
    })
    expect(q.convenienceFee).toBe(0)
    expect(q.compliance.disclosureText).toBeNull()
    const zero = quote(schedule({ percentage: "0", flatFee: "0" }), {
      amount: 10_000,
      currency: "usd",
      region: "US-FL",
      cardType: "credit"
    })
    expect(zero.compliance.disclosureText).toBeNull()
  })

  it("a surcharged UK business card is not told that no surcharge is charged", () => {
    const q = quote(schedule({ percentage: "1", flatFee: "0" }), {
      amount: 10_000,
      currency: "gbp",
      region: "GB",
      cardType: "credit",
      cardholder: "business",
      costOfAcceptance: Rate.percent("1.5")
    })
    expect(q.convenienceFee).toBe(100)
    expect(q.compliance.disclosureText).not.toContain("No surcharge")
    expect(q.compliance.disclosureText).toContain("£1.00")
  })

  it("every rendered text of the shipped data has no placeholder or note left", () => {
    for (const code of R.places.keys()) {
      const q = Estimate.chargeQuote(schedule({ percentage: "1", flatFee: "0" }), R, {
        amount: 10_000,
        currency: "usd",
        region: code,
        cardType: "credit",
        cardholder: "business",
        allowUncertain: true,
        date: DAY
      })
      if (Either.isLeft(q)) continue
      const text = q.right.compliance.disclosureText
      if (text === null) continue
      expect(text, code).not.toMatch(/[{}[\]]/)
    }
  })
})

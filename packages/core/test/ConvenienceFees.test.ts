/**
 * The card networks' convenience fee (research/US-CONVENIENCE-FEE-VISA.json), against Visa's
 * conditions as the sources read quote them: a flat amount only, only in a channel that is not
 * the merchant's standard one, never on a recurring payment, and on every card in that channel.
 * Florida (no state cap on a convenience fee) is the place, so only the network rule decides.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as Compliance from "../src/compliance/Compliance.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Rate from "../src/Rate.js"
import { pct, today } from "./lawCases.js"

type Input = Partial<Compliance.ComplianceInput>

/** A convenience fee of `fee` minor units (`flatPart` of it flat) on 100.00, paid online in US-FL. */
const cf = (fee: number, flatPart: number, more: Input = {}) =>
  Either.getOrThrow(
    Compliance.check(Ruleset.DEFAULT, {
      region: "US-FL",
      cardType: "credit",
      cardNetwork: "visa",
      feeType: "convenience_fee",
      channel: "online",
      amount: 10_000,
      fee,
      flatPart,
      percentage: Rate.ZERO_PERCENT,
      flatFee: Rate.NO_FLAT_FEE,
      date: today,
      ...more
    })
  )

/** A merchant whose standard channel is the counter, taking a payment online. */
const inStoreMerchant: Input = { standardChannel: "in_person" }

describe("flat only", () => {
  // Payscout (Visa's conditions): "7. A flat or fixed amount, regardless of the value of the
  // payment due"; Bank of America Merchant Services: "Fee must be a flat or fixed amount,
  // regardless of the total amount due".
  it("a flat 2.00 is compliant, on 100.00 as on 10.00 (no cap by value)", () => {
    expect(cf(200, 200, inStoreMerchant).compliant).toBe(true)
    expect(cf(200, 200, { ...inStoreMerchant, amount: 1_000 }).compliant).toBe(true)
  })

  it("a fee with any percentage part → convenience_fee_must_be_flat", () => {
    const mixed = cf(200, 100, inStoreMerchant)
    expect(mixed.reasonCode).toBe("convenience_fee_must_be_flat")
    expect(mixed.reason).toContain("US-CONVENIENCE-FEE-VISA")
    const rate = { ...inStoreMerchant, fee: undefined, flatPart: undefined, percentage: pct("2") }
    expect(cf(0, 0, rate).reasonCode).toBe("convenience_fee_must_be_flat")
  })

  it("lowered to compliance, 1.00 + 1 % keeps its flat 1.00", () => {
    const adjusted = Either.getOrThrow(
      Compliance.adjustToCompliant(Ruleset.DEFAULT, {
        region: "US-FL",
        cardType: "credit",
        cardNetwork: "visa",
        feeType: "convenience_fee",
        channel: "online",
        standardChannel: "in_person",
        amount: 10_000,
        fee: 200,
        flatPart: 100,
        percentage: pct("1"),
        flatFee: Rate.flat("1"),
        date: today
      })
    )
    expect(adjusted.fee).toBe(100)
    expect(adjusted.verdict.compliant).toBe(true)
  })
})

describe("only in a channel that is not the merchant's standard one", () => {
  // Payscout: "1. Charged for a bona fide convenience in the form of an alternative payment
  // channel outside the Merchant's customary payment channels", "2. Added only to a Transaction
  // completed in a Card-Absent Environment", "3. Not charged if the Merchant operates exclusively
  // in a Card-Absent Environment"; Finix: "different from their standard channel (historically
  // mail or in-person)".
  it("online, for a merchant whose standard channel is in person: compliant", () => {
    expect(cf(200, 200, inStoreMerchant).compliant).toBe(true)
  })

  it("online, for an online-only merchant (its standard channel) → convenience_fee_channel", () => {
    const onlineOnly = cf(200, 200, { standardChannel: "online" })
    expect(onlineOnly.reasonCode).toBe("convenience_fee_channel")
    expect(onlineOnly.reason).toContain("outside the merchant's standard payment channel")
  })

  it("in person (card present), whatever the standard channel → convenience_fee_channel", () => {
    for (const standardChannel of [undefined, "online", "in_person"] as const) {
      const v = cf(200, 200, { channel: "in_person", standardChannel })
      expect(v.reasonCode).toBe("convenience_fee_channel")
      expect(v.maxFee).toBe(0)
    }
  })
})

describe("never on a recurring payment", () => {
  // Payscout: "10. Not charged on a Recurring Transaction or an Installment Transaction."; the
  // combined Visa/MasterCard guidelines: "A convenience fee cannot be assessed for recurring payments."
  it("a recurring payment → convenience_fee_channel; the same fee once is compliant", () => {
    const recurring = cf(200, 200, { ...inStoreMerchant, recurring: true })
    expect(recurring.reasonCode).toBe("convenience_fee_channel")
    expect(recurring.reason).toContain("recurring payments")
    expect(cf(200, 200, { ...inStoreMerchant, recurring: false }).compliant).toBe(true)
  })
})

describe("on every card in the channel", () => {
  // Payscout: "5. Applicable to all forms of payment accepted in the payment channel"; the combined
  // guidelines: "it must be for all payments (V, MC, Discover, AMEX, ACH, Check) within a
  // particular payment channel": a fee that must be Visa's on a Visa card binds the other cards too.
  it.each([
    ["a Mastercard", "mastercard"],
    ["an American Express", "amex"],
    ["a Discover", "discover"],
    ["an unknown network's", undefined]
  ])("%s card: flat is compliant, a percentage is not", (_, cardNetwork) => {
    expect(cf(200, 200, { ...inStoreMerchant, cardNetwork }).compliant).toBe(true)
    const mixed = cf(200, 100, { ...inStoreMerchant, cardNetwork })
    expect(mixed.reasonCode).toBe("convenience_fee_must_be_flat")
  })

  it.each(["debit", "prepaid"] as const)("a %s card: compliant (not a surcharge)", (cardType) => {
    expect(cf(200, 200, { ...inStoreMerchant, cardType }).compliant).toBe(true)
  })
})

describe("the record", () => {
  it("is a research record with its sources quoted, low confidence (no primary source read), and no start date", () => {
    const rule = Ruleset.DEFAULT.rules.find((r) => r.code === "US-CONVENIENCE-FEE-VISA")!
    expect(rule.sourceStatus).toBe("research")
    // Visa's rules were read only in reproductions (docs/compliance.md, Sourcing standard).
    expect(rule.confidence).toBe("low")
    expect(rule.effectiveFrom).toBeNull()
    expect(rule.citations?.some((c) => c.quote.includes("A flat or fixed amount"))).toBe(true)
    expect(rule).toMatchObject({
      channels: ["online"],
      flatOnly: true,
      recurringAllowed: false,
      standardChannelOnly: true,
      networks: ["visa"],
      feeTypes: ["convenience_fee"]
    })
  })
})

/**
 * Conditions on the transaction amount (a clause's `scope.amount`, minor units of a stated
 * currency, both ends inclusive). Utah's S.B. 67 (2013), enrolled on le.utah.gov: it "prohibits
 * sellers from imposing a surcharge on a transaction for $10,000 or less that is paid for with a
 * credit card" and "repeals the provisions ... on June 30, 2014" (research record US-UT).
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import * as AmountCondition from "../src/compliance/AmountCondition.js"
import * as Clauses from "../src/compliance/Clauses.js"
import * as Compliance from "../src/compliance/Compliance.js"
import type { Clause, RuleStatus, Terms } from "../src/compliance/Rule.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Decimal from "../src/Decimal.js"
import * as Rate from "../src/Rate.js"
import { CREDIT_ONLINE } from "./support.js"

/** A 2 % credit-card surcharge on `amount` cents in Utah on `date`. */
const utah = (amount: number, date: string, more: Partial<Compliance.ComplianceInput> = {}) =>
  Either.getOrThrow(
    Compliance.check(Ruleset.DEFAULT, {
      region: "US-UT",
      cardNetwork: "visa",
      cardType: "credit",
      amount,
      fee: Math.floor(amount / 50),
      flatPart: 0,
      percentage: Rate.partsPerMillion(20_000),
      flatFee: Rate.flatFromDecimal(Decimal.ZERO),
      date,
      ...more
    })
  )

const TEN_THOUSAND_DOLLARS = 1_000_000

describe("Utah, 2013-05-14 to 2014-06-29: no credit-card surcharge on a transaction of $10,000 or less", () => {
  it("$10,000.00 exactly is 'or less': no fee on a credit card, the reason naming Utah and the amount", () => {
    const verdict = utah(TEN_THOUSAND_DOLLARS, "2013-06-01")
    expect(verdict.reasonCode).toBe("card_type_not_allowed")
    expect(verdict.reason).toBe(
      "Fees may not be charged on credit cards under the law of Utah (US-UT), for a transaction of at most 10000.00 USD: no card type."
    )
    expect(verdict.maxFee).toBe(0)
  })

  it("one cent more is outside the section: the law there stays uncertain, and an opted-in account may charge", () => {
    const above = utah(TEN_THOUSAND_DOLLARS + 1, "2013-06-01")
    expect(above.reasonCode).toBe("legal_uncertainty")
    expect(above.reason).toBe(
      "The law on card fees in Utah (US-UT), for a transaction above 10000.00 USD is uncertain; the account must opt in (allowUncertain) to charge one."
    )
    expect(utah(TEN_THOUSAND_DOLLARS + 1, "2013-06-01", { allowUncertain: true }).compliant).toBe(
      true
    )
  })

  it("in force from the session's general effective date (2013-05-14) until the repeal date (2014-06-30)", () => {
    expect(utah(5_000, "2013-05-13").reasonCode).toBe("legal_uncertainty")
    expect(utah(5_000, "2013-05-14").reasonCode).toBe("card_type_not_allowed")
    expect(utah(5_000, "2014-06-29").reasonCode).toBe("card_type_not_allowed")
    expect(utah(5_000, "2014-06-30").reasonCode).toBe("legal_uncertainty")
  })

  it("an amount not known in dollars binds the strictest side: no amount, or another currency", () => {
    const noAmount = Either.getOrThrow(
      Compliance.check(Ruleset.DEFAULT, {
        region: "US-UT",
        cardType: "credit",
        percentage: Rate.partsPerMillion(20_000),
        flatFee: Rate.flatFromDecimal(Decimal.ZERO),
        date: "2013-06-01",
        allowUncertain: true
      })
    )
    expect(noAmount.reasonCode).toBe("card_type_not_allowed")
    expect(noAmount.reason).toContain("whose amount is not known in USD")
    const inEuros = utah(TEN_THOUSAND_DOLLARS + 1, "2013-06-01", {
      currency: "eur",
      allowUncertain: true
    })
    expect(inEuros.reasonCode).toBe("card_type_not_allowed")
  })

  it("lowering a fee over the line keeps it at the line's verdict (a charge of $10,000.01 keeps its fee when opted in)", () => {
    const input = {
      region: "US-UT",
      cardNetwork: "visa",
      cardType: "credit" as const,
      amount: TEN_THOUSAND_DOLLARS + 1,
      fee: 20_000,
      flatPart: 0,
      percentage: Rate.partsPerMillion(20_000),
      flatFee: Rate.flatFromDecimal(Decimal.ZERO),
      date: "2013-06-01",
      allowUncertain: true
    }
    expect(Either.getOrThrow(Compliance.adjustToCompliant(Ruleset.DEFAULT, input)).fee).toBe(20_000)
    const atTheLine = { ...input, amount: TEN_THOUSAND_DOLLARS }
    expect(Either.getOrThrow(Compliance.adjustToCompliant(Ruleset.DEFAULT, atTheLine)).fee).toBe(0)
  })
})

const terms = (status: RuleStatus): Terms => ({ ...Clauses.UNCERTAIN, status })

describe("a range in a reason's words, in the currency's own minor units", () => {
  it("zero-, two- and three-decimal currencies", () => {
    expect(AmountCondition.describe({ currency: "jpy", min: 10_000, max: null })).toBe(
      "of at least 10000 JPY"
    )
    expect(AmountCondition.describe({ currency: "usd", min: 500, max: 1_000_000 })).toBe(
      "from 5.00 to 10000.00 USD"
    )
    expect(AmountCondition.describe({ currency: "bhd", min: null, max: 1_500 })).toBe(
      "of at most 1.500 BHD"
    )
  })
})

const ORDER: Readonly<Record<RuleStatus, number>> = { permitted: 0, uncertain: 1, prohibited: 2 }
const status = fc.constantFrom<RuleStatus>("permitted", "uncertain", "prohibited")
const end = fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null })

describe("amount ranges (property)", () => {
  it("an amount in the range's currency gets its terms exactly when min <= amount <= max; an unknown one, or one in another currency, the stricter of both sides", () => {
    fc.assert(
      fc.property(
        status,
        status,
        end,
        end,
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom("usd", "eur"),
        (outside, inside, a, b, minor, currency) => {
          const min = a === null || b === null ? a : Math.min(a, b)
          const max = a === null || b === null ? b : Math.max(a, b)
          if (min === null && max === null) return
          const clauses: ReadonlyArray<Clause> = [
            { scope: {}, terms: terms(outside) },
            { scope: { amount: { currency: "usd", min, max } }, terms: terms(inside) }
          ]
          const payment = (amount: Clauses.Amount | undefined) =>
            Clauses.resolve(clauses, { ...CREDIT_ONLINE, amount }).terms.status
          const stricter = Math.max(ORDER[inside], ORDER[outside])
          const known = payment({ minor, currency })
          if (currency === "usd") {
            const within = (min === null || minor >= min) && (max === null || minor <= max)
            expect(known).toBe(within ? inside : outside)
          } else expect(ORDER[known]).toBe(stricter)
          expect(ORDER[payment(undefined)]).toBe(stricter)
        }
      ),
      { numRuns: 500 }
    )
  })
})

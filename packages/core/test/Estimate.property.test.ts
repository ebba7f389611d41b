/**
 * The fast estimate (compliance evaluated once, disclosures filled from prepared templates,
 * money laid out without Intl) gives exactly what the straightforward path gives: the fee
 * quoted, then `Compliance.check` and `Compliance.adjustToCompliant` on one merged input, and
 * each disclosure rendered by regular expressions with `Intl.NumberFormat`. Same fee, verdicts,
 * disclosure text and key order, for any schedule, currency, amount and context.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import * as Currency from "../src/Currency.js"
import * as Compliance from "../src/compliance/Compliance.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Decimal from "../src/Decimal.js"
import * as Disclosure from "../src/Disclosure.js"
import * as Estimate from "../src/Estimate.js"
import * as Fee from "../src/Fee.js"
import type { FeeError } from "../src/FeeError.js"
import * as FeeSchedule from "../src/FeeSchedule.js"
import * as Rate from "../src/Rate.js"
import * as Rounding from "../src/Rounding.js"
import { context, PLACES } from "./arbitraries.js"

const R = Ruleset.DEFAULT

// ---- the straightforward path ------------------------------------------------------------

/** `Currency.format` as Intl lays it out. */
const intlFormat = (currency: Currency.Currency, minor: number): string => {
  const digits = Currency.displayDigits(currency)
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: currency.code.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits
  })
    .format(Decimal.format(Decimal.fromScaled(minor, currency.exponent)) as unknown as number)
    .replace(/\u00a0/g, " ")
}

/** `Disclosure.render` by regular expressions over the raw template. */
const renderByRegex = (template: string | null, c: Disclosure.Charged): string | null => {
  if (template === null || c.fee === 0) return null
  const text = template.replace(/\s*\[[^\]]*\]/g, "").trim()
  const noFee = /(^|[.!]\s+)No (surcharge|additional fee) (is|may|for)\b/.test(text)
  const money = (minor: number) => intlFormat(c.currency, minor)
  return (noFee ? Disclosure.FEE_CHARGED : text).replace(
    /\$?\{(rate|flat|fee|credit_total|cash_total)\}/g,
    (_, name: string) =>
      name === "rate"
        ? String(Rate.percentageToNumber(Rounding.mulDiv(c.fee, 10_000, c.amount, "half_up") * 100))
        : money(
            name === "flat"
              ? c.flatPart
              : name === "fee"
                ? c.fee
                : name === "credit_total"
                  ? c.amount + c.fee
                  : c.amount
          )
  )
}

const shown = (
  verdict: Compliance.ComplianceVerdict,
  q: Fee.FeeQuote,
  unit: Currency.Currency
): Compliance.ComplianceVerdict => ({
  ...verdict,
  disclosureText: renderByRegex(verdict.disclosureText, {
    amount: q.baseAmount,
    fee: q.convenienceFee,
    flatPart: Math.min(q.feeBreakdown.flatFee, q.convenienceFee),
    currency: unit
  })
})

const quoted = (
  q: Fee.FeeQuote,
  verdict: Compliance.ComplianceVerdict,
  configured: Estimate.Configured
): Estimate.Estimate => ({
  ...q,
  compliant: verdict.compliant,
  region: verdict.region,
  compliance: verdict,
  configured
})

/** The quote with its fee replaced by `fee`, the change in `adjustment`. */
const withFee = (q: Fee.FeeQuote, fee: number): Fee.FeeQuote =>
  fee === q.convenienceFee
    ? q
    : {
        ...q,
        convenienceFee: fee,
        totalAmount: q.baseAmount + fee,
        adjustment: q.adjustment + fee - q.convenienceFee
      }

/**
 * The estimate step by step: check the configured fee, lower it when it is not compliant, then
 * to `ceiling` (a charge's quote never collects more than the shopper was shown).
 */
const straightforward = (
  schedule: FeeSchedule.FeeSchedule,
  request: Estimate.FeeRequest,
  ceiling = Number.POSITIVE_INFINITY
): Either.Either<Estimate.Estimate, FeeError> =>
  Either.flatMap(Fee.quote(schedule, request.amount, request.currency), (q) => {
    const unit = Currency.lookup(q.currency)!
    const input = {
      ...request,
      amount: q.baseAmount,
      currency: q.currency,
      percentage: schedule.percentage,
      flatFee: FeeSchedule.feesIn(schedule, unit).flatFee,
      fee: q.convenienceFee,
      flatPart: Math.min(q.feeBreakdown.flatFee, q.convenienceFee)
    }
    return Either.flatMap(Compliance.check(R, input), (verdict) => {
      const configured = shown(verdict, q, unit)
      const asConfigured = {
        ...configured,
        convenienceFee: q.convenienceFee,
        totalAmount: q.totalAmount
      }
      if (verdict.compliant) {
        const collected = withFee(q, Math.min(q.convenienceFee, ceiling))
        return Either.right(quoted(collected, shown(verdict, collected, unit), asConfigured))
      }
      return Either.map(Compliance.adjustToCompliant(R, input), (adjusted) => {
        const lowered = withFee(q, Math.min(adjusted.fee, ceiling))
        return quoted(lowered, shown(adjusted.verdict, lowered, unit), asConfigured)
      })
    })
  })

// ---- random inputs -------------------------------------------------------------------------

const CURRENCIES = ["usd", "USD", "eur", "gbp", "cad", "aud", "jpy", "isk", "huf", "bhd", "chf"]

const schedule = fc
  .record({
    percentage: fc.oneof(
      fc.constantFrom(0, 2.9, 3, 4),
      fc.integer({ min: 0, max: 800 }).map((h) => h / 100)
    ),
    flatFee: fc.oneof(
      fc.constantFrom(0, 0.3),
      fc.integer({ min: 0, max: 300 }).map((c) => c / 100)
    ),
    model: fc.constantFrom("add_on", "gross_up"),
    rounding: fc.constantFrom("half_up", "half_even", "up", "down"),
    maxFee: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: undefined }),
    currencyFees: fc.option(
      fc.constantFrom({ jpy: { flatFee: 40 } }, { isk: { flatFee: 50 }, huf: { flatFee: 100 } }),
      { nil: undefined }
    )
  })
  .map((input) => FeeSchedule.make(input))
  .filter(Either.isRight)
  .map((made) => made.right)

/** A plain payment: a place and a card type, as most checkouts send. */
const plain = fc.record({
  region: fc.constantFrom(...PLACES),
  cardType: fc.constantFrom("credit" as const, "debit" as const)
})

const request = fc
  .tuple(
    fc.oneof(context, plain),
    fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 50, max: 1_000_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 99_999_999 }) },
      { weight: 1, arbitrary: fc.constantFrom(10_000, 5.5, -1) }
    ),
    fc.constantFrom(...CURRENCIES),
    // ISK and HUF amounts move in 100s: mostly whole, sometimes not.
    fc.boolean()
  )
  .map(([ctx, amount, currency, whole]) => ({
    ...ctx,
    amount: whole && Number.isInteger(amount) ? amount - (amount % 100) : amount,
    currency
  }))

describe("Estimate.estimate", () => {
  it("equals the straightforward path: same fee, verdicts, disclosure text and key order", () => {
    fc.assert(
      fc.property(schedule, request, (s, r) => {
        const fast = Estimate.estimate(s, R, r)
        const slow = straightforward(s, r)
        expect(fast).toEqual(slow)
        expect(JSON.stringify(fast)).toBe(JSON.stringify(slow))
      }),
      { numRuns: 3_000 }
    )
  })

  it("with a ceiling (a charge's quote), equals the straightforward path lowered to it", () => {
    fc.assert(
      fc.property(schedule, request, fc.integer({ min: 0, max: 5_000 }), (s, r, ceiling) => {
        const fast = Estimate.chargeQuote(s, R, r, ceiling)
        const slow = straightforward(s, r, ceiling)
        expect(fast).toEqual(slow)
        expect(JSON.stringify(fast)).toBe(JSON.stringify(slow))
      }),
      { numRuns: 1_000 }
    )
  })

  it("gives the same answer when asked again (the caches keep no request's data)", () => {
    fc.assert(
      fc.property(schedule, fc.array(request, { minLength: 2, maxLength: 6 }), (s, requests) => {
        const first = requests.map((r) => Estimate.estimate(s, R, r))
        const again = requests.map((r) => Estimate.estimate(s, R, r))
        expect(JSON.stringify(again)).toBe(JSON.stringify(first))
      }),
      { numRuns: 300 }
    )
  })
})

describe("Currency.format", () => {
  it("lays out every amount exactly as Intl.NumberFormat does, in every currency", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Currency.all),
        fc.oneof(
          fc.integer({ min: 0, max: 1_000_000 }),
          fc.integer({ min: 0, max: 2 * Currency.MAXIMUM_CHARGE }),
          fc.integer({ min: -1_000_000, max: 0 }),
          fc.constantFrom(0, 1, 5, 49, 50, 99, 100, 999, 1_000, 99_999, 100_000, 99_999_999)
        ),
        (currency, minor) => {
          expect(Currency.format(currency, minor)).toBe(intlFormat(currency, minor))
        }
      ),
      { numRuns: 5_000 }
    )
  })
})

describe("Disclosure.render", () => {
  const templates = [
    ...new Set(
      [...R.places.values()].flatMap((entries) => entries.map((e) => e.rule.disclosureText))
    ),
    "A fee of {fee} ({rate}%) and $${flat} flat: {credit_total} for {cash_total}. {unknown} {rate}",
    "No surcharge is charged for paying with a consumer card. [Note: {fee}]",
    "Pay {rate}% by card. [Option (II) wording: '...cost.']",
    "No placeholders at all.",
    ""
  ]

  it("fills every template of the ruleset exactly as the regular expressions do", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...templates),
        fc.constantFrom(...Currency.all),
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000 }),
        (template, currency, amount, fee, flat) => {
          const charged = { amount, fee, flatPart: Math.min(flat, fee), currency }
          expect(Disclosure.render(template, charged)).toBe(renderByRegex(template, charged))
        }
      ),
      { numRuns: 3_000 }
    )
  })
})

describe("Disclosure.percentText", () => {
  it("writes hundredths of a percent as String(Rate.percentageToNumber) writes the rate", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: 10_000 }),
          fc.integer({ min: 0, max: 1_000_000_000_000 }),
          fc.constantFrom(0, 1, 5, 10, 50, 99, 100, 101, 110, 250, 241, 300, 1_000_000)
        ),
        (hundredths) => {
          expect(Disclosure.percentText(hundredths)).toBe(
            String(Rate.percentageToNumber(hundredths * 100))
          )
        }
      ),
      { numRuns: 5_000 }
    )
  })
})

/**
 * Properties of the compliance engine over any context: lowering a fee always lands on a
 * compliant fee no larger than the original, and where a rate cap binds it is the largest
 * one; `check` is total over well-typed input and its verdicts are self-consistent.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import * as Currency from "../src/Currency.js"
import * as Compliance from "../src/compliance/Compliance.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Decimal from "../src/Decimal.js"
import { FeeError } from "../src/FeeError.js"
import * as Rate from "../src/Rate.js"
import * as Rounding from "../src/Rounding.js"
import { context, isoDay, optional, PLACES, UNKNOWN } from "./arbitraries.js"

const R = Ruleset.DEFAULT
/**
 * Florida's version in force today (since Dana's Railroad Supply, 2015-11-04), a plain permissive
 * place; its research clauses are dropped so that an override's flat terms decide.
 */
const floridaToday = () => {
  const { clauses: _, ...rule } = R.rules.find(
    (r) => r.code === "US-FL" && r.effectiveFrom === "2015-11-04"
  )!
  return rule
}
/** A fee on an amount, in the place's own (two-decimal) currency: rates, and the fee they give. */
const feeOnAmount = fc
  .record({
    amount: fc.oneof(
      fc.integer({ min: 50, max: 1_000_000 }),
      fc.integer({ min: 50, max: 99_999_999 })
    ),
    percentage: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 80_000 })),
    flatCents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_000 }))
  })
  .map(({ amount, percentage, flatCents }) => ({
    amount,
    percentage: Rate.partsPerMillion(percentage),
    flatFee: Rate.flatFromDecimal(Decimal.fromScaled(flatCents, 2)),
    fee: Rounding.mulDiv(amount, percentage, 1_000_000, "half_up") + flatCents,
    flatPart: flatCents
  }))

describe("adjustToCompliant", () => {
  it("lands on a compliant fee ≤ the original; where a rate cap binds, one minor unit more is not compliant", () => {
    fc.assert(
      fc.property(context, feeOnAmount, (ctx, f) => {
        const input = { ...ctx, ...f }
        const result = Compliance.adjustToCompliant(R, input)
        expect(Either.isRight(result)).toBe(true)
        if (Either.isLeft(result)) return
        const { fee, verdict, original } = result.right
        expect(Number.isInteger(fee)).toBe(true)
        expect(fee).toBeGreaterThanOrEqual(0)
        expect(fee).toBeLessThanOrEqual(f.fee)
        if (original.reasonCode === "unknown_region") {
          // No rule is known, so no fee is collected.
          expect(fee).toBe(0)
          expect(verdict.reasonCode).toBe("unknown_region")
          return
        }
        expect(verdict.compliant).toBe(true)
        expect(verdict.reasonCode).toBeNull()
        if (original.compliant) expect(fee).toBe(f.fee)
        else expect(fee).toBeLessThan(f.fee)
        if (
          verdict.maxFee !== null &&
          verdict.maxFee > 0 &&
          fee === verdict.maxFee &&
          fee < f.fee
        ) {
          // One step more: a minor unit, or the currency's increment (ISK and HUF move in 100s).
          const currency = R.places.get(ctx.region)?.[0]?.rule.currency ?? "usd"
          const step = Currency.lookup(currency)?.increment ?? 1
          const flatPart =
            ctx.feeType === "convenience_fee" ? fee + step : Math.min(f.flatPart, fee)
          const more = Either.getOrThrow(
            Compliance.check(R, { ...input, fee: fee + step, flatPart })
          )
          expect(more.compliant).toBe(false)
        }
      }),
      { numRuns: 2_000 }
    )
  })

  it("never lowers a compliant fee, and lowers to 0 only where no fee at all may be charged", () => {
    fc.assert(
      fc.property(context, feeOnAmount, (ctx, f) => {
        const input = { ...ctx, ...f }
        const { fee, original } = Either.getOrThrow(Compliance.adjustToCompliant(R, input))
        if (fee > 0 || f.fee === 0 || original.reasonCode === "unknown_region") return
        // Lowered to nothing: either nothing is allowed, or the cap rounds down to 0.
        const blockers: ReadonlyArray<Compliance.ReasonCode | null> = [
          "fees_prohibited",
          "cardholder_not_allowed",
          "card_type_not_allowed",
          "convenience_fee_channel",
          "convenience_fee_must_be_flat",
          "legal_uncertainty",
          "disclosure_required"
        ]
        expect(blockers.includes(original.reasonCode) || original.maxFee === 0).toBe(true)
      }),
      { numRuns: 1_000 }
    )
  })
})

/** Any well-typed input, including odd strings where the type is a string. */
const anyInput = fc.record({
  region: fc.oneof(
    fc.constantFrom(...PLACES),
    fc.constantFrom(...UNKNOWN),
    fc.string({ maxLength: 12 }),
    fc.constant(undefined),
    fc.constant(null)
  ),
  cardType: optional(fc.constantFrom("credit" as const, "debit" as const, "prepaid" as const)),
  cardNetwork: optional(fc.oneof(fc.constantFrom("visa", "mastercard", "amex"), fc.string())),
  cardholder: optional(fc.constantFrom("consumer" as const, "business" as const)),
  channel: optional(fc.constantFrom("online" as const, "in_person" as const)),
  feeType: optional(fc.constantFrom("surcharge" as const, "convenience_fee" as const)),
  recurring: optional(fc.boolean()),
  disclosed: optional(fc.boolean()),
  allowUncertain: optional(fc.boolean()),
  costOfAcceptance: optional(fc.integer({ min: 0, max: 1_000_000 }).map(Rate.partsPerMillion)),
  date: optional(fc.oneof(isoDay, fc.string({ maxLength: 12 }))),
  percentage: fc.integer({ min: 0, max: 1_000_000 }).map(Rate.partsPerMillion),
  flatFee: fc
    .record({
      units: fc.integer({ min: 0, max: 10_000_000 }),
      scale: fc.integer({ min: 0, max: 3 })
    })
    .map(({ units, scale }) => Rate.flatFromDecimal(Decimal.fromScaled(units, scale))),
  amount: optional(fc.integer({ min: 0, max: 99_999_999 })),
  currency: optional(fc.constantFrom("usd", "USD", "cad", "eur", "jpy", "bhd", "huf", "xyz")),
  fee: optional(fc.integer({ min: 0, max: 10_000_000 })),
  flatPart: optional(fc.integer({ min: 0, max: 1_000 }))
})

describe("check", () => {
  it("never throws on well-typed input; reason is null iff compliant", () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const result = Compliance.check(R, input)
        if (Either.isLeft(result)) {
          expect(result.left).toBeInstanceOf(FeeError)
          expect(["date", "currency", "flatFee"]).toContain(result.left.param)
          return
        }
        const v = result.right
        expect(v.reason === null).toBe(v.compliant)
        // Compliant answers carry no code, except no_region: compliant because nothing was checked.
        expect(v.reasonCode === null || v.reasonCode === "no_region").toBe(v.compliant)
        expect(v.reasonCode === "no_region").toBe(input.region == null)
        expect(v.rulesetVersion).toBe(R.version)
        expect(v.region).toBe(input.region ?? null)
        if (v.reasonCode !== null) expect(Compliance.reasonCodes).toContain(v.reasonCode)
      }),
      { numRuns: 3_000 }
    )
  })

  it("a compliant fee on a known amount is at most maxFee, and maxFee 0 admits only a zero fee", () => {
    fc.assert(
      fc.property(context, feeOnAmount, (ctx, f) => {
        const v = Either.getOrThrow(Compliance.check(R, { ...ctx, ...f }))
        if (v.maxFee === null || v.reasonCode === "unknown_region") return
        // maxFee is a chargeable amount: compare fees that are too (ISK and HUF move in 100s).
        const currency = R.places.get(ctx.region)?.[0]?.rule.currency ?? "usd"
        if (f.fee % (Currency.lookup(currency)?.increment ?? 1) !== 0) return
        if (v.compliant) expect(f.fee).toBeLessThanOrEqual(v.maxFee)
        if (v.maxFee === 0 && f.fee > 0) expect(v.compliant).toBe(false)
      }),
      { numRuns: 1_000 }
    )
  })

  it("a zero fee is compliant in every known place", () => {
    fc.assert(
      fc.property(context, fc.integer({ min: 50, max: 1_000_000 }), (ctx, amount) => {
        if (UNKNOWN.includes(ctx.region)) return
        const zero = { percentage: Rate.ZERO_PERCENT, flatFee: Rate.NO_FLAT_FEE }
        expect(Either.getOrThrow(Compliance.check(R, { ...ctx, ...zero, amount })).compliant).toBe(
          true
        )
        expect(Either.getOrThrow(Compliance.check(R, { ...ctx, ...zero })).compliant).toBe(true)
      })
    )
  })

  it("answers do not depend on what was asked before (the policy cache)", () => {
    // An account's future version of US-FL (a ban from 2099), so a cached policy can be
    // asked for on a day before the version it was built from.
    const fl = floridaToday()
    const future = Ruleset.override(
      R,
      [{ ...fl, effectiveFrom: "2099-01-01", status: "prohibited", cardTypes: [] }],
      "future"
    )
    const when = optional(
      fc.oneof(isoDay, fc.constantFrom("2098-12-31", "2099-01-01", "2099-06-01", "2025-02-30"))
    )
    const asked = fc.tuple(
      context.map((ctx) => ({ ...ctx, region: ctx.region === "US-FL" ? ctx.region : "US-FL" })),
      when,
      feeOnAmount
    )
    // The same situations again and again, so the cache is hit.
    const few = fc.tuple(
      fc.record({
        region: fc.constantFrom("US-FL", "XX", "AU"),
        cardType: fc.constant("credit" as const)
      }),
      when,
      feeOnAmount
    )
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.tuple(context, when, feeOnAmount), asked, few), {
          minLength: 1,
          maxLength: 12
        }),
        (inputs) => {
          for (const base of [R, future]) {
            const shared = Ruleset.make(base.rules, base.version)
            for (const [ctx, date, f] of inputs) {
              const fresh = Ruleset.make(base.rules, base.version)
              const input = { ...ctx, date, ...f }
              expect(Compliance.check(shared, input)).toEqual(Compliance.check(fresh, input))
            }
          }
        }
      ),
      { numRuns: 300 }
    )
    // Two rulesets built per case: about 4,000 builds, slow on a loaded machine.
  }, 120_000)

  it("a stricter cap never makes a non-compliant fee compliant (override lowers US-FL)", () => {
    const fl = floridaToday()
    fc.assert(
      fc.property(context, feeOnAmount, fc.integer({ min: 0, max: 5 }), (ctx, f, percent) => {
        const stricter = Ruleset.override(R, [{ ...fl, maxPercentage: percent }], "p")
        const input = { ...ctx, ...f, region: "US-FL" }
        const base = Either.getOrThrow(Compliance.check(R, input))
        const strict = Either.getOrThrow(Compliance.check(stricter, input))
        if (!base.compliant) expect(strict.compliant).toBe(false)
        if (base.maxFee !== null && strict.maxFee !== null) {
          expect(strict.maxFee).toBeLessThanOrEqual(base.maxFee)
        }
      }),
      { numRuns: 300 }
    )
  })
})

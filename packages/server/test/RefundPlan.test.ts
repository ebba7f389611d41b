/**
 * The refund plan as a pure function: pro rata fee floored with integer arithmetic, the
 * completing refund taking the remainder, and — for any charge and any way of splitting its
 * base into refunds — exactly the charge's fee given back, never more base than charged.
 */
import { describe, expect, it } from "@effect/vitest"
import { Currency } from "@levy/core"
import * as RefundPlan from "@levy/engine/refunds/RefundPlan.js"
import type { Charge } from "@levy/storage"
import { Either } from "effect"
import fc from "fast-check"
import { seedCharge } from "./chargeStores.js"

const TEST = { accountId: "acct_1", livemode: false }

const charge = (amount: number, convenienceFee: number, currency = "usd"): Charge => ({
  ...seedCharge(TEST, "ch_1", { amount, convenienceFee, currency }),
  amountRefunded: 0,
  feeRefunded: 0,
  refunded: false,
  disputed: false,
  estimate: null
})

/** Applies a plan to the charge as the store would. */
const apply = (c: Charge, plan: RefundPlan.Plan): Charge => ({
  ...c,
  amountRefunded: c.amountRefunded + plan.base + plan.fee,
  feeRefunded: c.feeRefunded + plan.fee,
  refunded: c.amountRefunded + plan.base + plan.fee === c.totalAmount
})

const planned = (c: Charge, request: { amount?: number; refundFee?: boolean }) =>
  Either.getOrThrow(RefundPlan.plan(c, request))

describe("RefundPlan", () => {
  it("floors the fee with integers even where floats would round wrong", () => {
    // Math.floor(fee × part / amount) in floats gives 8_572_858_988 here: one cent too many.
    const big = charge(1_000_669_776_030_433, 10_000_912_203_179)
    expect(planned(big, { amount: 857_781_841_214 }).fee).toBe(8_572_858_987)
    expect(planned(charge(10_000, 320), { amount: 3_333 }).fee).toBe(106)
  })

  it("gives back exactly the fee over any split of the base", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 20 }),
        (amount, fee, cuts) => {
          let c = charge(amount, fee)
          for (const cut of cuts) {
            const left = RefundPlan.leftOf(c).base
            if (left <= 1) break
            const part = 1 + (cut % (left - 1))
            const plan = planned(c, { amount: part })
            expect(plan.fee).toBe(Math.floor((fee * part) / amount))
            c = apply(c, plan)
          }
          c = apply(c, planned(c, {}))
          expect(c.amountRefunded).toBe(c.totalAmount)
          expect(c.feeRefunded).toBe(fee)
          expect(c.refunded).toBe(true)
        }
      )
    )
  })

  it("never refunds more base or fee than charged, whatever refundFee says", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.array(
          fc.record({
            amount: fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
            refundFee: fc.option(fc.boolean(), { nil: undefined })
          }),
          { maxLength: 10 }
        ),
        (amount, fee, requests) => {
          let c = charge(amount, fee)
          for (const request of requests) {
            const result = RefundPlan.plan(c, request)
            if (Either.isLeft(result)) continue
            c = apply(c, result.right)
            expect(c.amountRefunded - c.feeRefunded).toBeLessThanOrEqual(amount)
            expect(c.feeRefunded).toBeLessThanOrEqual(fee)
          }
        }
      )
    )
  })

  it("the currency's step: amounts validated as a charge's, the fee rounded down to it", () => {
    // ISK: 5,000 ISK charge (500000) with a 145 ISK fee; refunding 1,000 ISK gives 29 ISK back, not 0.29.
    const isk = planned(charge(500_000, 14_500, "isk"), { amount: 100_000 })
    expect(isk).toEqual({ base: 100_000, fee: 2_900 })
    const iskOdd = planned(charge(500_000, 14_500, "isk"), { amount: 10_000 })
    expect(iskOdd.fee % 100).toBe(0)
    // BHD: three decimals in steps of 10 fils: 1.230 of 9.120 with a 1.000 fee → 0.134…, down to 0.130.
    expect(planned(charge(9_120, 1_000, "bhd"), { amount: 1_230 }).fee).toBe(130)
    // HUF: whole forints only; 1.50 Ft is refused like a charge of it would be.
    const huf = RefundPlan.plan(charge(500_000, 14_500, "huf"), { amount: 150 })
    expect(Either.isLeft(huf) && huf.left).toMatchObject({
      code: "parameter_invalid",
      param: "amount"
    })
    expect(Either.isLeft(huf) && huf.left.message).toContain("multiple of 100")
  })

  it("in every currency, over any split on its step, gives back exactly the fee, each part on the step", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Currency.all),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), { maxLength: 10 }),
        (currency, units, feeUnits, cuts) => {
          const step = currency.increment
          let c = charge(units * step, feeUnits * step, currency.code)
          for (const cut of cuts) {
            const left = RefundPlan.leftOf(c).base / step
            if (left <= 1) break
            const plan = planned(c, { amount: (1 + (cut % (left - 1))) * step })
            expect(plan.fee % step).toBe(0)
            c = apply(c, plan)
          }
          c = apply(c, planned(c, {}))
          expect(c.feeRefunded).toBe(feeUnits * step)
          expect(c.refunded).toBe(true)
        }
      )
    )
  })

  it("refuses with the code and parameter that say why", () => {
    const over = RefundPlan.plan(charge(1_000, 59), { amount: 1_001 })
    expect(Either.isLeft(over) && over.left).toMatchObject({
      code: "amount_too_large",
      param: "amount"
    })
    const failed = RefundPlan.plan({ ...charge(1_000, 59), status: "failed" }, {})
    expect(Either.isLeft(failed) && failed.left).toMatchObject({ code: "charge_not_refundable" })
    const done = RefundPlan.plan(apply(charge(1_000, 59), { base: 1_000, fee: 59 }), {})
    expect(Either.isLeft(done) && done.left).toMatchObject({ code: "charge_already_refunded" })
  })
})

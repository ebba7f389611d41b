/**
 * The checkout backend example, run as a test: both versions (Effect and plain async) quote
 * the same compliant fees for one cart in several places and refuse the same bad carts.
 */
import { describe, expect, it } from "@effect/vitest"
import { FeeError, FeeSchedule } from "@levy/core"
import { Effect, Either } from "effect"
import type { Cart } from "../src/Cart.js"
import { subtotal } from "../src/Cart.js"
import * as Async from "../src/checkoutAsync.js"
import * as WithEffect from "../src/checkoutEffect.js"

const cart: Cart = {
  currency: "usd",
  lines: [
    { sku: "tee", unitPrice: 2500, quantity: 2 },
    { sku: "mug", unitPrice: 1250, quantity: 4 }
  ]
}

// 10000 at the default 2.9 % + 0.30 is 320 before compliance
const cases = [
  ["US-FL", "credit", 300, "network_cap_exceeded"], // card networks cap at 3 %
  ["US-CO", "credit", 200, "percentage_over_limit"], // Colorado's law caps at 2 %
  ["US-CO", "debit", 0, "card_type_not_allowed"], // no surcharge on debit cards
  ["US-CT", "credit", 0, "fees_prohibited"] // Connecticut forbids card fees
] as const

const both = (schedule: FeeSchedule.FeeSchedule, c: Cart, payment: WithEffect.Payment) =>
  Promise.all([
    Async.quoteCheckout(schedule, c, payment),
    Effect.runPromise(WithEffect.runQuoteCheckout(schedule, c, payment))
  ])

describe("checkout-backend example", () => {
  it("the cart's subtotal is integer cents", () => {
    expect(subtotal(cart)).toBe(10000)
  })

  it.each(cases)(
    "%s %s: the fee is lowered to %i (%s)",
    async (region, cardType, fee, reasonCode) => {
      const [plain, effect] = await both(FeeSchedule.DEFAULT, cart, { region, cardType })
      expect(plain).toEqual(effect)
      expect(plain).toMatchObject({
        subtotal: 10000,
        fee,
        total: 10000 + fee,
        configuredCompliant: false,
        reasonCode
      })
    }
  )

  it("a fee within every cap is kept as configured", async () => {
    const schedule = Either.getOrThrow(FeeSchedule.make({ percentage: 2.5, flatFee: 0 }))
    const [plain, effect] = await both(schedule, cart, { region: "US-FL", cardType: "credit" })
    expect(plain).toEqual(effect)
    expect(plain).toMatchObject({
      fee: 250,
      total: 10250,
      configuredCompliant: true,
      reasonCode: null
    })
  })

  it("a cart below the minimum charge is refused the same way by both", async () => {
    const tiny: Cart = { currency: "usd", lines: [{ sku: "sticker", unitPrice: 10, quantity: 1 }] }
    const payment = { region: "US-FL", cardType: "credit" } as const
    await expect(Async.quoteCheckout(FeeSchedule.DEFAULT, tiny, payment)).rejects.toMatchObject({
      code: "amount_too_small",
      param: "amount"
    })
    const refused = await Effect.runPromise(
      Effect.flip(WithEffect.runQuoteCheckout(FeeSchedule.DEFAULT, tiny, payment))
    )
    expect(refused).toBeInstanceOf(FeeError)
    expect(refused).toMatchObject({ code: "amount_too_small", param: "amount" })
  })

  it("an unknown currency is refused", async () => {
    const odd: Cart = { currency: "xxx", lines: [{ sku: "tee", unitPrice: 2500, quantity: 1 }] }
    await expect(
      Async.quoteCheckout(FeeSchedule.DEFAULT, odd, { region: "US-FL", cardType: "credit" })
    ).rejects.toMatchObject({ code: "currency_not_supported", param: "currency" })
  })
})

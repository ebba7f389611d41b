/**
 * The checkout quote with plain async functions, for a backend that does not use Effect:
 * the engine's pure functions return an `Either`; a refused cart throws its `FeeError`
 * (code, param, message: the API's 400).
 */
import { Estimate, type FeeSchedule, type Rule, Ruleset } from "@levy/core"
import { Either } from "effect"
import { type Cart, subtotal } from "./Cart.js"
import { type CheckoutQuote, fromChargeQuote } from "./Quote.js"

/** The compliant fee for `cart`; rejects with a `FeeError` for an amount or currency the engine refuses. */
export const quoteCheckout = async (
  schedule: FeeSchedule.FeeSchedule,
  cart: Cart,
  payment: { readonly region: string; readonly cardType: Rule.CardType }
): Promise<CheckoutQuote> => {
  const quoted = Estimate.chargeQuote(schedule, Ruleset.DEFAULT, {
    amount: subtotal(cart),
    currency: cart.currency,
    region: payment.region,
    cardType: payment.cardType
  })
  if (Either.isLeft(quoted)) throw quoted.left
  return fromChargeQuote(quoted.right)
}

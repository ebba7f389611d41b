/**
 * The checkout quote with Effect: the engine as the `FeeCalculator` service (with the shipped
 * compliance rules), a refused cart as a typed `FeeError` in the error channel.
 */
import { FeeCalculator, type FeeError, type FeeSchedule, type Rule } from "@levy/core"
import { Effect } from "effect"
import { type Cart, subtotal } from "./Cart.js"
import { type CheckoutQuote, fromChargeQuote } from "./Quote.js"

export interface Payment {
  readonly region: string
  readonly cardType: Rule.CardType
}

/** The compliant fee for `cart` paid from `region` with a `cardType` card. */
export const quoteCheckout = (
  schedule: FeeSchedule.FeeSchedule,
  cart: Cart,
  payment: Payment
): Effect.Effect<CheckoutQuote, FeeError, FeeCalculator> =>
  Effect.flatMap(FeeCalculator, (calculator) =>
    calculator.chargeQuote(schedule, {
      amount: subtotal(cart),
      currency: cart.currency,
      region: payment.region,
      cardType: payment.cardType
    })
  ).pipe(Effect.map(fromChargeQuote))

/** The same, runnable: provides the calculator with the shipped rules. */
export const runQuoteCheckout = (
  schedule: FeeSchedule.FeeSchedule,
  cart: Cart,
  payment: Payment
): Effect.Effect<CheckoutQuote, FeeError> =>
  quoteCheckout(schedule, cart, payment).pipe(Effect.provide(FeeCalculator.Default))

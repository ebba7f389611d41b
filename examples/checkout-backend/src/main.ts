/** Prints the checkout quotes of one cart in a few places: `pnpm --filter @levy/example-checkout-backend start`. */
import { FeeSchedule } from "@levy/core"
import type { Cart } from "./Cart.js"
import { quoteCheckout } from "./checkoutAsync.js"

const cart: Cart = {
  currency: "usd",
  lines: [
    { sku: "tee", unitPrice: 2500, quantity: 2 },
    { sku: "mug", unitPrice: 1250, quantity: 4 }
  ]
}

for (const [region, cardType] of [
  ["US-FL", "credit"],
  ["US-CO", "credit"],
  ["US-CO", "debit"],
  ["US-CT", "credit"]
] as const) {
  const q = await quoteCheckout(FeeSchedule.DEFAULT, cart, { region, cardType })
  console.log(
    `${region} ${cardType}: fee ${q.fee}, total ${q.total} ${q.currency} (${q.reasonCode ?? "compliant"})`
  )
}

/**
 * The order the backend sells: its amount, currency and region are the backend's, never the
 * page's. The page quotes for them and the charge is made for them, so a page that asked for a
 * smaller amount would hold a quote the charge refuses (`estimate_mismatch`).
 */
import { Currency } from "@levy/core"

export interface Order {
  readonly description: string
  /** Integer minor units of `currency`. */
  readonly amount: number
  readonly currency: string
  /** Where the shopper pays: US-NY allows a surcharge on credit cards, never on debit or prepaid. */
  readonly region: string
}

export const defaultOrder: Order = {
  description: "Order 1001: two concert tickets",
  amount: 10_000,
  currency: "usd",
  region: "US-NY"
}

/** What the page needs to quote and show the order: the order and how its currency is written. */
export const forPage = (order: Order) => {
  const currency = Currency.lookup(order.currency)
  if (currency === undefined) throw new Error(`unsupported currency ${order.currency}`)
  return {
    ...order,
    // the exponent of amounts on the wire, and the digits a price shows (ISK: 2 and 0)
    exponent: currency.exponent,
    displayDigits: Currency.displayDigits(currency)
  }
}

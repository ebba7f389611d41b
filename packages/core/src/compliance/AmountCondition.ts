/**
 * A rule's conditions on the transaction amount in a reason's words: which of its amount ranges
 * the payment's amount is in ("for a transaction of at most 10000.00 USD"), or that the amount
 * was not known in the range's currency, so the strictest side bound.
 */
import * as Currency from "../Currency.js"
import * as Clauses from "./Clauses.js"
import type { AmountRange, Rule } from "./Rule.js"

/** The words to add after a rule's name; "" when none of its clauses scopes by amount. */
export const phrase = (rule: Rule | undefined, amount: Clauses.Amount | undefined): string => {
  const ranges = (rule?.clauses ?? []).flatMap((c) =>
    c.scope.amount === undefined ? [] : [c.scope.amount]
  )
  if (ranges.length === 0) return ""
  const inside = ranges.filter((range) => Clauses.inRange(range, amount))
  if (inside.length > 0) return `, for a transaction ${inside.map(describe).join(" and ")}`
  if (amount === undefined || ranges.every((range) => range.currency !== amount.currency)) {
    return `, for a transaction whose amount is not known in ${ranges[0]!.currency.toUpperCase()} (the stricter terms either side of an amount ${describe(ranges[0]!)} bind)`
  }
  return `, for a transaction ${ranges.map(outside).join(" and ")}`
}

/** The other side of a range: "above 10000.00 USD", "below 5.00 USD", "outside 5.00 to 10.00 USD". */
const outside = (range: AmountRange): string => {
  const code = range.currency.toUpperCase()
  if (range.min === null) return `above ${major(range.currency, range.max!)} ${code}`
  if (range.max === null) return `below ${major(range.currency, range.min)} ${code}`
  return `outside ${major(range.currency, range.min)} to ${major(range.currency, range.max)} ${code}`
}

const major = (code: string, minor: number): string => {
  const currency = Currency.lookup(code)
  return currency === undefined ? `${minor} minor units of` : Currency.formatMajor(currency, minor)
}

/** "of at most 10000.00 USD", "of at least 5.00 USD", "from 5.00 to 10.00 USD". */
export const describe = (range: AmountRange): string => {
  const code = range.currency.toUpperCase()
  if (range.min === null) return `of at most ${major(range.currency, range.max!)} ${code}`
  if (range.max === null) return `of at least ${major(range.currency, range.min)} ${code}`
  return `from ${major(range.currency, range.min)} to ${major(range.currency, range.max)} ${code}`
}

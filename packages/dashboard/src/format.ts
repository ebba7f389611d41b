/**
 * Display of money and times. Amounts are integer minor units; they are formatted and parsed
 * as strings (digits moved across the decimal point), never multiplied as floating numbers.
 */
import { Currency } from "@levy/core"

/**
 * The decimal places an amount of `currency` has on the wire, from @levy/core (the server's own
 * table), never from Intl: ISK and HUF have 2 in Levy as at the processor, 0 in Intl.
 */
export const exponentOf = (currency: string): number => Currency.lookup(currency)?.exponent ?? 2

/** "1234567.89" → "1,234,567.89": thousands grouped, in the digits' own text. */
const grouped = (major: string): string => {
  const [whole = "", fraction] = major.split(".")
  const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`
}

/**
 * 12345 usd → "123.45 USD"; 1000000 jpy → "1,000,000 JPY"; 500000 isk → "5,000 ISK" (whole
 * krónur, as a price shows them).
 */
export const money = (minor: number, currency: string): string => {
  const found = Currency.lookup(currency)
  const sign = minor < 0 ? "-" : ""
  const major =
    found === undefined ? String(Math.abs(minor)) : Currency.formatMajor(found, Math.abs(minor))
  // Only zeros go: a fraction of a whole-unit currency (none is ever charged) stays visible.
  const shown =
    found !== undefined && Currency.displayDigits(found) === 0 ? major.replace(/\.0+$/, "") : major
  return `${sign}${grouped(shown)} ${currency.toUpperCase()}`
}

/** "12.5" usd → 1250; undefined when the text is not an amount with at most `exponent` decimals. */
export const parseMinor = (text: string, currency: string): number | undefined => {
  const exponent = exponentOf(currency)
  const match = /^\s*(\d+)(?:\.(\d*))?\s*$/.exec(text)
  if (match === null) return undefined
  const fraction = match[2] ?? ""
  if (fraction.length > exponent) return undefined
  const minor = Number(`${match[1]}${fraction.padEnd(exponent, "0")}`)
  return Number.isSafeInteger(minor) ? minor : undefined
}

/** Unix seconds → "2026-11-22 22:40:01 UTC". */
export const time = (seconds: number): string =>
  `${new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ")} UTC`

/** "2026-11-22" (an <input type=date> value) → unix seconds at 00:00 UTC that day. */
export const dayStart = (date: string): number | undefined => {
  const ms = Date.parse(`${date}T00:00:00Z`)
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000)
}

/** An optional number field: "" → null, else the number (NaN → undefined: invalid). */
export const optionalNumber = (text: string): number | null | undefined => {
  if (text.trim() === "") return null
  const value = Number(text)
  return Number.isFinite(value) ? value : undefined
}

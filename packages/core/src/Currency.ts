/**
 * Currencies as the processor sees them (docs/research/fee-math.md §3–§4): the exponent of amounts
 * on the wire, the step amounts must move in, and the minimum charge. Not `Intl`.
 */
import * as Decimal from "./Decimal.js"

/** A supported currency. Amounts are integers of 10^-exponent major units. */
export interface Currency {
  /** Lower-case ISO 4217 code, e.g. "usd". */
  readonly code: string
  /** Decimal places of an amount on the wire (ISK: 2, though the krona has none). */
  readonly exponent: number
  /** Amounts and fees must be multiples of this (ISK/HUF/TWD/UGX: 100; three-decimal: 10). */
  readonly increment: number
  /** Smallest chargeable amount in minor units. */
  readonly minimumCharge: number
  /** Whether `minimumCharge` is quoted from the processor's table (else it is one increment). */
  readonly minimumQuoted: boolean
  /** Largest chargeable amount in minor units (eight digits, fee-math.md §4.2). */
  readonly maximumCharge: number
  /** Name of the minor unit for messages ("cents"), when it has a common one. */
  readonly minorUnitName: string | undefined
}

/** Largest amount a charge may have: eight digits. */
export const MAXIMUM_CHARGE = 99_999_999

const ZERO_DECIMAL = "bif clp djf gnf jpy kmf krw mga pyg rwf vnd vuv xaf xof xpf".split(" ")
const THREE_DECIMAL = "bhd jod kwd omr tnd".split(" ")
/** Two-decimal on the wire, but only whole units may be charged (docs/research/fee-math.md §3.3). */
const WHOLE_UNITS_ONLY = "isk huf twd ugx".split(" ")

/** Quoted minimums (docs/research/fee-math.md §4.1, the later list for ars…zar and krw), in minor units. */
const MINIMUMS: Readonly<Record<string, number>> = {
  usd: 50,
  aed: 200,
  aud: 50,
  bgn: 100,
  brl: 50,
  cad: 50,
  chf: 50,
  czk: 1500,
  dkk: 250,
  eur: 50,
  gbp: 30,
  hkd: 400,
  huf: 17500,
  inr: 50,
  jpy: 50,
  mxn: 1000,
  myr: 200,
  nok: 300,
  nzd: 50,
  pln: 200,
  ron: 200,
  sek: 300,
  sgd: 50,
  thb: 1000,
  ars: 50,
  cop: 50,
  idr: 50,
  ils: 50,
  php: 50,
  rub: 50,
  zar: 50,
  krw: 50
}

/** Two-decimal currencies of places in the ruleset without a quoted minimum (one increment). */
const OTHER_TWO_DECIMAL = "cny ngn pab pen qar sar try".split(" ")

const CENTS = "usd aud cad eur hkd nzd sgd mxn brl".split(" ")

const make = (code: string): Currency => {
  const exponent = ZERO_DECIMAL.includes(code) ? 0 : THREE_DECIMAL.includes(code) ? 3 : 2
  const increment = WHOLE_UNITS_ONLY.includes(code) ? 100 : exponent === 3 ? 10 : 1
  const quoted = MINIMUMS[code]
  return {
    code,
    exponent,
    increment,
    minimumCharge: quoted ?? increment,
    minimumQuoted: quoted !== undefined,
    maximumCharge: MAXIMUM_CHARGE,
    minorUnitName: CENTS.includes(code) ? "cents" : code === "gbp" ? "pence" : undefined
  }
}

const CODES = [
  ...new Set([
    ...ZERO_DECIMAL,
    ...THREE_DECIMAL,
    ...WHOLE_UNITS_ONLY,
    ...OTHER_TWO_DECIMAL,
    ...Object.keys(MINIMUMS)
  ])
].sort()

const TABLE: ReadonlyMap<string, Currency> = new Map(CODES.map((code) => [code, make(code)]))

/** Every supported currency, by code. */
export const all: ReadonlyArray<Currency> = [...TABLE.values()]

/** The currency for a code in either case ("USD", "usd"), or undefined. */
export const lookup = (code: string): Currency | undefined => {
  // Most callers quote in one currency: the last answer saves a hash lookup per call.
  if (code === last.code) return last.currency
  const found = TABLE.get(code) ?? (code.length === 3 ? TABLE.get(code.toLowerCase()) : undefined)
  if (found !== undefined) last = { code, currency: found }
  return found
}

let last: { readonly code: string; readonly currency: Currency | undefined } = {
  code: "",
  currency: undefined
}

/** An amount in minor units as major-unit text: 1050 usd → "10.50". */
export const formatMajor = (currency: Currency, minor: number): string => {
  const text = Decimal.format(Decimal.fromScaled(minor, currency.exponent))
  if (currency.exponent === 0) return text
  const [whole, fraction = ""] = text.split(".")
  return `${whole}.${fraction.padEnd(currency.exponent, "0")}`
}

/** "50 cents (0.50 USD)" or "50 JPY": an amount as a person reads it in a message. */
export const describe = (currency: Currency, minor: number): string => {
  const major = `${formatMajor(currency, minor)} ${currency.code.toUpperCase()}`
  return currency.minorUnitName === undefined
    ? major
    : `${minor} ${currency.minorUnitName} (${major})`
}

/**
 * Decimal places a person is shown: the exponent, except where only whole units may be charged
 * (ISK, HUF: two on the wire, none in a price).
 */
export const displayDigits = (currency: Currency): number =>
  currency.increment === 10 ** currency.exponent ? 0 : currency.exponent

/** An amount as a shopper reads it, symbol or code included: "$103.20", "ISK 5,000", "BHD 1.230". */
export const format = (currency: Currency, minor: number): string => {
  const layout = layoutOf(currency)
  // Exact when no digit is dropped; rounding away hidden digits (ISK 50.50 shown whole) is Intl's.
  return layout !== null && minor >= 0 && Number.isSafeInteger(minor) && minor % layout.hidden === 0
    ? laidOut(layout, layout.hidden === 1 ? minor : minor / layout.hidden)
    : intlFormat(currency, minor)
}

/**
 * What Intl puts around the digits of a price in a currency ("$", "ISK "), read once from Intl
 * itself, so an estimate lays out its disclosure's amounts without calling Intl
 * (docs/performance.md). `hidden` is 10^(digits on the wire not shown): 100 for ISK.
 */
interface Layout {
  readonly prefix: string
  readonly suffix: string
  readonly hidden: number
  /** Every fraction shown, with its decimal point, by value: [".00", …, ".99"]; [""] for none. */
  readonly fractions: ReadonlyArray<string>
  /** The prefix with each whole number below 1,000, built when first shown: "$0" … "$999". */
  readonly small: Array<string | undefined>
}

/**
 * A non-negative whole number of the shown unit in the layout: 123456789 → "$1,234,567.89".
 * Integer arithmetic and tables, not text slicing: a disclosure lays out several amounts per
 * estimate, and each string built on the way is an allocation (docs/performance.md).
 */
const laidOut = (layout: Layout, shown: number): string => {
  const scale = layout.fractions.length
  const fraction = shown % scale
  const whole = (shown - fraction) / scale
  let head: string
  if (whole < 1_000) {
    head = layout.small[whole] ??= layout.prefix + String(whole)
  } else {
    head = layout.prefix + grouped(whole)
  }
  const text = scale === 1 ? head : head + layout.fractions[fraction]!
  return layout.suffix === "" ? text : text + layout.suffix
}

/** A whole number with its thousands separated by commas: 1234567 → "1,234,567". */
const grouped = (whole: number): string => {
  const text = String(whole)
  let out = text.slice(0, ((text.length - 1) % 3) + 1)
  for (let at = out.length; at < text.length; at += 3) out += `,${text.slice(at, at + 3)}`
  return out
}

/** Every fraction of `digits` digits with its decimal point, by value: 2 → [".00", …, ".99"]. */
const fractionsOf = (digits: number): ReadonlyArray<string> =>
  digits === 0
    ? [""]
    : Array.from({ length: 10 ** digits }, (_, i) => `.${String(i).padStart(digits, "0")}`)

const layouts = new Map<string, Layout | null>()

/** The currency's layout, or null where laying digits out by hand would not give Intl's text. */
const layoutOf = (currency: Currency): Layout | null => {
  // As in `lookup`: most callers format one currency, and the last answer saves a hash lookup.
  if (currency === lastLayout.currency) return lastLayout.layout
  let found = layouts.get(currency.code)
  if (found === undefined) {
    found = readLayout(currency)
    layouts.set(currency.code, found)
  }
  lastLayout = { currency, layout: found }
  return found
}

let lastLayout: { readonly currency: Currency | undefined; readonly layout: Layout | null } = {
  currency: undefined,
  layout: null
}

const readLayout = (currency: Currency): Layout | null => {
  const parts = formatterOf(currency).formatToParts(0)
  const first = parts.findIndex((p) => p.type === "integer")
  let last = parts.length - 1
  while (last >= 0 && parts[last]!.type !== "integer" && parts[last]!.type !== "fraction") last--
  const text = (from: number, to: number) =>
    parts
      .slice(from, to)
      .map((p) => p.value)
      .join("")
      .replace(/\u00a0/g, " ")
  const digits = displayDigits(currency)
  const layout: Layout = {
    prefix: text(0, first),
    suffix: text(last + 1, parts.length),
    hidden: 10 ** (currency.exponent - digits),
    fractions: fractionsOf(digits),
    small: []
  }
  // Trust it only where it gives Intl's own text, digit groups and decimal point included.
  const samples = [0, 7, 1_000, 123_456, 10_000_000, 99_999_999, 123_456_789_000]
  const agrees = samples.every(
    (minor) => laidOut(layout, minor) === intlFormat(currency, minor * layout.hidden)
  )
  return first >= 0 && agrees ? layout : null
}

/**
 * Intl only lays the digits out: it is given the exact decimal text (ES2023 takes a string),
 * never a rounded float. Intl puts a no-break space after a code ("ISK\u00a05,000"): a plain one
 * is what JSON readers expect.
 */
const intlFormat = (currency: Currency, minor: number): string =>
  formatterOf(currency)
    .format(Decimal.format(Decimal.fromScaled(minor, currency.exponent)) as unknown as number)
    .replace(/\u00a0/g, " ")

const formatters = new Map<string, Intl.NumberFormat>()
const formatterOf = (currency: Currency): Intl.NumberFormat => {
  let found = formatters.get(currency.code)
  if (found === undefined) {
    const digits = displayDigits(currency)
    found = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: currency.code.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits
    })
    formatters.set(currency.code, found)
  }
  return found
}

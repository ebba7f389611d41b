/**
 * Exact decimal numbers parsed from their text, so `2.9` is 29 tenths and never
 * the binary float 2.89999…. Money and rates enter the engine through here.
 */
import { Either } from "effect"

/** A non-negative decimal: `units / 10^scale`, with no trailing zeros in `units`. */
export interface Decimal {
  readonly units: number
  readonly scale: number
}

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

/** Why a value is not a decimal we accept. */
export type DecimalProblem = "not_a_number" | "negative" | "too_many_decimals" | "too_large"

/**
 * Parses a JSON number or a decimal string through its shortest decimal text
 * (`String(2.9)` is "2.9"), allowing at most `maxScale` decimal places.
 */
export const parse = (value: unknown, maxScale: number): Either.Either<Decimal, DecimalProblem> => {
  const text = toText(value)
  if (text === undefined) return Either.left("not_a_number")
  if (text.startsWith("-")) return isZeroText(text) ? Either.right(ZERO) : Either.left("negative")
  const match = DECIMAL_TEXT.exec(text)
  if (match === null) return Either.left("not_a_number")
  const [, whole = "", fraction = "", exponent = "0"] = match
  return fromDigits(whole + fraction, fraction.length - Number(exponent), maxScale)
}

/** The decimal's value scaled to `scale` places, as an integer; undefined when it does not fit exactly. */
export const toScaled = (decimal: Decimal, scale: number): number | undefined => {
  if (decimal.scale > scale) return undefined
  const scaled = decimal.units * (POW10[scale - decimal.scale] ?? 10 ** (scale - decimal.scale))
  return Number.isSafeInteger(scaled) ? scaled : undefined
}

/** The decimal `units / 10^scale` from an integer, normalised. */
export const fromScaled = (units: number, scale: number): Decimal => normalise(units, scale)

/**
 * The decimal as a JS number for display on the wire (`{flatFee: 0.3}`); never used for
 * arithmetic. Division of exact integers is correctly rounded: the same double as `Number("0.3")`.
 */
export const toNumber = (decimal: Decimal): number => decimal.units / 10 ** decimal.scale

/** The decimal's canonical text, e.g. "2.9", "0.3", "12". */
export const format = (decimal: Decimal): string => {
  if (decimal.scale === 0) return String(decimal.units)
  const digits = String(decimal.units).padStart(decimal.scale + 1, "0")
  const cut = digits.length - decimal.scale
  return `${digits.slice(0, cut)}.${digits.slice(cut)}`
}

const POW10 = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

/** Decimal zero. */
export const ZERO: Decimal = { units: 0, scale: 0 }

const toText = (value: unknown): string | undefined => {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined
  if (typeof value === "string" && value.length > 0 && value.length <= 40) return value.trim()
  return undefined
}

const isZeroText = (text: string): boolean => /^-0+(\.0+)?$/.test(text)

const fromDigits = (
  rawDigits: string,
  rawScale: number,
  maxScale: number
): Either.Either<Decimal, DecimalProblem> => {
  let digits = rawDigits.replace(/^0+(?=\d)/, "")
  let scale = rawScale
  while (scale > 0 && digits.length > 1 && digits.endsWith("0")) {
    digits = digits.slice(0, -1)
    scale--
  }
  if (/^0+$/.test(digits)) return Either.right(ZERO)
  if (scale > maxScale) return Either.left("too_many_decimals")
  if (scale < 0) {
    if (digits.length - scale > 16) return Either.left("too_large")
    digits = digits + "0".repeat(-scale)
    scale = 0
  }
  if (digits.length > 16) return Either.left("too_large")
  const units = Number(digits)
  return Number.isSafeInteger(units) ? Either.right({ units, scale }) : Either.left("too_large")
}

const normalise = (units: number, scale: number): Decimal => {
  let u = units
  let s = scale
  while (s > 0 && u % 10 === 0) {
    u /= 10
    s--
  }
  return u === 0 ? ZERO : { units: u, scale: s }
}

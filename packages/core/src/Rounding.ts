/**
 * Integer division with an explicit rounding mode: the single rounding step of a fee
 * (docs/design.md §2). Operands are non-negative safe integers; results are exact.
 */

/** How the percentage part of a fee is rounded to the currency's smallest step. */
export type RoundingMode = "half_up" | "half_even" | "up" | "down"

/** Every rounding mode, the default first. */
export const modes: ReadonlyArray<RoundingMode> = ["half_up", "half_even", "up", "down"]

/** True when `value` names a rounding mode. */
export const isRoundingMode = (value: unknown): value is RoundingMode =>
  value === "half_up" || value === "half_even" || value === "up" || value === "down"

/**
 * `round(a × b / d)` by `mode`, exactly. The product stays in safe-integer range for every
 * amount and rate Levy accepts (≤ 99,999,999 × 1,000,000 < 2^53); beyond it, bigint takes over.
 */
export const mulDiv = (a: number, b: number, d: number, mode: RoundingMode): number => {
  const product = a * b
  if (product > Number.MAX_SAFE_INTEGER) return mulDivBig(a, b, d, mode)
  let quotient = Math.floor(product / d)
  let remainder = product - quotient * d
  // The float quotient can be one off near an integer; the remainder puts it right.
  if (remainder < 0) {
    quotient--
    remainder += d
  } else if (remainder >= d) {
    quotient++
    remainder -= d
  }
  return quotient + roundUpBy(remainder, d, quotient % 2 === 1, mode)
}

/** `floor(a × b / d)`, exactly: `mulDiv` in mode "down" without the mode dispatch (caps are floored on every check). */
export const mulDivDown = (a: number, b: number, d: number): number => {
  const product = a * b
  if (product > Number.MAX_SAFE_INTEGER) return mulDivBig(a, b, d, "down")
  const quotient = Math.floor(product / d)
  const remainder = product - quotient * d
  return remainder < 0 ? quotient - 1 : remainder >= d ? quotient + 1 : quotient
}

/** Whether a quotient with this remainder goes up by one under `mode`. */
const roundUpBy = (
  remainder: number,
  d: number,
  quotientOdd: boolean,
  mode: RoundingMode
): number => {
  if (remainder === 0) return 0
  switch (mode) {
    case "down":
      return 0
    case "up":
      return 1
    case "half_up":
      return remainder * 2 >= d ? 1 : 0
    case "half_even": {
      const twice = remainder * 2
      return twice > d || (twice === d && quotientOdd) ? 1 : 0
    }
  }
}

const mulDivBig = (a: number, b: number, d: number, mode: RoundingMode): number => {
  const product = BigInt(a) * BigInt(b)
  const divisor = BigInt(d)
  const quotient = product / divisor
  const remainder = product - quotient * divisor
  const twice = remainder * 2n
  const odd = quotient % 2n === 1n
  let up = false
  if (remainder !== 0n) {
    if (mode === "up") up = true
    else if (mode === "half_up") up = twice >= divisor
    else if (mode === "half_even") up = twice > divisor || (twice === divisor && odd)
  }
  return Number(up ? quotient + 1n : quotient)
}

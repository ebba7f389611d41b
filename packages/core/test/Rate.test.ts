/**
 * Rates from their decimal text into integers (docs/design.md §2), the exact decimals beneath
 * them, and the one rounding step, checked against bigint arithmetic written here.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import * as Currency from "../src/Currency.js"
import * as Decimal from "../src/Decimal.js"
import type { FeeError } from "../src/FeeError.js"
import * as Rate from "../src/Rate.js"
import * as Rounding from "../src/Rounding.js"
import { left, right } from "./support.js"

const codeAndParam = (error: FeeError) => ({ code: error.code, param: error.param })

const currency = (code: string): Currency.Currency => {
  const found = Currency.lookup(code)
  if (found === undefined) throw new Error(`no currency ${code}`)
  return found
}

describe("Rate.parsePercentage", () => {
  // 1 % = 10,000 millionths of the amount.
  it.each([
    [2.9, 29_000],
    ["2.9", 29_000],
    ["2.90", 29_000],
    [" 2.9 ", 29_000],
    [1.4, 14_000],
    [3, 30_000],
    [0, 0],
    [-0, 0],
    ["0.0001", 1],
    [2.1234, 21_234],
    [100, 1_000_000],
    ["1e1", 100_000],
    ["29e-1", 29_000]
  ] as const)("%j → %i ppm", (input, ppm) => {
    expect(right(Rate.parsePercentage(input)).ppm).toBe(ppm)
  })

  it("2.12345 has too many decimals: parameter_invalid naming the field", () => {
    const error = left(Rate.parsePercentage(2.12345))
    expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "percentage" })
    expect(error.message).toContain("percentage")
    expect(error.message).toContain("4 decimal")
  })

  // 0.1 + 0.2 is 0.30000000000000004: its shortest text has 17 decimals, not 0.3.
  it("a float artefact is refused rather than silently rounded", () => {
    expect(left(Rate.parsePercentage(0.1 + 0.2)).code).toBe("parameter_invalid")
  })

  it.each([
    -1,
    -0.0001,
    "-2.9",
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    100.0001,
    101,
    1e21,
    "1e21",
    1e300,
    "abc",
    "",
    "2,9",
    "2.9%",
    true,
    {},
    []
  ])("%j → parameter_invalid naming percentage", (input) => {
    const error = left(Rate.parsePercentage(input))
    expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "percentage" })
    expect(error._tag).toBe("FeeError")
    expect(error.message).toContain("percentage")
  })

  it.each([null, undefined])("%j → parameter_missing", (input) => {
    expect(codeAndParam(left(Rate.parsePercentage(input)))).toEqual({
      code: "parameter_missing",
      param: "percentage"
    })
  })

  it("names the field it is given", () => {
    expect(left(Rate.parsePercentage(-1, "maxPercentage")).param).toBe("maxPercentage")
    expect(left(Rate.parsePercentage(2.12345, "maxPercentage")).param).toBe("maxPercentage")
  })

  it("round-trips: percentageToNumber(parsePercentage(ppm / 10^4)) = ppm / 10^4", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Rate.PPM }), (ppm) => {
        const percent = ppm / 10_000
        const parsed = right(Rate.parsePercentage(percent)).ppm
        expect(parsed).toBe(ppm)
        expect(Rate.percentageToNumber(parsed)).toBe(percent)
        // And through the text a client would send.
        expect(right(Rate.parsePercentage(String(percent))).ppm).toBe(ppm)
      })
    )
  })

  it("refuses every percentage above 100 and accepts every one up to it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000_000 }), (ppm) => {
        const result = Rate.parsePercentage(`${ppm}e-4`)
        if (ppm <= 1_000_000) expect(right(result).ppm).toBe(ppm)
        else
          expect(codeAndParam(left(result))).toEqual({
            code: "parameter_invalid",
            param: "percentage"
          })
      })
    )
  })
})

describe("Rate.parseFlatFee", () => {
  it.each([
    [0.3, "0.3"],
    ["0.30", "0.3"],
    [0, "0"],
    [30, "30"],
    [0.305, "0.305"],
    [999_999.99, "999999.99"]
  ] as const)("%j → %s", (input, text) => {
    expect(Decimal.format(right(Rate.parseFlatFee(input)))).toBe(text)
  })

  it.each([
    0.3051,
    -0.3,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e21,
    1_000_000,
    "thirty cents",
    false
  ])("%j → parameter_invalid naming flatFee", (input) => {
    const error = left(Rate.parseFlatFee(input))
    expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "flatFee" })
    expect(error.message).toContain("flatFee")
  })

  it("0.3051 is refused for its decimals", () => {
    expect(left(Rate.parseFlatFee(0.3051)).message).toContain("3 decimal")
  })

  it("a missing flat fee → parameter_missing", () => {
    expect(left(Rate.parseFlatFee(undefined)).code).toBe("parameter_missing")
  })
})

describe("Rate.flatFeeMinor", () => {
  const flat = (value: unknown) => right(Rate.parseFlatFee(value))

  it.each([
    [0.3, "usd", 30],
    [0.2, "gbp", 20],
    [30, "jpy", 30],
    [0.3, "kwd", 300],
    [0.31, "kwd", 310],
    [1, "isk", 100],
    [0, "jpy", 0]
  ] as const)("%j %s → %i minor units", (value, code, minor) => {
    expect(right(Rate.flatFeeMinor(flat(value), currency(code)))).toBe(minor)
  })

  it.each([
    [0.3, "jpy"],
    [0.005, "usd"],
    [0.305, "kwd"],
    [0.5, "isk"],
    [0.3, "huf"]
  ] as const)("%j cannot be charged exactly in %s", (value, code) => {
    const error = left(Rate.flatFeeMinor(flat(value), currency(code)))
    expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "flatFee" })
    expect(error.message).toContain(code.toUpperCase())
  })
})

describe("Decimal", () => {
  it.each([
    ["2.9", 29, 1],
    ["2.90", 29, 1],
    ["002.9", 29, 1],
    ["100", 100, 0],
    ["1e2", 100, 0],
    ["2.9e-1", 29, 2],
    ["0.000", 0, 0],
    ["-0", 0, 0]
  ] as const)("parse(%j) = %i / 10^%i", (text, units, scale) => {
    expect(right(Decimal.parse(text, 4))).toEqual({ units, scale })
  })

  it.each([
    ["-1", "negative"],
    ["abc", "not_a_number"],
    [".5", "not_a_number"],
    ["1.23456", "too_many_decimals"],
    ["1e-5", "too_many_decimals"],
    ["1e17", "too_large"],
    ["12345678901234567", "too_large"]
  ] as const)("parse(%j) fails: %s", (text, problem) => {
    expect(left(Decimal.parse(text, 4))).toBe(problem)
  })

  // Canonical text: no leading zeros but one before the point, no trailing zeros after it.
  const canonical = fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.integer({ min: 0, max: 6 }))
    .map(([units, scale]) => {
      const digits = units.toString().padStart(scale + 1, "0")
      const cut = digits.length - scale
      const text = scale === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`
      return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text
    })

  it("format(parse(text)) = text for canonical decimal text", () => {
    fc.assert(
      fc.property(canonical, (text) => {
        expect(Decimal.format(right(Decimal.parse(text, 6)))).toBe(text)
      })
    )
  })

  it("parse(format(fromScaled(u, s))) = fromScaled(u, s), and as a JS number too", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 15 - 1 }),
        fc.integer({ min: 0, max: 6 }),
        (units, scale) => {
          const decimal = Decimal.fromScaled(units, scale)
          expect(right(Decimal.parse(Decimal.format(decimal), 6))).toEqual(decimal)
          // Up to 15 significant digits a double keeps the decimal's shortest text.
          expect(right(Decimal.parse(Decimal.toNumber(decimal), 6))).toEqual(decimal)
          // toScaled gives the integer of millionths when it is a safe integer, else nothing.
          const millionths = BigInt(units) * 10n ** BigInt(6 - scale)
          expect(Decimal.toScaled(decimal, 6)).toBe(
            millionths <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(millionths) : undefined
          )
        }
      )
    )
  })

  it("toScaled refuses to lose digits", () => {
    expect(Decimal.toScaled(right(Decimal.parse("0.305", 3)), 2)).toBeUndefined()
    expect(Decimal.toScaled(right(Decimal.parse("0.3", 3)), 2)).toBe(30)
  })
})

describe("Rounding.mulDiv", () => {
  /** round(a × b / d) by mode, exactly, in bigint. */
  const reference = (a: bigint, b: bigint, d: bigint, mode: Rounding.RoundingMode): bigint => {
    const q = (a * b) / d
    const r = a * b - q * d
    if (r === 0n || mode === "down") return q
    if (mode === "up") return q + 1n
    if (2n * r > d) return q + 1n
    if (2n * r < d) return q
    return mode === "half_up" || q % 2n === 1n ? q + 1n : q
  }

  const mode = fc.constantFrom(...Rounding.modes)

  // The shape of fee arithmetic: amounts ≤ 99,999,999, ppm ≤ 10^6, divisors 10^6 × increment.
  it("equals the bigint reference on fee-sized inputs", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom(1_000_000, 10_000_000, 100_000_000, 971_000, 986_000, 1),
        mode,
        (a, b, d, m) => {
          expect(Rounding.mulDiv(a, b, d, m)).toBe(
            Number(reference(BigInt(a), BigInt(b), BigInt(d), m))
          )
        }
      )
    )
  })

  it("mulDivDown equals the reference in mode down, products above 2^53 included", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 2 ** 40 })),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom(1_000_000, 10_000_000, 100_000_000, 3, 7),
        (a, b, d) => {
          expect(Rounding.mulDivDown(a, b, d)).toBe(
            Number(reference(BigInt(a), BigInt(b), BigInt(d), "down"))
          )
        }
      )
    )
  })

  it("equals the bigint reference for any safe integers, products above 2^53 included", () => {
    const safe = fc.oneof(
      fc.integer({ min: 0, max: 1000 }),
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.maxSafeNat()
    )
    fc.assert(
      fc.property(
        safe,
        safe,
        safe.filter((d) => d > 0),
        mode,
        (a, b, d, m) => {
          const expected = reference(BigInt(a), BigInt(b), BigInt(d), m)
          const actual = Rounding.mulDiv(a, b, d, m)
          // Exact whenever the result is a safe integer; beyond, the nearest double.
          if (expected <= BigInt(Number.MAX_SAFE_INTEGER)) expect(BigInt(actual)).toBe(expected)
          else expect(actual).toBe(Number(expected))
        }
      ),
      { numRuns: 2000 }
    )
  })

  it("products straddling 2^53 with exact halves", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2 ** 26, max: 2 ** 28 }),
        fc.integer({ min: 2 ** 26, max: 2 ** 28 }),
        mode,
        (a, b, m) => {
          // d = 2 makes every odd product an exact half.
          for (const d of [2, 10, 3, 1_000_000]) {
            expect(Rounding.mulDiv(a, b, d, m)).toBe(
              Number(reference(BigInt(a), BigInt(b), BigInt(d), m))
            )
          }
        }
      )
    )
  })

  // fee-math §2, in the engine's units: 150 × 30,000 ppm / 10^6 = 4.5 cents.
  it("the half-up vs half-even table", () => {
    expect(Rounding.mulDiv(150, 30_000, 1_000_000, "half_up")).toBe(5)
    expect(Rounding.mulDiv(150, 30_000, 1_000_000, "half_even")).toBe(4)
    expect(Rounding.mulDiv(1150, 30_000, 1_000_000, "half_up")).toBe(35)
    expect(Rounding.mulDiv(1150, 30_000, 1_000_000, "half_even")).toBe(34)
    expect(Rounding.mulDiv(1050, 30_000, 1_000_000, "half_even")).toBe(32)
    expect(Rounding.mulDiv(1050, 30_000, 1_000_000, "down")).toBe(31)
  })

  it("isRoundingMode accepts exactly the four modes", () => {
    for (const m of ["half_up", "half_even", "up", "down"])
      expect(Rounding.isRoundingMode(m)).toBe(true)
    for (const m of ["HALF_UP", "ceil", "", null, 1]) expect(Rounding.isRoundingMode(m)).toBe(false)
  })
})

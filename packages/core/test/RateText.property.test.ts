/**
 * Properties of `Rate.percent` / `Rate.flat`, the decimal text the engine's rates are made
 * from: text round-trips through the integer it becomes, anything inexact, negative or with
 * too many decimals is refused (never rounded), and a percent's text gives the same fee and
 * verdict in-process as the API computes for the same number or text on the wire.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import * as Compliance from "../src/compliance/Compliance.js"
import * as Ruleset from "../src/compliance/Ruleset.js"
import * as Fee from "../src/Fee.js"
import { isFeeError } from "../src/FeeError.js"
import * as FeeSchedule from "../src/FeeSchedule.js"
import * as Rate from "../src/Rate.js"
import { PLACES } from "./arbitraries.js"
import { right } from "./support.js"

/** Decimal text: whole digits, and `places` fraction digits (trailing zeros allowed). */
const decimalText = (maxWhole: number, places: fc.Arbitrary<number>) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxWhole }), places)
    .chain(([whole, n]) =>
      fc
        .array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n })
        .map((digits) => ({ whole, fraction: digits.join("") }))
    )
    .map(({ whole, fraction }) => ({
      text: fraction === "" ? String(whole) : `${whole}.${fraction}`,
      whole,
      fraction
    }))

/** The text's value scaled to `scale` places, by string arithmetic alone (the oracle). */
const scaledByText = (whole: number, fraction: string, scale: number): number =>
  whole * 10 ** scale + Number(fraction.padEnd(scale, "0") || "0")

const throwsFeeError = (f: () => unknown): string | undefined => {
  try {
    f()
    return undefined
  } catch (error) {
    expect(isFeeError(error)).toBe(true)
    return (error as Error).message
  }
}

describe("Rate.percent: decimal text in percent", () => {
  it("reads any text of at most 4 decimals exactly, up to 100", () => {
    fc.assert(
      fc.property(decimalText(100, fc.integer({ min: 0, max: 4 })), ({ text, whole, fraction }) => {
        const ppm = scaledByText(whole, fraction, Rate.PERCENT_DECIMALS)
        if (ppm > Rate.PPM) {
          expect(throwsFeeError(() => Rate.percent(text))).toContain("between 0 and 100")
        } else {
          expect(Rate.percent(text).ppm).toBe(ppm)
        }
      })
    )
  })

  it("round-trips: the canonical text of every ppm reads back to it, and is its own canonical text", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Rate.PPM }), (ppm) => {
        const text = Rate.percentText(Rate.partsPerMillion(ppm))
        expect(Rate.percent(text).ppm).toBe(ppm)
        expect(Rate.percentText(Rate.percent(text))).toBe(text)
        // The canonical text has no trailing zero after a point.
        expect(text).not.toMatch(/\.\d*0$/)
      })
    )
  })

  it("refuses text with more than 4 significant decimals, naming it, never rounding", () => {
    fc.assert(
      fc.property(
        decimalText(100, fc.integer({ min: 5, max: 12 })).filter(({ fraction }) =>
          /[1-9]/.test(fraction.slice(4))
        ),
        ({ text }) => {
          expect(throwsFeeError(() => Rate.percent(text))).toBe(
            `percentage "${text}" must have at most 4 decimal places.`
          )
        }
      )
    )
  })

  it("refuses every negative percentage, naming it", () => {
    fc.assert(
      fc.property(
        decimalText(1_000, fc.integer({ min: 0, max: 4 })).filter(({ text }) => /[1-9]/.test(text)),
        ({ text }) => {
          expect(throwsFeeError(() => Rate.percent(`-${text}`))).toBe(
            `percentage "-${text}" must not be negative.`
          )
        }
      )
    )
  })
})

describe("Rate.percentFromNumber: a number converted exactly or refused", () => {
  it("accepts every number of at most 4 decimals, as the same rate as its text", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Rate.PPM }), (ppm) => {
        const n = ppm / 10_000
        expect(Rate.percentFromNumber(n)).toEqual(Rate.percent(String(n)))
        expect(Rate.percentFromNumber(n).ppm).toBe(ppm)
      })
    )
  })

  it("refuses a number whose shortest text has more than 4 decimals (inexact)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }).filter((n) => {
          const fraction = String(n).split(".")[1] ?? ""
          return !String(n).includes("e") && fraction.length > 4
        }),
        (n) => {
          expect(throwsFeeError(() => Rate.percentFromNumber(n))).toBe(
            `percentage ${n} must have at most 4 decimal places.`
          )
        }
      )
    )
  })
})

describe("Rate.flat: decimal text in major units", () => {
  it("round-trips every flat fee of at most 3 decimals", () => {
    fc.assert(
      fc.property(
        decimalText(999_999, fc.integer({ min: 0, max: 3 })),
        ({ text, whole, fraction }) => {
          const fee = Rate.flat(text)
          const thousandths = scaledByText(whole, fraction, Rate.FLAT_DECIMALS)
          expect(fee.units * 10 ** (Rate.FLAT_DECIMALS - fee.scale)).toBe(thousandths)
          expect(Rate.flat(Rate.flatText(fee))).toEqual(fee)
        }
      )
    )
  })

  it("refuses more than 3 significant decimals and negatives, naming the text", () => {
    fc.assert(
      fc.property(
        decimalText(1_000, fc.integer({ min: 4, max: 9 })).filter(({ fraction }) =>
          /[1-9]/.test(fraction.slice(3))
        ),
        ({ text }) => {
          expect(throwsFeeError(() => Rate.flat(text))).toBe(
            `flatFee "${text}" must have at most 3 decimal places.`
          )
          expect(throwsFeeError(() => Rate.flat(`-${text}`))).toBe(
            `flatFee "-${text}" must not be negative.`
          )
        }
      )
    )
  })
})

describe("in-process and HTTP agree on the same percent", () => {
  const R = Ruleset.DEFAULT
  // The API reads a fee configuration's and a compliance check's percentage with
  // Rate.parsePercentage from the JSON number or text (FeeSchedule.make, regions' check).
  const percentText = fc
    .integer({ min: 0, max: 200_000 })
    .map((ppm) => Rate.percentText(Rate.partsPerMillion(ppm)))

  it("the fee of Rate.percent(p) is the API's fee for p as a JSON number and as text", () => {
    fc.assert(
      fc.property(
        percentText,
        fc.integer({ min: 50, max: 10_000_000 }),
        fc.constantFrom("usd", "jpy", "kwd"),
        fc.constantFrom<FeeSchedule.FeeModel>("add_on", "gross_up"),
        (p, amount, currency, model) => {
          const inProcess: FeeSchedule.FeeSchedule = {
            ...FeeSchedule.DEFAULT,
            model,
            percentage: Rate.percent(p),
            flatFee: Rate.NO_FLAT_FEE
          }
          const wireNumber = right(
            FeeSchedule.make({
              model,
              percentage: JSON.parse(JSON.stringify(Number(p))),
              flatFee: 0
            })
          )
          const wireText = right(FeeSchedule.make({ model, percentage: p, flatFee: "0" }))
          const fee = (s: FeeSchedule.FeeSchedule) => {
            const q = Fee.quote(s, amount, currency)
            return q._tag === "Right" ? q.right.convenienceFee : q.left.code
          }
          expect(fee(inProcess)).toBe(fee(wireNumber))
          expect(fee(inProcess)).toBe(fee(wireText))
        }
      )
    )
  })

  it("the verdict of Rate.percent(p) is the API's verdict for p", () => {
    fc.assert(
      fc.property(percentText, fc.constantFrom(...PLACES), (p, region) => {
        const context = { region, cardType: "credit", date: "2026-01-15" } as const
        const inProcess = Compliance.check(R, {
          ...context,
          percentage: Rate.percent(p),
          flatFee: Rate.NO_FLAT_FEE
        })
        const wire = Compliance.check(R, {
          ...context,
          percentage: right(Rate.parsePercentage(Number(p))),
          flatFee: right(Rate.parseFlatFee(0))
        })
        expect(inProcess).toEqual(wire)
      }),
      { numRuns: 300 }
    )
  })
})

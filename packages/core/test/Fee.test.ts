/**
 * Worked examples of the fee engine. Every expected number comes from the interface
 * specification, docs/fees.md or docs/design.md §1–§2,
 * worked by hand in the comments; none is copied from running the code.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as Currency from "../src/Currency.js"
import * as Fee from "../src/Fee.js"
import type { FeeError } from "../src/FeeError.js"
import * as FeeSchedule from "../src/FeeSchedule.js"
import * as Rate from "../src/Rate.js"
import { left, right } from "./support.js"

const schedule = (input: FeeSchedule.FeeScheduleInput): FeeSchedule.FeeSchedule =>
  right(FeeSchedule.make(input))

/** The error's machine-readable parts. */
const codeAndParam = (error: FeeError) => ({ code: error.code, param: error.param })

describe("Fee.quote: the specification's example (add_on, 2.9 % + 0.30)", () => {
  // Spec: "10000 at 2.9 and 0.30 gives 320": 10000 × 2.9 / 100 = 290, 0.30 dollars = 30 cents.
  it("10000 usd → fee 320, total 10320", () => {
    const q = right(Fee.quote(FeeSchedule.DEFAULT, 10000, "usd"))
    expect(q.baseAmount).toBe(10000)
    expect(q.convenienceFee).toBe(320)
    expect(q.totalAmount).toBe(10320)
    expect(q.adjustment).toBe(0)
    expect(q.model).toBe("add_on")
    expect(q.rounding).toBe("half_up")
  })

  it("feeBreakdown is the applied fee in minor units, feeStructure the configured rate", () => {
    const q = right(Fee.quote(FeeSchedule.DEFAULT, 10000, "usd"))
    expect(q.feeBreakdown).toEqual({ percentage: 290, flatFee: 30 })
    expect(q.feeStructure).toEqual({ percentage: 2.9, flatFee: 0.3 })
  })

  it("the default schedule is the specification's configuration (docs/design.md §2)", () => {
    expect(FeeSchedule.DEFAULT.percentage.ppm).toBe(29_000)
    expect(Rate.flatText(FeeSchedule.DEFAULT.flatFee)).toBe("0.3")
    expect(FeeSchedule.DEFAULT.minAmount).toBe(50)
    expect(FeeSchedule.DEFAULT.maxAmount).toBeNull()
    expect(FeeSchedule.DEFAULT.model).toBe("add_on")
    expect(FeeSchedule.DEFAULT.rounding).toBe("half_up")
  })

  it("a schedule made from wire numbers and from strings gives the same quote", () => {
    const fromNumbers = schedule({ percentage: 2.9, flatFee: 0.3 })
    const fromStrings = schedule({ percentage: "2.9", flatFee: "0.30" })
    expect(right(Fee.quote(fromNumbers, 10000, "usd")).convenienceFee).toBe(320)
    expect(right(Fee.quote(fromStrings, 10000, "usd")).convenienceFee).toBe(320)
  })

  it("echoes the currency exactly as sent: 'USD' and 'usd'", () => {
    expect(right(Fee.quote(FeeSchedule.DEFAULT, 10000, "USD")).currency).toBe("USD")
    expect(right(Fee.quote(FeeSchedule.DEFAULT, 10000, "usd")).currency).toBe("usd")
    expect(right(Fee.quote(FeeSchedule.DEFAULT, 10000, "USD")).convenienceFee).toBe(320)
  })

  it("feeStructure reports other rates in percent and major units", () => {
    const q = right(Fee.quote(schedule({ percentage: 1.4, flatFee: 0.2 }), 10000, "gbp"))
    expect(q.feeStructure).toEqual({ percentage: 1.4, flatFee: 0.2 })
    // 10000 × 1.4 % = 140, 0.20 pounds = 20 pence.
    expect(q.feeBreakdown).toEqual({ percentage: 140, flatFee: 20 })
    expect(q.convenienceFee).toBe(160)
  })
})

describe("Fee.quote: gross_up (fee-math §1, docs/design.md §2)", () => {
  const grossUs = schedule({ model: "gross_up" })

  // fee-math §1.3: 100.30 / 0.971 = 103.2955… → 103.30; the processor takes
  // 103.30 × 2.9 % = 2.9957 → 3.00 plus 0.30, the merchant nets exactly 100.00.
  it("10000 usd at 2.9 % + 0.30 → total 10330", () => {
    const q = right(Fee.quote(grossUs, 10000, "usd"))
    expect(q.totalAmount).toBe(10330)
    expect(q.convenienceFee).toBe(330)
    expect(q.model).toBe("gross_up")
    // The fee splits into the flat part and the rest.
    expect(q.feeBreakdown).toEqual({ percentage: 300, flatFee: 30 })
    expect(q.adjustment).toBe(0)
  })

  // fee-math §1.3: 10.30 / 0.971 = 10.6076… → 10.61 (a 6.10 % fee on $10).
  it("1000 usd at 2.9 % + 0.30 → total 1061", () => {
    const q = right(Fee.quote(grossUs, 1000, "usd"))
    expect(q.totalAmount).toBe(1061)
    expect(q.convenienceFee).toBe(61)
  })

  // Truncating 103.2955… gives Neartail's 103.29, which nets 99.99 (fee-math §1.2): not what we do.
  it("does not truncate the gross-up total (Neartail's 10329 under-recovers)", () => {
    expect(right(Fee.quote(grossUs, 10000, "usd")).totalAmount).not.toBe(10329)
  })

  // The exact gross is 100.20 / 0.986 = 101.6227180… (fee-math §1.3). The ceiling would be
  // 101.63, but 101.62 already nets 100.00 when the processor rounds its 1.4 % half-up:
  // 10162 × 0.014 = 142.268 → 142, + 20 = 162, and 10162 − 162 = 10000. The issue pins 10162:
  // the engine charges the least total that nets the base, never a cent more.
  it("10000 gbp at 1.4 % + 0.20 → total 10162 (fee-math's 101.62)", () => {
    const q = right(
      Fee.quote(schedule({ model: "gross_up", percentage: 1.4, flatFee: 0.2 }), 10000, "gbp")
    )
    expect(q.totalAmount).toBe(10162)
    expect(q.convenienceFee).toBe(162)
    // One minor unit less nets 9999: 10161 × 0.014 = 142.254 → 142, + 20 = 162.
    expect(10161 - (142 + 20)).toBeLessThan(10000)
  })

  it("refuses a 100 % percentage for gross_up (the total would be infinite)", () => {
    const error = left(FeeSchedule.make({ model: "gross_up", percentage: 100 }))
    expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "percentage" })
  })
})

describe("Fee.quote: rounding of the percentage part (fee-math §2)", () => {
  const at3 = (rounding: string) => schedule({ percentage: 3, flatFee: 0, rounding })
  const fee = (rounding: string, amount: number, currency: string) =>
    right(Fee.quote(at3(rounding), amount, currency)).convenienceFee

  // $1.50 × 3 % = 0.045 dollars = 4.5 cents.
  it("$1.50 × 3 %: half_up 5, half_even 4, down 4, up 5", () => {
    expect(fee("half_up", 150, "usd")).toBe(5)
    expect(fee("half_even", 150, "usd")).toBe(4)
    expect(fee("down", 150, "usd")).toBe(4)
    expect(fee("up", 150, "usd")).toBe(5)
  })

  // ¥1,150 × 3 % = 34.5 yen.
  it("¥1,150 × 3 %: half_up 35, half_even 34, down 34", () => {
    expect(fee("half_up", 1150, "jpy")).toBe(35)
    expect(fee("half_even", 1150, "jpy")).toBe(34)
    expect(fee("down", 1150, "jpy")).toBe(34)
    expect(fee("up", 1150, "jpy")).toBe(35)
  })

  // ¥1,050 × 3 % = 31.5 yen: 31 is odd, so half-even also goes up.
  it("¥1,050 × 3 %: half_up 32, half_even 32, down 31", () => {
    expect(fee("half_up", 1050, "jpy")).toBe(32)
    expect(fee("half_even", 1050, "jpy")).toBe(32)
    expect(fee("down", 1050, "jpy")).toBe(31)
    expect(fee("up", 1050, "jpy")).toBe(32)
  })

  it("an exact result is not moved by any mode: 10000 × 3 % = 300", () => {
    for (const mode of ["half_up", "half_even", "up", "down"]) {
      expect(fee(mode, 10000, "usd")).toBe(300)
    }
  })

  // 1001 × 3 % = 30.03 cents.
  it("up rounds any remainder up, the others keep 30", () => {
    expect(fee("up", 1001, "usd")).toBe(31)
    expect(fee("half_up", 1001, "usd")).toBe(30)
    expect(fee("half_even", 1001, "usd")).toBe(30)
    expect(fee("down", 1001, "usd")).toBe(30)
  })

  it("the flat part is never rounded: it is added after the one rounding step", () => {
    // 150 × 3 % = 4.5 → 5 (half_up), plus 0.30 = 30 → 35; half_even 4 + 30 = 34.
    const withFlat = (rounding: string) => schedule({ percentage: 3, flatFee: 0.3, rounding })
    expect(right(Fee.quote(withFlat("half_up"), 150, "usd")).convenienceFee).toBe(35)
    expect(right(Fee.quote(withFlat("half_even"), 150, "usd")).convenienceFee).toBe(34)
  })

  it("reports the rounding mode on the quote", () => {
    expect(right(Fee.quote(at3("half_even"), 150, "usd")).rounding).toBe("half_even")
  })

  it("refuses an unknown rounding mode, naming the field", () => {
    const error = left(FeeSchedule.make({ rounding: "bankers" }))
    expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "rounding" })
  })
})

describe("Fee.quote: currencies (fee-math §3)", () => {
  describe("zero-decimal: JPY", () => {
    it("amounts are whole yen: 10000 jpy × 2.9 % + ¥30 → 290 + 30", () => {
      const q = right(Fee.quote(schedule({ flatFee: 30 }), 10000, "jpy"))
      expect(q.feeBreakdown).toEqual({ percentage: 290, flatFee: 30 })
      expect(q.totalAmount).toBe(10320)
      expect(q.feeStructure).toEqual({ percentage: 2.9, flatFee: 30 })
    })

    it("a flat fee of 0.30 cannot be charged in yen: the error names the fee configuration", () => {
      const error = left(Fee.quote(FeeSchedule.DEFAULT, 10000, "jpy"))
      expect(codeAndParam(error)).toEqual({ code: "currency_not_configured", param: "currency" })
      expect(error.message).toContain("JPY")
      expect(error.message).toContain("fee configuration")
      expect(error.message).toContain("currencyFees.jpy.flatFee")
    })

    it("the minimum charge is ¥50 (fee-math §4.1)", () => {
      const s = schedule({ flatFee: 0 })
      expect(Either.isRight(Fee.quote(s, 50, "jpy"))).toBe(true)
      const error = left(Fee.quote(s, 49, "jpy"))
      expect(codeAndParam(error)).toEqual({ code: "amount_too_small", param: "amount" })
      expect(error.message).toContain("50 JPY")
    })

    it("every currency on Stripe's zero-decimal list has exponent 0", () => {
      const list = "BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF VND VUV XAF XOF XPF".split(" ")
      for (const code of list) {
        expect(Currency.lookup(code), code).toMatchObject({ exponent: 0, increment: 1 })
      }
    })
  })

  describe("three-decimal: KWD (amounts in fils, steps of 10)", () => {
    it("10.000 KWD at 2.9 % + 0.300 → 290 + 300 fils", () => {
      const q = right(Fee.quote(FeeSchedule.DEFAULT, 10000, "kwd"))
      expect(q.feeBreakdown).toEqual({ percentage: 290, flatFee: 300 })
      expect(q.totalAmount).toBe(10590)
    })

    // fee-math §3.3: "5.124 KWD must be rounded to 5120 or 5130" – so 1.235 KWD is no charge.
    it("refuses an amount whose last digit is not 0", () => {
      const error = left(Fee.quote(FeeSchedule.DEFAULT, 1235, "kwd"))
      expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "amount" })
      expect(error.message).toContain("10")
    })

    // 1.230 KWD × 3 % = 36.9 fils → to tens of fils: 3.69 → 4 (half_up) → 40; down → 30.
    it("rounds the percentage part to tens of fils", () => {
      const s = (rounding: string) => schedule({ percentage: 3, flatFee: 0, rounding })
      expect(right(Fee.quote(s("half_up"), 1230, "kwd")).convenienceFee).toBe(40)
      expect(right(Fee.quote(s("down"), 1230, "kwd")).convenienceFee).toBe(30)
    })

    // 1.150 KWD × 3 % = 34.5 fils = 3.45 tens → 3 → 30 in ONE step. Rounding to fils first
    // (34.5 → 35) and then to tens (3.5 → 4) would give 40: the double-rounding error.
    it("rounds once, straight to the increment (no double rounding)", () => {
      const s = schedule({ percentage: 3, flatFee: 0 })
      expect(right(Fee.quote(s, 1150, "kwd")).convenienceFee).toBe(30)
    })

    it("a flat fee must be a multiple of 10 fils", () => {
      const error = left(Fee.quote(schedule({ flatFee: 0.305 }), 10000, "kwd"))
      expect(codeAndParam(error)).toEqual({ code: "currency_not_configured", param: "currency" })
      const entry = left(FeeSchedule.make({ currencyFees: { kwd: { flatFee: 0.305 } } }))
      expect(codeAndParam(entry)).toEqual({
        code: "parameter_invalid",
        param: "currencyFees.kwd.flatFee"
      })
    })

    it("every three-decimal currency has exponent 3 and increment 10", () => {
      for (const code of ["bhd", "jod", "kwd", "omr", "tnd"]) {
        expect(Currency.lookup(code), code).toMatchObject({ exponent: 3, increment: 10 })
      }
    })
  })

  describe("whole units written with two decimals: ISK, HUF (multiples of 100)", () => {
    // 100 ISK = 10000; 2.9 % = 290 = 2.9 krónur → 3 krónur = 300; flat 1 ISK = 100.
    it("10000 isk at 2.9 % + 1 ISK → 300 + 100", () => {
      const q = right(Fee.quote(schedule({ flatFee: 1 }), 10000, "isk"))
      expect(q.feeBreakdown).toEqual({ percentage: 300, flatFee: 100 })
      expect(q.totalAmount).toBe(10400)
    })

    it("refuses fractions of a króna in amounts and flat fees", () => {
      const amount = left(Fee.quote(schedule({ flatFee: 1 }), 10050, "isk"))
      expect(codeAndParam(amount)).toEqual({ code: "parameter_invalid", param: "amount" })
      const flat = left(Fee.quote(FeeSchedule.DEFAULT, 10000, "isk"))
      expect(codeAndParam(flat)).toEqual({ code: "currency_not_configured", param: "currency" })
    })

    // HUF minimum: 175.00 Ft = 17500 (fee-math §4.1). 17500 × 2.9 % = 507.5 = 5.075 Ft → 5 Ft.
    it("HUF: minimum 175.00 Ft, fee in whole forints", () => {
      const s = schedule({ flatFee: 0 })
      const q = right(Fee.quote(s, 17500, "huf"))
      expect(q.convenienceFee).toBe(500)
      expect(q.totalAmount).toBe(18000)
      const small = left(Fee.quote(s, 17400, "huf"))
      expect(codeAndParam(small)).toEqual({ code: "amount_too_small", param: "amount" })
      expect(small.message).toContain("175.00 HUF")
      const fraction = left(Fee.quote(s, 17550, "huf"))
      expect(codeAndParam(fraction)).toEqual({ code: "parameter_invalid", param: "amount" })
    })

    it("ISK, HUF, TWD, UGX: exponent 2, increment 100", () => {
      for (const code of ["isk", "huf", "twd", "ugx"]) {
        expect(Currency.lookup(code), code).toMatchObject({ exponent: 2, increment: 100 })
      }
    })
  })

  describe("minimum charges (fee-math §4.1, in minor units)", () => {
    it.each([
      ["usd", 50],
      ["eur", 50],
      ["gbp", 30],
      ["aed", 200],
      ["czk", 1500],
      ["dkk", 250],
      ["hkd", 400],
      ["huf", 17500],
      ["jpy", 50],
      ["mxn", 1000],
      ["nok", 300],
      ["thb", 1000]
    ] as const)("%s: %i", (code, minimum) => {
      expect(Currency.lookup(code)?.minimumCharge).toBe(minimum)
    })
  })

  describe("unknown currency", () => {
    it.each(["xyz", "XYZ", "", "dollars", "us"])("%j → currency_not_supported", (code) => {
      const error = left(Fee.quote(FeeSchedule.DEFAULT, 10000, code))
      expect(codeAndParam(error)).toEqual({ code: "currency_not_supported", param: "currency" })
    })

    it("a non-string currency is not supported either", () => {
      const error = left(Fee.quote(FeeSchedule.DEFAULT, 10000, 840))
      expect(codeAndParam(error)).toEqual({ code: "currency_not_supported", param: "currency" })
    })

    // JSON can carry an object whose toString is not a function; String() of it throws.
    it.each(['{"toString": ""}', '[{"toString": ""}]', '{"valueOf": 1, "toString": 1}'])(
      "a JSON currency %s is refused, not thrown",
      (json) => {
        const error = left(Fee.quote(FeeSchedule.DEFAULT, 10000, JSON.parse(json)))
        expect(codeAndParam(error)).toEqual({ code: "currency_not_supported", param: "currency" })
      }
    )

    it("a missing currency is parameter_missing", () => {
      const error = left(Fee.quote(FeeSchedule.DEFAULT, 10000, undefined))
      expect(codeAndParam(error)).toEqual({ code: "parameter_missing", param: "currency" })
    })

    it("lookup accepts either case", () => {
      expect(Currency.lookup("USD")?.code).toBe("usd")
      expect(Currency.lookup("Usd")?.code).toBe("usd")
      expect(Currency.lookup("usd")?.exponent).toBe(2)
      expect(Currency.lookup("xyz")).toBeUndefined()
    })
  })
})

describe("Fee.quote: per-currency flat fees and limits", () => {
  const perCurrency = schedule({
    currencyFees: {
      JPY: { flatFee: 40, minFee: 100 },
      isk: { flatFee: 50, maxFee: 30_000 },
      bhd: { flatFee: "0.1" }
    }
  })

  it("a currency with an entry gets its own flat fee and limits", () => {
    // 10000 jpy × 2.9 % = 290, + ¥40.
    const jpy = right(Fee.quote(perCurrency, 10_000, "jpy"))
    expect(jpy.convenienceFee).toBe(330)
    expect(jpy.feeStructure).toEqual({ percentage: 2.9, flatFee: 40 })
    // 1000 jpy: 29 + 40 = 69, raised to the minFee of ¥100.
    expect(right(Fee.quote(perCurrency, 1_000, "jpy")).convenienceFee).toBe(100)
    // 5,000 ISK (500000): 14500 + 5000 = 19500; 20,000 ISK: 58000 + 5000 capped at 30000.
    expect(right(Fee.quote(perCurrency, 500_000, "isk")).convenienceFee).toBe(19_500)
    expect(right(Fee.quote(perCurrency, 2_000_000, "isk")).convenienceFee).toBe(30_000)
    // 10.000 BHD × 2.9 % = 0.290, + 0.100.
    expect(right(Fee.quote(perCurrency, 10_000, "bhd")).convenienceFee).toBe(390)
  })

  it("a currency without one keeps the defaults", () => {
    const usd = right(Fee.quote(perCurrency, 10_000, "usd"))
    expect(usd.convenienceFee).toBe(320)
    expect(usd.feeStructure).toEqual({ percentage: 2.9, flatFee: 0.3 })
  })

  it("refuses an entry whose flat fee its currency cannot charge, naming it", () => {
    const error = left(FeeSchedule.make({ currencyFees: { jpy: { flatFee: 0.3 } } }))
    expect(codeAndParam(error)).toEqual({
      code: "parameter_invalid",
      param: "currencyFees.jpy.flatFee"
    })
  })

  it("refuses an unknown currency, a non-object and minFee above maxFee", () => {
    expect(codeAndParam(left(FeeSchedule.make({ currencyFees: { xyz: {} } })))).toEqual({
      code: "currency_not_supported",
      param: "currencyFees.xyz"
    })
    expect(codeAndParam(left(FeeSchedule.make({ currencyFees: [] })))).toEqual({
      code: "parameter_invalid",
      param: "currencyFees"
    })
    expect(
      codeAndParam(
        left(FeeSchedule.make({ currencyFees: { jpy: { flatFee: 40, minFee: 10, maxFee: 5 } } }))
      )
    ).toEqual({ code: "parameter_invalid", param: "currencyFees.jpy.minFee" })
  })
})

describe("Fee.quote: minFee and maxFee (docs/design.md §2)", () => {
  // Before limits: 290 + 30 = 320 on 10000 usd.
  it("minFee raises the fee; adjustment carries the difference", () => {
    const q = right(Fee.quote(schedule({ minFee: 500 }), 10000, "usd"))
    expect(q.convenienceFee).toBe(500)
    expect(q.feeBreakdown).toEqual({ percentage: 290, flatFee: 30 })
    expect(q.adjustment).toBe(180)
    expect(q.totalAmount).toBe(10500)
  })

  it("maxFee lowers the fee; adjustment is negative", () => {
    const q = right(Fee.quote(schedule({ maxFee: 100 }), 10000, "usd"))
    expect(q.convenienceFee).toBe(100)
    expect(q.adjustment).toBe(-220)
    expect(q.totalAmount).toBe(10100)
  })

  it("a limit that does not bind changes nothing", () => {
    const q = right(Fee.quote(schedule({ minFee: 100, maxFee: 1000 }), 10000, "usd"))
    expect(q.convenienceFee).toBe(320)
    expect(q.adjustment).toBe(0)
  })

  it("a limit equal to the fee changes nothing", () => {
    const q = right(Fee.quote(schedule({ minFee: 320, maxFee: 320 }), 10000, "usd"))
    expect(q.convenienceFee).toBe(320)
    expect(q.adjustment).toBe(0)
  })

  // 1000 isk × 2.9 % = 29 = 0.29 krónur → 0; a minFee of 150 (1.50 ISK) becomes 2 krónur = 200.
  it("limits land on the currency's increment: minFee rounds up, maxFee down", () => {
    const iskMin = right(Fee.quote(schedule({ flatFee: 0, minFee: 150 }), 1000, "isk"))
    expect(iskMin.convenienceFee).toBe(200)
    expect(iskMin.adjustment).toBe(200)
    // 100000 isk × 2.9 % = 2900 → 2900; maxFee 250 → 200.
    const iskMax = right(Fee.quote(schedule({ flatFee: 0, maxFee: 250 }), 100000, "isk"))
    expect(iskMax.convenienceFee).toBe(200)
    expect(iskMax.adjustment).toBe(-2700)
  })

  it("limits apply to gross_up too", () => {
    const q = right(Fee.quote(schedule({ model: "gross_up", maxFee: 300 }), 10000, "usd"))
    expect(q.convenienceFee).toBe(300)
    expect(q.feeBreakdown.percentage + q.feeBreakdown.flatFee).toBe(330)
    expect(q.adjustment).toBe(-30)
  })

  it("refuses minFee above maxFee, naming minFee", () => {
    const error = left(FeeSchedule.make({ minFee: 500, maxFee: 100 }))
    expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "minFee" })
  })

  it.each([-1, 1.5, "100", 100_000_000])("refuses minFee %j", (minFee) => {
    const error = left(FeeSchedule.make({ minFee }))
    expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "minFee" })
  })
})

describe("Fee.quote: amount limits", () => {
  // Spec: "the amount is below the minimum (message cites a minimum of 50 cents)", param amount.
  it.each([49, 1, 0, -100])("%i usd → amount_too_small citing 50 cents", (amount) => {
    const error = left(Fee.quote(FeeSchedule.DEFAULT, amount, "usd"))
    expect(codeAndParam(error)).toEqual({ code: "amount_too_small", param: "amount" })
    expect(error.message).toContain("50 cents")
  })

  it("50 usd is accepted: 50 × 2.9 % = 1.45 → 1, plus 30", () => {
    expect(right(Fee.quote(FeeSchedule.DEFAULT, 50, "usd")).convenienceFee).toBe(31)
  })

  it("the schedule's minAmount raises the minimum and the message follows it", () => {
    const error = left(Fee.quote(schedule({ minAmount: 1000 }), 999, "usd"))
    expect(codeAndParam(error)).toEqual({ code: "amount_too_small", param: "amount" })
    expect(error.message).toContain("1000 cents")
    expect(Either.isRight(Fee.quote(schedule({ minAmount: 1000 }), 1000, "usd"))).toBe(true)
  })

  it("minAmount never lowers the currency's minimum charge", () => {
    const error = left(Fee.quote(schedule({ minAmount: 0 }), 49, "usd"))
    expect(error.code).toBe("amount_too_small")
  })

  it("above 99,999,999 → amount_too_large", () => {
    const error = left(Fee.quote(FeeSchedule.DEFAULT, 100_000_000, "usd"))
    expect(codeAndParam(error)).toEqual({ code: "amount_too_large", param: "amount" })
    expect(error.message).toContain("99999999")
  })

  // 99,999,999 is a valid amount, but amount + fee must also fit in eight digits.
  it("an amount whose total would exceed 99,999,999 → amount_too_large", () => {
    const error = left(Fee.quote(FeeSchedule.DEFAULT, 99_999_999, "usd"))
    expect(codeAndParam(error)).toEqual({ code: "amount_too_large", param: "amount" })
    // 97,000,000 × 2.9 % = 2,813,000, + 30: total 99,813,030 fits.
    const q = right(Fee.quote(FeeSchedule.DEFAULT, 97_000_000, "usd"))
    expect(q.convenienceFee).toBe(2_813_030)
    expect(q.totalAmount).toBe(99_813_030)
  })

  it("99,999,999 itself is accepted when the fee is zero", () => {
    const free = schedule({ percentage: 0, flatFee: 0 })
    expect(right(Fee.quote(free, 99_999_999, "usd")).totalAmount).toBe(99_999_999)
  })

  it("the schedule's maxAmount bounds the base amount", () => {
    const s = schedule({ maxAmount: 5000 })
    expect(Either.isRight(Fee.quote(s, 5000, "usd"))).toBe(true)
    const error = left(Fee.quote(s, 5001, "usd"))
    expect(codeAndParam(error)).toEqual({ code: "amount_too_large", param: "amount" })
    expect(error.message).toContain("5000 cents")
  })

  it.each([100.5, "10000", Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, true])(
    "amount %j → parameter_invalid",
    (amount) => {
      const error = left(Fee.quote(FeeSchedule.DEFAULT, amount, "usd"))
      expect(codeAndParam(error)).toEqual({ code: "parameter_invalid", param: "amount" })
    }
  )

  it("a missing amount → parameter_missing", () => {
    const error = left(Fee.quote(FeeSchedule.DEFAULT, undefined, "usd"))
    expect(codeAndParam(error)).toEqual({ code: "parameter_missing", param: "amount" })
  })
})

describe("Fee.withFee", () => {
  it("lowers the fee and records the change in adjustment", () => {
    const q = right(Fee.quote(FeeSchedule.DEFAULT, 10000, "usd"))
    const lowered = Fee.withFee(q, 200)
    expect(lowered.convenienceFee).toBe(200)
    expect(lowered.totalAmount).toBe(10200)
    expect(lowered.adjustment).toBe(-120)
    expect(lowered.feeBreakdown).toEqual({ percentage: 290, flatFee: 30 })
  })
})

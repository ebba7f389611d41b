/**
 * Every currency chargeable (issue: "one flat fee in major units for every currency makes every
 * JPY, ISK or HUF charge fail"): per-currency flat fees and limits on the fee configuration,
 * and a clear error naming the configuration for a currency it leaves out.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { call, type Running, SECRET, start } from "./support.js"

let server: Running

beforeAll(async () => {
  server = await start()
})
afterAll(async () => {
  await server.close()
})

const post = (path: string, body: unknown) => call(server.url, "POST", path, { body, key: SECRET })
const errorOf = (body: unknown) => (body as { error: Record<string, unknown> }).error

describe("per-currency fees", () => {
  it("a currency the configuration's flatFee cannot be charged in: a 400 naming the fee configuration", async () => {
    const reply = await post("/v1/charges", { amount: 500_000, currency: "isk" })
    expect(reply.status).toBe(400)
    const error = errorOf(reply.body)
    expect(error).toMatchObject({ code: "currency_not_configured", param: "currency" })
    expect(error.message).toContain("fee configuration")
    expect(error.message).toContain("currencyFees.isk.flatFee")
  })

  it("set per currency, JPY, ISK, HUF and BHD charges collect their own flat fee and limits", async () => {
    const set = await post("/v1/fee-configs", {
      currencyFees: {
        jpy: { flatFee: 40 },
        isk: { flatFee: 50, maxFee: 10_000 },
        huf: { flatFee: 100 },
        bhd: { flatFee: 0.1 }
      }
    })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ currencyFees: { jpy: { flatFee: 40 } } })
    // 10,000 JPY × 2.9 % = 290, + ¥40.
    const jpy = await post("/v1/charges", { amount: 10_000, currency: "jpy" })
    expect(jpy.body).toMatchObject({ convenienceFee: 330, feeStructure: { flatFee: 40 } })
    // 5,000 ISK = 500000: 14500 + 5000 = 19500, capped at maxFee 10000 (100 ISK).
    const isk = await post("/v1/charges", { amount: 500_000, currency: "isk" })
    expect(isk.body).toMatchObject({ convenienceFee: 10_000, totalAmount: 510_000 })
    // 5,000 HUF = 500000: 14500 + 10000 = 24500.
    const huf = await post("/v1/charges", { amount: 500_000, currency: "huf" })
    expect(huf.body).toMatchObject({ convenienceFee: 24_500 })
    // 10.000 BHD: 0.290 + 0.100.
    const bhd = await post("/v1/estimates", { amount: 10_000, currency: "bhd" })
    expect(bhd.body).toMatchObject({ convenienceFee: 390 })
    // USD keeps the configuration's own 2.9 % + 0.30.
    const usd = await post("/v1/estimates", { amount: 10_000, currency: "usd" })
    expect(usd.body).toMatchObject({ convenienceFee: 320 })
  })

  it("an entry its currency cannot charge is refused, naming the field; nothing changes", async () => {
    const before = await call(server.url, "GET", "/v1/fee-configs", { key: SECRET })
    const reply = await post("/v1/fee-configs", { currencyFees: { jpy: { flatFee: 0.5 } } })
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({ param: "currencyFees.jpy.flatFee" })
    const unknown = await post("/v1/fee-configs", { currencyFees: { jpy: { flat: 1 } } })
    expect(unknown.status).toBe(400)
    const after = await call(server.url, "GET", "/v1/fee-configs", { key: SECRET })
    expect(after.body).toStrictEqual(before.body)
  })
})

describe("regions on a charge", () => {
  it("an unknown region is a 400 naming region, with the reason and no misleading prefix", async () => {
    const reply = await post("/v1/charges", { amount: 10_000, currency: "usd", region: "XX" })
    expect(reply.status).toBe(400)
    const error = errorOf(reply.body)
    expect(error).toMatchObject({ code: "unknown_region", param: "region" })
    expect(error.message).toMatch(/^Unknown region: XX\./)
  })

  it("without region or defaultRegion the answer says no_region; requireRegion makes it a 400", async () => {
    const open = await post("/v1/charges", { amount: 10_000, currency: "usd" })
    expect(open.status).toBe(200)
    expect(open.body).toMatchObject({
      region: null,
      compliance: { compliant: true, reasonCode: "no_region" }
    })
    expect((await post("/v1/fee-configs", { requireRegion: true })).status).toBe(200)
    for (const path of ["/v1/charges", "/v1/estimates"]) {
      const refused = await post(path, { amount: 10_000, currency: "usd" })
      expect(refused.status, path).toBe(400)
      expect(errorOf(refused.body), path).toMatchObject({
        code: "parameter_missing",
        param: "region"
      })
    }
    const given = await post("/v1/charges", { amount: 10_000, currency: "usd", region: "US-FL" })
    expect(given.status).toBe(200)
    // A defaultRegion satisfies it too (with a fee compliant there at every amount: no flat fee).
    expect((await post("/v1/fee-configs", { defaultRegion: "US-FL", flatFee: 0 })).status).toBe(200)
    expect((await post("/v1/charges", { amount: 10_000, currency: "usd" })).status).toBe(200)
    expect(
      (await post("/v1/fee-configs", { requireRegion: false, defaultRegion: null, flatFee: 0.3 }))
        .status
    ).toBe(200)
  })
})

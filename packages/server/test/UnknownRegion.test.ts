/**
 * An estimate quotes what a charge collects, so an unknown region is refused alike:
 * `POST /v1/estimates` with `region: "US-ZZ"` answered 200 (`compliant: false`, fee 0) where
 * the same body on `POST /v1/charges` is a 400 `unknown_region`. Over HTTP, the compliance
 * check and in-process (`LevyService`) too.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { withLevy } from "./InProcess.js"
import { call, type Running, SECRET, start } from "./support.js"

let server: Running

beforeAll(async () => {
  server = await start()
})
afterAll(async () => {
  await server.close()
})

const post = (path: string, body: unknown) => call(server.url, "POST", path, { body, key: SECRET })

const body = { amount: 10_000, currency: "usd", region: "US-ZZ", cardType: "credit" } as const
const check = (region: string) =>
  post("/v1/regions/check-compliance", {
    region,
    percentage: 2.9,
    flatFee: 0.3,
    cardType: "credit"
  })

describe("an unknown region over HTTP", () => {
  it("an estimate is the charge's 400 unknown_region, word for word", async () => {
    const charge = await post("/v1/charges", body)
    const estimate = await post("/v1/estimates", body)
    expect(charge.status).toBe(400)
    expect(estimate.status).toBe(400)
    expect(estimate.body).toStrictEqual(charge.body)
    expect(estimate.body).toMatchObject({
      error: { type: "invalid_request_error", code: "unknown_region", param: "region" }
    })
  })

  it("so is a what-if estimate (another day): no day makes an unknown place known", async () => {
    const reply = await post("/v1/estimates", { ...body, date: "2025-06-01" })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ error: { code: "unknown_region", param: "region" } })
  })

  it("under nonCompliant: reject the estimate is refused the same way", async () => {
    expect((await post("/v1/fee-configs", { nonCompliant: "reject" })).status).toBe(200)
    try {
      const charge = await post("/v1/charges", body)
      const estimate = await post("/v1/estimates", body)
      expect(estimate.status).toBe(400)
      expect(estimate.body).toStrictEqual(charge.body)
    } finally {
      await post("/v1/fee-configs", { nonCompliant: "adjust" })
    }
  })

  it("the compliance check answers an unknown region with the same 400", async () => {
    const charge = await post("/v1/charges", body)
    const checked = await check("US-ZZ")
    expect(checked.status).toBe(400)
    expect(checked.body).toStrictEqual(charge.body)
  })

  it("a known region still answers: a prohibited one is compliant: false with fee 0", async () => {
    const estimate = await post("/v1/estimates", { ...body, region: "US-CT" })
    expect(estimate.status).toBe(200)
    expect(estimate.body).toMatchObject({ convenienceFee: 0, region: "US-CT" })
    const checked = await check("US-CT")
    expect(checked.status).toBe(200)
    expect(checked.body).toMatchObject({ compliant: false, reasonCode: "fees_prohibited" })
  })
})

describe("an unknown region in-process", () => {
  it("LevyService refuses the estimate with the charge's own failure", () =>
    withLevy(async ({ levy, tenant, failureOf }) => {
      const charge = await failureOf(levy.charges.create(tenant, body))
      const estimate = await failureOf(levy.estimates.create(tenant, body))
      expect(charge).toMatchObject({ _tag: "FeeNotCompliant", reasonCode: "unknown_region" })
      expect(estimate).toStrictEqual(charge)
    }))
})

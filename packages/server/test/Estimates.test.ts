/**
 * `POST /v1/estimates` over real HTTP: the account's configuration (the default on first
 * use) through the engine, its refusals in the spec's error shape, and the payer context.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { call, PUBLISHABLE, type Running, SECRET, start } from "./support.js"

let server: Running

beforeAll(async () => {
  server = await start()
})
afterAll(async () => {
  await server.close()
})

const estimate = (body: unknown, key: string = SECRET) =>
  call(server.url, "POST", "/v1/estimates", { body, key })

const errorOf = (body: unknown) => (body as { error: Record<string, unknown> }).error

describe("POST /v1/estimates", () => {
  it("the specification's example: 10000 usd → fee 320, total 10320", async () => {
    const reply = await estimate({ amount: 10000, currency: "usd" })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      object: "estimate",
      baseAmount: 10000,
      convenienceFee: 320,
      totalAmount: 10320,
      currency: "usd",
      compliant: true,
      region: null,
      feeStructure: { percentage: 2.9, flatFee: 0.3 },
      feeBreakdown: { percentage: 290, flatFee: 30 },
      adjustment: 0,
      rounding: "half_up",
      model: "add_on"
    })
    const compliance = (reply.body as { compliance: Record<string, unknown> }).compliance
    // No region and no defaultRegion: compliant because nothing was checked, and it says so.
    expect(compliance).toMatchObject({ compliant: true, reasonCode: "no_region", reason: null })
    expect(typeof compliance.rulesetVersion).toBe("string")
  })

  it("amount missing → 400 parameter_missing, param amount", async () => {
    const reply = await estimate({ currency: "usd" })
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toStrictEqual({
      type: "invalid_request_error",
      code: "parameter_missing",
      param: "amount",
      message: "Missing required param: amount."
    })
  })

  it("49 cents → 400 amount_too_small citing 50 cents", async () => {
    const reply = await estimate({ amount: 49, currency: "usd" })
    expect(reply.status).toBe(400)
    const error = errorOf(reply.body)
    expect(error).toMatchObject({
      type: "invalid_request_error",
      code: "amount_too_small",
      param: "amount"
    })
    expect(error.message).toMatch(/50 cents/)
    // 50 itself is accepted.
    expect((await estimate({ amount: 50, currency: "usd" })).status).toBe(200)
  })

  it("US-CO credit at 2.9 % → the 2 % a charge collects; the configured 320 and percentage_over_limit beside it", async () => {
    const reply = await estimate({
      amount: 10000,
      currency: "usd",
      region: "US-CO",
      cardType: "credit"
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      compliant: true,
      region: "US-CO",
      convenienceFee: 200,
      totalAmount: 10200,
      adjustment: -120,
      compliance: { compliant: true, reasonCode: null, maxFee: 200 },
      configured: {
        convenienceFee: 320,
        totalAmount: 10320,
        compliant: false,
        reasonCode: "percentage_over_limit"
      }
    })
  })

  it("a request's costOfAcceptance is checked: 1 % in US-NY → over_cost_of_acceptance", async () => {
    const body = { amount: 10000, currency: "usd", region: "US-NY", cardType: "credit" }
    const over = await estimate({ ...body, costOfAcceptance: 1 })
    expect(over.status).toBe(200)
    expect(over.body).toMatchObject({
      convenienceFee: 100,
      configured: { compliant: false, reasonCode: "over_cost_of_acceptance" },
      compliance: { maxFee: 100 }
    })
    const covered = await estimate({ ...body, costOfAcceptance: 5 })
    // 5 % covers 3.2 %; what binds then is the card networks' 3 % cap.
    expect(covered.body).toMatchObject({
      convenienceFee: 300,
      configured: { compliant: false, reasonCode: "network_cap_exceeded" },
      compliance: { maxFee: 300 }
    })
  })

  it("the issue's example: US-NY Visa credit quotes the 300 a charge collects, and its disclosure", async () => {
    const body = {
      amount: 10000,
      currency: "usd",
      region: "US-NY",
      cardType: "credit",
      cardNetwork: "visa"
    }
    const quoted = await estimate(body)
    const charged = await call(server.url, "POST", "/v1/charges", {
      body: { ...body, source: "tok_visa" },
      key: SECRET
    })
    expect(charged.status).toBe(200)
    const fields = ["convenienceFee", "totalAmount", "adjustment", "compliance", "configured"]
    const pick = (b: unknown) =>
      Object.fromEntries(fields.map((f) => [f, (b as Record<string, unknown>)[f]]))
    expect(pick(quoted.body)).toStrictEqual(pick(charged.body))
    expect(quoted.body).toMatchObject({ convenienceFee: 300, totalAmount: 10300, adjustment: -20 })
    const text = (quoted.body as { compliance: { disclosureText: string } }).compliance
      .disclosureText
    expect(text).toBe(
      "Credit card price: $103.00 (includes a 3% card surcharge). Cash/debit price: $100.00."
    )
  })

  it("the disclosure text comes back rendered for the quoted fee", async () => {
    const reply = await estimate({
      amount: 10000,
      currency: "usd",
      region: "US-NY",
      cardType: "credit",
      costOfAcceptance: 5
    })
    const text = (reply.body as { compliance: { disclosureText: string } }).compliance
      .disclosureText
    expect(text).toContain("$103.00")
    expect(text).toContain("3%")
    expect(text).toContain("$100.00")
    expect(text).not.toMatch(/\{\w+\}/)
  })

  it("a publishable key may estimate", async () => {
    const reply = await estimate({ amount: 10000, currency: "usd" }, PUBLISHABLE)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ convenienceFee: 320 })
  })

  it("an unknown field → 400 parameter_unknown naming it", async () => {
    const reply = await estimate({ amount: 10000, currency: "usd", surprise: 1 })
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({ code: "parameter_unknown", param: "surprise" })
  })

  it("the new routes are in the 404/405 table: wrong method → 405 with Allow", async () => {
    const get = await call(server.url, "GET", "/v1/estimates")
    expect(get.status).toBe(405)
    expect(get.headers.get("allow")).toBe("POST")
    const del = await call(server.url, "DELETE", "/v1/fee-configs")
    expect(del.status).toBe(405)
    expect(del.headers.get("allow")?.split(/,\s*/).sort()).toStrictEqual(["GET", "POST"])
    const approve = await call(server.url, "GET", "/v1/fee-configs/pending/approve")
    expect(approve.status).toBe(405)
    expect((await call(server.url, "POST", "/v1/fee-configs/pending/other")).status).toBe(404)
  })
})

describe("POST /v1/estimates: the card's scheme, issuing country and the merchant's standard channel", () => {
  // research/SE.json: PSD2 Art. 62(4) bans charges on EEA consumer four-party cards only.
  const sek = { amount: 100000, currency: "sek", region: "SE", cardType: "credit" }

  it("a Swedish consumer Visa card: fees_prohibited; a US-issued one: not", async () => {
    const domestic = await estimate({ ...sek, cardNetwork: "visa", cardIssuingCountry: "SE" })
    expect(domestic.status).toBe(200)
    // The estimate quotes what a charge collects; the configured fee's verdict is in configured.
    expect(domestic.body).toMatchObject({ configured: { reasonCode: "fees_prohibited" } })
    const foreign = await estimate({ ...sek, cardNetwork: "visa", cardIssuingCountry: "US" })
    expect(foreign.status).toBe(200)
    expect(foreign.body).toMatchObject({ configured: { reasonCode: "legal_uncertainty" } })
  })

  it("a three-party scheme named explicitly is outside the ban", async () => {
    const reply = await estimate({ ...sek, cardScheme: "three_party", cardIssuingCountry: "SE" })
    expect(reply.body).toMatchObject({ configured: { reasonCode: "legal_uncertainty" } })
  })

  it("a bad issuing country, scheme or standard channel → 400 naming it", async () => {
    for (const [param, value] of [
      ["cardIssuingCountry", "se"],
      ["cardScheme", "two_party"],
      ["standardChannel", "phone"]
    ] as const) {
      const reply = await estimate({ ...sek, [param]: value })
      expect(reply.status).toBe(400)
      expect(errorOf(reply.body)).toMatchObject({ param })
    }
  })
})

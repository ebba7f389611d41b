/**
 * The backend's `POST /pay` over plain HTTP: what a page (or anyone) may send it. Bad bodies get
 * Levy's error shape and no 500; a quote made for another amount, a quote used twice and a
 * declined card are refused with Levy's codes, and nothing more is charged.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Levy } from "@levy/client"
import { type Checkout, startCheckout } from "../src/server.js"

/** An answer of /pay: a charge, or Levy's error shape. */
interface Answer {
  readonly status: number
  readonly body: {
    readonly error: { type: string; code: string; param: string | null; charge?: string }
  } & Record<string, unknown>
}

describe("POST /pay", () => {
  let checkout: Checkout
  let secret: Levy
  let publishable: Levy

  beforeAll(async () => {
    checkout = await startCheckout()
    secret = new Levy(checkout.levy.secretKey, { baseUrl: checkout.levy.url })
    publishable = new Levy(checkout.levy.publishableKey, { baseUrl: checkout.levy.url })
  }, 60_000)

  afterAll(async () => {
    await checkout?.close()
  })

  const post = async (body: string): Promise<Answer> => {
    const response = await fetch(`${checkout.url}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body
    })
    return { status: response.status, body: (await response.json()) as Answer["body"] }
  }

  const quote = (amount: number, source: string) =>
    publishable.estimates.create({ amount, currency: "usd", region: "US-NY", source })

  const charges = async () => (await secret.charges.list({ limit: 100 })).data.length

  it("refuses what is not a card and a quote, in Levy's error shape", async () => {
    const cases = [
      ["not json", 400, "body_invalid", null],
      ["[]", 400, "parameter_missing", "source"],
      [JSON.stringify({ source: "tok_visa" }), 400, "parameter_missing", "estimate"],
      [JSON.stringify({ source: 7, estimate: "est_a.b" }), 400, "parameter_invalid", "source"],
      [JSON.stringify({ source: "tok_visa", estimate: "" }), 400, "parameter_invalid", "estimate"],
      [
        JSON.stringify({ source: "tok_visa", estimate: "est_x" }),
        400,
        "parameter_invalid",
        "estimate"
      ],
      [JSON.stringify({ source: "tok_nope", estimate: "est_a.b" }), 400, null, null]
    ] as const
    for (const [body, status, code, param] of cases) {
      const answer = await post(body)
      expect(answer.status, body).toBe(status)
      expect(answer.body.error.type, body).toBe("invalid_request_error")
      if (code !== null) expect(answer.body.error.code, body).toBe(code)
      if (param !== null) expect(answer.body.error.param, body).toBe(param)
    }
    const big = await post(JSON.stringify({ source: "x".repeat(70_000), estimate: "est_a.b" }))
    expect(big.status).toBe(413)
    expect(await charges()).toBe(0)
  }, 30_000)

  it("charges the backend's order, never the amount a page quoted for", async () => {
    // the page quotes 1.00 USD with the publishable key and sends that quote
    const cheap = await quote(100, "tok_visa")
    const answer = await post(JSON.stringify({ source: "tok_visa", estimate: cheap.id }))
    expect(answer.status).toBe(400)
    expect(answer.body.error).toMatchObject({ code: "estimate_mismatch", param: "amount" })
    expect(await charges()).toBe(0)
  }, 30_000)

  it("pays a quote once; a declined card leaves its quote usable", async () => {
    const declined = await quote(10_000, "tok_chargeDeclined")
    const refused = await post(
      JSON.stringify({ source: "tok_chargeDeclined", estimate: declined.id })
    )
    expect(refused.status).toBe(402)
    expect(refused.body.error).toMatchObject({ code: "card_declined" })
    expect(refused.body.error.charge).toMatch(/^ch_/)

    // the shopper tries another card under the same quote: its fee still caps the charge
    const paid = await post(JSON.stringify({ source: "tok_visa", estimate: declined.id }))
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({
      status: "succeeded",
      amount: 10_000,
      convenienceFee: declined.convenienceFee,
      estimate: declined.id
    })
    const again = await post(JSON.stringify({ source: "tok_visa", estimate: declined.id }))
    expect(again.status).toBe(400)
    expect(again.body.error).toMatchObject({ code: "estimate_used", param: "estimate" })
  }, 30_000)
})

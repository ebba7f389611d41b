/**
 * What saving a Stripe key proves (docs/processors.md, Stripe step 2): the one read-only call
 * (list one PaymentIntent) shows the key is valid, not that it may write. A restricted key
 * with read access only is saved, and its first charge is a 400 `processor_refused` carrying
 * Stripe's permission error and the permissions Levy needs; no payment is made. A refund with
 * it is a 400 `refund_failed`, and nothing is refunded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"
import { call, type Running, start } from "./support.js"

const READ_ONLY = "rk_test_readOnly0123456789abcdef1111"

let stripe: FakeStripe
let server: Running

beforeAll(async () => {
  stripe = await startFakeStripe({ readOnlySecretKeys: [READ_ONLY] })

  server = await start({ processorApiBaseUrls: { stripe: stripe.url } })
})

afterAll(async () => {
  await server?.close()
  await stripe?.close()
})

describe("a Stripe key that may read but not write", () => {
  it("is saved (listing a PaymentIntent reads), and its first charge is refused with why; no payment", async () => {
    const saved = await call(server.url, "POST", "/v1/processor-config", {
      body: { processor: "stripe", credentials: { secretKey: READ_ONLY } }
    })
    expect(saved.status, saved.text).toBe(200)
    expect(stripe.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/payment_intents"
    ])

    const charged = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 10_000, currency: "usd", source: "pm_card_visa", region: "US-NY" },
      headers: { "idempotency-key": "read-only-1" }
    })
    expect(charged.status, charged.text).toBe(400)
    expect(charged.body).toMatchObject({
      error: { type: "invalid_request_error", code: "processor_refused" }
    })
    const message = (charged.body as { error: { message: string } }).error.message
    expect(message).toContain("does not have the required permissions")
    expect(message).toContain("write access to PaymentIntents and Refunds")
    expect(message).not.toContain(READ_ONLY)
    expect(stripe.payments()).toEqual([])
  })

  it("a refund with it is a 400 refund_failed; nothing is refunded", async () => {
    const save = (secretKey: string) =>
      call(server.url, "POST", "/v1/processor-config", {
        body: { processor: "stripe", credentials: { secretKey } }
      })
    expect((await save(stripe.secretKey)).status).toBe(200)
    const charged = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 10_000, currency: "usd", source: "pm_card_visa", region: "US-NY" },
      headers: { "idempotency-key": "full-key-1" }
    })
    expect(charged.status, charged.text).toBe(200)
    expect((await save(READ_ONLY)).status).toBe(200)
    const refund = await call(server.url, "POST", "/v1/refunds", {
      body: { charge: (charged.body as { id: string }).id, amount: 1_000 },
      headers: { "idempotency-key": "read-only-refund-1" }
    })
    expect(refund.status, refund.text).toBe(400)
    expect(refund.body).toMatchObject({ error: { code: "refund_failed" } })
    expect(stripe.payments()[0]?.amountRefunded).toBe(0)
  })
})

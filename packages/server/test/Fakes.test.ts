/**
 * The fakes themselves, spoken to over raw HTTP: they must behave as the processors' API
 * references say, or the adapters' tests prove nothing. Also `levy fake` serving them, and
 * webhook delivery.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeAdyen, startFakeAdyen } from "../src/fakes/FakeAdyen.js"
import { decodeForm, type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"
import { levy, waitFor } from "./levyProcess.js"

/** The fields of a processor's JSON answer these tests read. */
interface Body {
  readonly id: string
  readonly error: Readonly<Record<string, string>>
}
const json = async (response: Response): Promise<Body> => (await response.json()) as Body

let stripe: FakeStripe
let adyen: FakeAdyen
beforeAll(async () => {
  stripe = await startFakeStripe()
  adyen = await startFakeAdyen()
})
afterAll(async () => {
  await stripe.close()
  await adyen.close()
})

const stripePost = (
  path: string,
  body: string,
  key: string,
  headers: Record<string, string> = {}
) =>
  fetch(`${stripe.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${stripe.secretKey}`,
      "content-type": "application/x-www-form-urlencoded",
      "idempotency-key": key,
      ...headers
    },
    body
  })

describe("fake Stripe follows Stripe's API reference", () => {
  it("decodes bracketed form keys", () => {
    expect(decodeForm("amount=100&metadata[a]=b%20c&expand[0]=x")).toEqual({
      amount: "100",
      metadata: { a: "b c" },
      expand: { "0": "x" }
    })
  })

  it("401 invalid_request_error for a wrong key, the key masked", async () => {
    const response = await fetch(`${stripe.url}/v1/payment_intents`, {
      headers: { authorization: "Bearer sk_test_wrongwrongwrong" }
    })
    expect(response.status).toBe(401)
    const body = await json(response)
    expect(body.error.type).toBe("invalid_request_error")
    expect(body.error.message).not.toContain("wrongwrongwrong")
  })

  it("livemode follows the key a payment was made with, on the object and its event", async () => {
    const LIVE = "sk_live_fakesTest0123456789"
    const live = await startFakeStripe({ otherSecretKeys: [LIVE] })
    try {
      const pay = async (key: string) =>
        (await (
          await fetch(`${live.url}/v1/payment_intents`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}` },
            body: "amount=500&currency=usd&confirm=true&payment_method=pm_card_visa"
          })
        ).json()) as { id: string; livemode: boolean }
      const inLive = await pay(LIVE)
      const inTest = await pay(live.secretKey)
      expect([inLive.livemode, inTest.livemode]).toEqual([true, false])
      const refund = live.refundInDashboard(inLive.id, 100)
      expect(refund.livemode).toBe(true)
      expect(live.refundInDashboard(inTest.id, 100).livemode).toBe(false)
    } finally {
      await live.close()
    }
  })

  it("same key and parameters: the first answer replayed, Idempotent-Replayed, one payment", async () => {
    const before = stripe.payments().length
    const body = "amount=500&currency=usd&confirm=true&payment_method=pm_card_visa"
    const first = await stripePost("/v1/payment_intents", body, "fake-key-1")
    const again = await stripePost("/v1/payment_intents", body, "fake-key-1")
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(await again.json()).toEqual(await first.json())
    expect(stripe.payments().length).toBe(before + 1)
  })

  it("same key, other parameters: 400 idempotency_error, nothing made", async () => {
    await stripePost(
      "/v1/payment_intents",
      "amount=500&currency=usd&confirm=true&payment_method=pm_card_visa",
      "fake-key-2"
    )
    const before = stripe.payments().length
    const conflict = await stripePost(
      "/v1/payment_intents",
      "amount=501&currency=usd&confirm=true&payment_method=pm_card_visa",
      "fake-key-2"
    )
    expect(conflict.status).toBe(400)
    expect((await json(conflict)).error.type).toBe("idempotency_error")
    expect(stripe.payments().length).toBe(before)
  })

  it("a decline is a 402 card_error with a decline_code", async () => {
    const response = await stripePost(
      "/v1/payment_intents",
      "amount=500&currency=usd&confirm=true&payment_method=pm_card_chargeDeclined",
      "fake-key-3"
    )
    expect(response.status).toBe(402)
    expect((await json(response)).error).toMatchObject({
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline"
    })
  })

  it("a refund beyond what is left is 400 amount_too_large", async () => {
    const pi = await json(
      await stripePost(
        "/v1/payment_intents",
        "amount=500&currency=usd&confirm=true&payment_method=pm_card_visa",
        "fake-key-4"
      )
    )
    const response = await stripePost(
      "/v1/refunds",
      `payment_intent=${pi.id}&amount=501`,
      "fake-key-5"
    )
    expect(response.status).toBe(400)
    expect((await json(response)).error.code).toBe("amount_too_large")
  })

  it("GET /v1/refunds?payment_intent=: that PaymentIntent's refunds, newest first, paged by starting_after", async () => {
    const paid = async (key: string) =>
      json(
        await stripePost(
          "/v1/payment_intents",
          "amount=900&currency=usd&confirm=true&payment_method=pm_card_visa",
          key
        )
      )
    const pi = await paid("fake-list-pi")
    const other = await paid("fake-list-other")
    await stripePost("/v1/refunds", `payment_intent=${other.id}&amount=100`, "fake-list-r0")
    const made: Array<string> = []
    for (const i of [1, 2, 3]) {
      const refund = await stripePost(
        "/v1/refunds",
        `payment_intent=${pi.id}&amount=100&metadata[levy_idempotency_key]=k${i}`,
        `fake-list-r${i}`
      )
      made.push((await json(refund)).id)
    }
    const get = (query: string) =>
      fetch(`${stripe.url}/v1/refunds?${query}`, {
        headers: { authorization: `Bearer ${stripe.secretKey}` }
      })
    interface Page {
      readonly object: string
      readonly has_more: boolean
      readonly data: ReadonlyArray<{ id: string; payment_intent: string; metadata: object }>
    }
    const first = (await (await get(`payment_intent=${pi.id}&limit=2`)).json()) as Page
    expect(first.object).toBe("list")
    expect(first.data.map((r) => r.id)).toEqual([made[2], made[1]])
    expect(first.data[0]).toMatchObject({
      payment_intent: pi.id,
      metadata: { levy_idempotency_key: "k3" }
    })
    expect(first.has_more).toBe(true)
    const rest = (await (
      await get(`payment_intent=${pi.id}&limit=2&starting_after=${made[1]}`)
    ).json()) as Page
    expect(rest.data.map((r) => r.id)).toEqual([made[0]])
    expect(rest.has_more).toBe(false)
    const none = await get("payment_intent=pi_doesNotExist")
    expect(none.status).toBe(404)
    expect((await json(none)).error.code).toBe("resource_missing")
    expect((await get(`payment_intent=${pi.id}&limit=101`)).status).toBe(400)
  })
})

describe("fake Adyen follows Adyen's API reference", () => {
  const adyenPost = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${adyen.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })

  it("401 with Adyen's error body for a wrong X-API-Key", async () => {
    const response = await adyenPost(
      "/v72/paymentMethods",
      { merchantAccount: adyen.merchantAccount },
      { "x-api-key": "nope" }
    )
    expect(response.status).toBe(401)
    expect(await json(response)).toMatchObject({ status: 401, errorType: "security" })
  })

  it("a key already processed returns the first response and echoes the key; one payment", async () => {
    const before = adyen.payments().length
    const body = {
      merchantAccount: adyen.merchantAccount,
      reference: "r1",
      amount: { value: 100, currency: "EUR" },
      paymentMethod: { type: "scheme", encryptedCardNumber: "test_4111111111111111" }
    }
    const headers = { "x-api-key": adyen.apiKey, "idempotency-key": "adyen-key-1" }
    const first = await (await adyenPost("/v72/payments", body, headers)).json()
    const again = await adyenPost("/v72/payments", body, headers)
    expect(again.headers.get("idempotency-key")).toBe("adyen-key-1")
    expect(await again.json()).toEqual(first)
    expect(adyen.payments().length).toBe(before + 1)
  })
})

describe("fakes deliver notifications and run as a process", () => {
  it("fake Stripe POSTs signed events to the configured URL", async () => {
    const received: Array<{ signature: string | undefined; body: string }> = []
    const sink = createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        received.push({ signature: req.headers["stripe-signature"] as string | undefined, body })
        res.end("{}")
      })
    })
    await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r))
    const url = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hook`
    stripe.setWebhook({ url, secret: "whsec_sink" })
    await stripePost(
      "/v1/payment_intents",
      "amount=500&currency=usd&confirm=true&payment_method=pm_card_createDispute",
      "fake-key-6"
    )
    await stripe.settled()
    stripe.setWebhook(undefined)
    sink.close()
    expect(received.map((r) => JSON.parse(r.body).type)).toEqual([
      "payment_intent.succeeded",
      "charge.dispute.created"
    ])
    expect(received.every((r) => /^t=\d+,v1=[0-9a-f]{64}$/.test(r.signature ?? ""))).toBe(true)
  })

  it.each(["stripe", "adyen"])(
    "levy fake %s --json prints its URL and serves the control endpoints",
    async (processor) => {
      const child = levy(["fake", processor, "--port", "0", "--json"])
      try {
        const [line = ""] = await waitFor(child, /^\{.*\}$/m)
        const info = JSON.parse(line)
        expect(info.processor).toBe(processor)
        expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
        const payments = await fetch(`${info.url}/_fake/payments`)
        expect(await payments.json()).toEqual([])
      } finally {
        child.child.kill("SIGKILL")
      }
    }
  )
})

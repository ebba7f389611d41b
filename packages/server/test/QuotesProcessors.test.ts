/**
 * Quotes for a card described by a real processor's API (docs/quotes.md): Stripe's
 * PaymentMethods and ConfirmationTokens (the Payment Element's path), Adyen's `/cardDetails`
 * (the Card Component's encrypted fields), against the local fakes that follow their published
 * API references. The estimate names what the processor told of the card; the charge that names
 * the quote takes exactly the total shown, at the processor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeAdyen, startFakeAdyen } from "../src/fakes/FakeAdyen.js"
import { type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"
import { call, memoryStore, startWithStore } from "./support.js"

let stripe: FakeStripe
let adyen: FakeAdyen
let server: Awaited<ReturnType<typeof startWithStore>>

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: "sk_test_levyQuotes0123456789abcd4242" })
  adyen = await startFakeAdyen()
  server = await startWithStore(memoryStore(), {
    processorApiBaseUrls: { stripe: stripe.url, adyen: adyen.url }
  })
}, 60_000)

afterAll(async () => {
  await server?.close()
  await stripe?.close()
  await adyen?.close()
})

const post = (path: string, body: unknown) => call(server.url, "POST", path, { body })

interface Quote {
  readonly id: string
  readonly convenienceFee: number
  readonly totalAmount: number
  readonly card: Record<string, unknown>
}

const quote = async (source: string, region = "US-NY") => {
  const reply = await post("/v1/estimates", { amount: 10_000, currency: "usd", region, source })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body as Quote
}

/** Adyen's Card Component output for `number` (the fake reads `test_<number>` as encrypted). */
const adyenCard = (number: string) =>
  JSON.stringify({
    type: "scheme",
    encryptedCardNumber: `test_${number}`,
    encryptedExpiryMonth: "test_03",
    encryptedExpiryYear: "test_2030",
    encryptedSecurityCode: "test_737",
    holderName: "Levy Quotes"
  })

describe("Stripe", () => {
  beforeAll(async () => {
    const saved = await post("/v1/processor-config", {
      processor: "stripe",
      credentials: {
        secretKey: stripe.secretKey,
        webhookSecret: "whsec_levyQuotes0123456789abcdef"
      }
    })
    expect(saved.status).toBe(200)
  })

  it("quotes for a PaymentMethod and a ConfirmationToken as Stripe describes them", async () => {
    const credit = await quote("pm_card_visa")
    expect(credit).toMatchObject({
      convenienceFee: 300,
      card: { funding: "credit", network: "visa", country: "US" }
    })
    // The Payment Element path: a confirmation token, quoted before confirm.
    const debit = await quote("ctoken_visa_debit")
    expect(debit).toMatchObject({ convenienceFee: 0, card: { funding: "debit", network: "visa" } })
    const unknown = await post("/v1/estimates", {
      amount: 10_000,
      currency: "usd",
      source: "pm_card_doesNotExist"
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ error: { param: "source" } })
  })

  it("the charge naming the quote takes exactly the total shown", async () => {
    const q = await quote("pm_card_visa")
    const before = stripe.payments().length
    const charged = await post("/v1/charges", {
      amount: 10_000,
      currency: "usd",
      region: "US-NY",
      source: "pm_card_visa",
      estimate: q.id
    })
    expect(charged.status, JSON.stringify(charged.body)).toBe(200)
    expect(charged.body).toMatchObject({ totalAmount: q.totalAmount, estimate: q.id })
    const made = stripe.payments().slice(before)
    expect(made.map((p) => p.amount)).toEqual([q.totalAmount])
  })
})

describe("Adyen", () => {
  beforeAll(async () => {
    const saved = await post("/v1/processor-config", {
      processor: "adyen",
      credentials: {
        apiKey: adyen.apiKey,
        merchantAccount: adyen.merchantAccount,
        hmacKey: "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
      }
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
  })

  it("quotes for the Card Component's encrypted fields as /cardDetails describes them", async () => {
    const commercial = await quote(adyenCard("4166676667666746"))
    expect(commercial.card).toEqual({
      funding: "credit",
      network: "visa",
      country: "US",
      category: "commercial"
    })
    const debit = await quote(adyenCard("4400000000000008"))
    expect(debit).toMatchObject({ convenienceFee: 0, card: { funding: "debit" } })
  })

  it("the charge naming the quote takes exactly the total shown", async () => {
    const source = adyenCard("4111111111111111")
    const q = await quote(source)
    expect(q.convenienceFee).toBe(300)
    const before = adyen.payments().length
    const charged = await post("/v1/charges", {
      amount: 10_000,
      currency: "usd",
      region: "US-NY",
      source,
      estimate: q.id
    })
    expect(charged.status, JSON.stringify(charged.body)).toBe(200)
    const made = adyen.payments().slice(before)
    expect(made.map((p) => p.amount.value)).toEqual([q.totalAmount])
  })
})

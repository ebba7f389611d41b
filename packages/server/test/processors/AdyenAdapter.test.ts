/**
 * The Adyen adapter beyond the shared contract: what it sends Adyen (read at the fake), what
 * /cardDetails tells it, its refusals, and how each notification item maps.
 */
import { randomUUID } from "node:crypto"
import { make } from "@levy/engine/processors/adyen/AdyenProcessor.js"
import { rebase } from "@levy/engine/processors/adyen/AdyenTransport.js"
import type { ChargeRequest, ProcessorSettings } from "@levy/engine/processors/PaymentProcessor.js"
import { Effect, Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeAdyen, type NotificationItem, startFakeAdyen } from "../../src/fakes/FakeAdyen.js"
import { ADYEN_HMAC_KEY } from "./harnesses.js"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.either(effect))

let fake: FakeAdyen
beforeAll(async () => {
  fake = await startFakeAdyen()
})
afterAll(() => fake.close())

const adapter = (
  fields: Partial<ProcessorSettings> = {},
  credentials: Record<string, string> = {}
) =>
  make({
    credentials: {
      apiKey: fake.apiKey,
      merchantAccount: fake.merchantAccount,
      hmacKey: ADYEN_HMAC_KEY,
      ...credentials
    },
    apiBaseUrl: fake.url,
    livemode: false,
    ...fields
  })

const card = (number: string, holderName = "J Smith") =>
  JSON.stringify({ type: "scheme", encryptedCardNumber: `test_${number}`, holderName })

const request = (fields: Partial<ChargeRequest> = {}): ChargeRequest => ({
  idempotencyKey: randomUUID(),
  source: card("4111111111111111"),
  amount: 2_599,
  currency: "eur",
  fee: 99,
  metadata: { levy_charge: "ch_123" },
  ...fields
})

const sentFor = (key: string) => fake.requests().filter((r) => r.idempotencyKey === key)

describe("Adyen adapter: what it sends", () => {
  it("/payments for the total, captured at once, the key as Idempotency-Key and reference, the fee in metadata", async () => {
    const charge = request()
    expect(Either.getOrThrow(await run(adapter().charge(charge)))._tag).toBe("Succeeded")
    const [sent] = sentFor(charge.idempotencyKey)
    expect(sent).toMatchObject({
      path: "/v72/payments",
      body: {
        merchantAccount: fake.merchantAccount,
        reference: charge.idempotencyKey,
        amount: { value: 2_599, currency: "EUR" },
        captureDelayHours: 0,
        paymentMethod: { type: "scheme", encryptedCardNumber: "test_4111111111111111" },
        metadata: { levy_charge: "ch_123", levy_fee: "99" }
      }
    })
    expect(sent?.body).not.toHaveProperty("surcharge")
  })

  it("with surcharging enabled, the fee also goes in surcharge.value", async () => {
    const charge = request()
    await run(adapter({ surcharge: true }).charge(charge))
    expect(sentFor(charge.idempotencyKey)[0]?.body).toMatchObject({
      surcharge: { value: 99 },
      amount: { value: 2_599 }
    })
  })

  it("a refund goes to /payments/{pspReference}/refunds with its own key", async () => {
    const paid = Either.getOrThrow(await run(adapter().charge(request())))
    const reference = paid._tag === "Succeeded" ? paid.reference : ""
    const key = randomUUID()
    await run(
      adapter().refund({
        idempotencyKey: key,
        paymentReference: reference,
        amount: 100,
        currency: "eur"
      })
    )
    expect(sentFor(key)).toEqual([
      expect.objectContaining({
        path: `/v72/payments/${reference}/refunds`,
        body: expect.objectContaining({ amount: { value: 100, currency: "EUR" } })
      })
    ])
  })

  it("the API base URL replaces Adyen's host and keeps the path from the version on", () => {
    expect(rebase("https://checkout-test.adyen.com/v72/payments", "http://127.0.0.1:9/")).toBe(
      "http://127.0.0.1:9/v72/payments"
    )
    expect(
      rebase(
        "https://x-checkout-live.adyenpayments.com/checkout/v72/payments/ABC/refunds",
        "https://proxy/adyen"
      )
    ).toBe("https://proxy/adyen/v72/payments/ABC/refunds")
  })
})

describe("Adyen adapter: describe through /cardDetails", () => {
  it.each([
    [
      "4166676667666746",
      { funding: "credit", network: "visa", category: "commercial", issuingCountry: "US" }
    ],
    [
      "5101180000000007",
      { funding: "prepaid", network: "mastercard", category: "consumer", issuingCountry: "US" }
    ],
    [
      "4988438843884305",
      { funding: "credit", network: "visa", category: "consumer", issuingCountry: "ES" }
    ]
  ])("card %s", async (number, expected) => {
    expect(Either.getOrThrow(await run(adapter().describe(card(number))))).toEqual(expected)
  })

  it("a source that is not a payment method object is SourceInvalid without a call", async () => {
    const before = fake.requests().length
    const outcome = await run(adapter().describe("pm_card_visa"))
    expect(Either.isLeft(outcome) && outcome.left._tag).toBe("SourceInvalid")
    expect(fake.requests().length).toBe(before)
  })
})

describe("Adyen adapter: refusals", () => {
  it("a merchant account the key may not use is refused when saving", async () => {
    const outcome = await run(adapter({}, { merchantAccount: "SomeoneElse" }).verifyCredentials())
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
      _tag: "ProcessorRefused",
      code: "901"
    })
  })

  it("live mode without the live endpoint prefix is refused with where to find it", async () => {
    const outcome = await run(
      make({
        credentials: { apiKey: "k", merchantAccount: "m", hmacKey: "00" },
        livemode: true
      }).verifyCredentials()
    )
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
      _tag: "ProcessorRefused",
      code: "live_endpoint_prefix_missing"
    })
  })

  it("an idempotency key longer than Adyen's 64 characters is refused before any call", async () => {
    const before = fake.requests().length
    const outcome = await run(adapter().charge(request({ idempotencyKey: "k".repeat(65) })))
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
      _tag: "ProcessorRefused",
      code: "idempotency_key_too_long"
    })
    expect(fake.requests().length).toBe(before)
  })

  it("an expired card: Declined expired_card", async () => {
    const outcome = await run(
      adapter().charge(request({ source: card("4111111111111111", "CARD_EXPIRED") }))
    )
    expect(Either.getOrThrow(outcome)).toMatchObject({
      _tag: "Declined",
      code: "expired_card",
      message: "Expired Card"
    })
  })

  it("Received (an outcome to come by webhook): Pending with the pspReference", async () => {
    const outcome = Either.getOrThrow(
      await run(adapter().charge(request({ source: card("4111111111111111", "PENDING") })))
    )
    expect(outcome._tag).toBe("Pending")
    expect(outcome._tag === "Pending" && outcome.reference).toMatch(/^\d{16}$/)
  })

  it("refused for lack of balance: Declined insufficient_funds", async () => {
    const outcome = await run(
      adapter().charge(request({ source: card("4111111111111111", "NOT_ENOUGH_BALANCE") }))
    )
    expect(Either.getOrThrow(outcome)).toMatchObject({
      _tag: "Declined",
      code: "card_declined",
      declineCode: "insufficient_funds"
    })
  })
})

describe("Adyen adapter: notifications", () => {
  const item = (fields: Partial<NotificationItem>): NotificationItem => ({
    eventCode: "AUTHORISATION",
    pspReference: "PSP0000000000001",
    merchantReference: "key-1",
    amount: { value: 1000, currency: "EUR" },
    success: "true",
    ...fields
  })
  const parse = (items: ReadonlyArray<NotificationItem>) => {
    const signed = fake.notification(items, ADYEN_HMAC_KEY)
    return run(adapter().parseNotification(signed.rawBody, signed.headers, ADYEN_HMAC_KEY))
  }

  it("answers Adyen with [accepted]", () => {
    expect(adapter().notificationAcknowledgement).toBe("[accepted]")
  })

  it("AUTHORISATION success and failure are the payment's late outcome, with the key from the reference", async () => {
    const notes = Either.getOrThrow(
      await parse([item({}), item({ pspReference: "PSP2", success: "false", reason: "Refused" })])
    )
    expect(notes).toEqual([
      expect.objectContaining({
        _tag: "PaymentSucceeded",
        paymentReference: "PSP0000000000001",
        idempotencyKey: "key-1",
        amount: 1000
      }),
      expect.objectContaining({
        _tag: "PaymentFailed",
        paymentReference: "PSP2",
        message: "Refused"
      })
    ])
  })

  it("a REFUND (Customer Area) is a RefundMade; a failed REFUND is a RefundFailed", async () => {
    const notes = Either.getOrThrow(
      await parse([
        item({ eventCode: "REFUND", pspReference: "R1", originalReference: "P1" }),
        item({
          eventCode: "REFUND",
          pspReference: "R2",
          originalReference: "P1",
          success: "false",
          reason: "Insufficient in process refund amount"
        })
      ])
    )
    expect(notes).toEqual([
      expect.objectContaining({
        _tag: "RefundMade",
        refundReference: "R1",
        paymentReference: "P1",
        currency: "eur"
      }),
      expect.objectContaining({
        _tag: "RefundFailed",
        id: "R2:REFUND:false",
        refundReference: "R2",
        paymentReference: "P1",
        code: "refund_failed",
        message: "Insufficient in process refund amount"
      })
    ])
  })

  it("REFUND_FAILED (the scheme rejected a refund the fake made) is a RefundFailed", async () => {
    const paid = Either.getOrThrow(await run(adapter().charge(request())))
    const reference = paid._tag === "Succeeded" ? paid.reference : ""
    const refund = fake.refundInCustomerArea(reference, 100)
    const failed = fake.failRefund(refund.pspReference)
    expect(Either.getOrThrow(await parse([failed]))).toEqual([
      expect.objectContaining({
        _tag: "RefundFailed",
        id: `${refund.pspReference}:REFUND_FAILED:true`,
        refundReference: refund.pspReference,
        paymentReference: reference,
        code: "refund_rejected_by_scheme",
        message: "Refund rejected by the card scheme"
      })
    ])
  })

  it("CHARGEBACK opens the dispute if needed and sets its status; CHARGEBACK_REVERSED wins it", async () => {
    const notes = Either.getOrThrow(
      await parse([
        item({
          eventCode: "CHARGEBACK",
          pspReference: "C1",
          originalReference: "P1",
          additionalData: { disputeStatus: "Lost" }
        }),
        item({ eventCode: "CHARGEBACK_REVERSED", pspReference: "C2", originalReference: "P1" })
      ])
    )
    expect(notes.map((n) => [n._tag, "status" in n ? n.status : undefined])).toEqual([
      ["DisputeOpened", "lost"],
      ["DisputeUpdated", "lost"],
      ["DisputeUpdated", "won"]
    ])
  })

  it("one badly signed item rejects the whole batch", async () => {
    const good = fake.notification([item({})], ADYEN_HMAC_KEY)
    const bad = fake.notification([item({ pspReference: "X" })], "00".repeat(32))
    const body = JSON.parse(good.rawBody)
    body.notificationItems.push(JSON.parse(bad.rawBody).notificationItems[0])
    const outcome = await run(adapter().parseNotification(JSON.stringify(body), {}, ADYEN_HMAC_KEY))
    expect(Either.isLeft(outcome) && outcome.left.reason).toBe("signature")
  })

  it("a test notification reaching the live-mode URL is refused", async () => {
    const signed = fake.notification([item({})], ADYEN_HMAC_KEY)
    const live = make({
      credentials: {
        apiKey: "k",
        merchantAccount: "m",
        hmacKey: ADYEN_HMAC_KEY,
        liveEndpointUrlPrefix: "p"
      },
      livemode: true
    })
    const outcome = await run(live.parseNotification(signed.rawBody, {}, ADYEN_HMAC_KEY))
    expect(Either.isLeft(outcome) && outcome.left.reason).toBe("malformed")
  })
})

describe("Adyen adapter: metadata and Adyen's published limits (second review, item 13)", () => {
  const keys = (n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`k${String(i).padStart(19, "0")}`, "v"])
    )

  it("the most a request may carry (17 keys) with Levy's three fit Adyen's 20", async () => {
    const metadata = { ...keys(17), levy_charge: "ch_123", levy_account: "acct_1" }
    const charge = request({ metadata })
    expect(Either.getOrThrow(await run(adapter().charge(charge)))._tag).toBe("Succeeded")
    const sent = sentFor(charge.idempotencyKey)[0]?.body as { metadata: Record<string, string> }
    expect(Object.keys(sent.metadata)).toHaveLength(20)
  })

  it("one more key is Adyen's error 177, refused as the request's metadata", async () => {
    const metadata = { ...keys(18), levy_charge: "ch_123", levy_account: "acct_1" }
    const refused = await run(adapter().charge(request({ metadata })))
    expect(Either.isLeft(refused)).toBe(true)
    if (Either.isLeft(refused)) {
      expect(refused.left).toMatchObject({
        _tag: "ProcessorRefused",
        code: "177",
        param: "metadata"
      })
    }
  })
})

/**
 * The Stripe adapter beyond the shared contract: what it sends Stripe (read at the fake), the
 * refusals it makes before any call, and how each Stripe event maps to a notification.
 */
import { randomUUID } from "node:crypto"
import type { ChargeRequest, ProcessorSettings } from "@levy/engine/processors/PaymentProcessor.js"
import { make } from "@levy/engine/processors/stripe/StripeProcessor.js"
import { Effect, Either, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeStripe, startFakeStripe } from "../../src/fakes/FakeStripe.js"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.either(effect))
const SECRET = "whsec_levy_adapter"

let fake: FakeStripe
beforeAll(async () => {
  fake = await startFakeStripe()
})
afterAll(() => fake.close())

const adapter = (fields: Partial<ProcessorSettings> = {}, secretKey = fake.secretKey) =>
  make({
    credentials: { secretKey, webhookSecret: SECRET },
    apiBaseUrl: fake.url,
    livemode: false,
    ...fields
  })

const request = (fields: Partial<ChargeRequest> = {}): ChargeRequest => ({
  idempotencyKey: randomUUID(),
  source: "pm_card_visa",
  amount: 2_599,
  currency: "usd",
  fee: 99,
  metadata: { levy_charge: "ch_123" },
  ...fields
})

const sentFor = (key: string) => fake.requests().filter((r) => r.idempotencyKey === key)

describe("Stripe adapter: what it sends", () => {
  it("one confirmed PaymentIntent for the total, the fee and the key in its metadata, the key as Idempotency-Key", async () => {
    const charge = request({ description: "Order 42" })
    await run(adapter().charge(charge))
    const [sent] = sentFor(charge.idempotencyKey)
    expect(sent).toMatchObject({
      method: "POST",
      path: "/v1/payment_intents",
      params: {
        amount: "2599",
        currency: "usd",
        confirm: "true",
        payment_method: "pm_card_visa",
        description: "Order 42",
        error_on_requires_action: "true",
        metadata: {
          levy_charge: "ch_123",
          levy_fee: "99",
          levy_idempotency_key: charge.idempotencyKey
        }
      }
    })
  })

  it("a ConfirmationToken is sent as confirmation_token, not payment_method", async () => {
    const charge = request({ source: "ctoken_mastercard" })
    const outcome = await run(adapter().charge(charge))
    expect(Either.getOrThrow(outcome)._tag).toBe("Succeeded")
    const [sent] = sentFor(charge.idempotencyKey)
    expect(sent?.params).toMatchObject({ confirmation_token: "ctoken_mastercard" })
    expect(sent?.params).not.toHaveProperty("payment_method")
  })

  it("a refund names the PaymentIntent, the amount and its own key", async () => {
    const charge = request()
    const paid = Either.getOrThrow(await run(adapter().charge(charge)))
    const key = randomUUID()
    const reference = paid._tag === "Succeeded" ? paid.reference : ""
    await run(
      adapter().refund({
        idempotencyKey: key,
        paymentReference: reference,
        amount: 500,
        currency: "usd"
      })
    )
    expect(sentFor(key)).toEqual([
      expect.objectContaining({
        path: "/v1/refunds",
        params: expect.objectContaining({ payment_intent: reference, amount: "500" })
      })
    ])
  })
})

describe("Stripe adapter: refusals", () => {
  it("a live key in test mode is refused before any call, so no real card is charged", async () => {
    const before = fake.requests().length
    const outcome = await run(adapter({}, "sk_live_abcdef").charge(request()))
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
      _tag: "ProcessorRefused",
      code: "key_mode_mismatch"
    })
    expect(fake.requests().length).toBe(before)
  })

  it("a test key in live mode is refused when saving", async () => {
    const outcome = await run(adapter({ livemode: true }).verifyCredentials())
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
      _tag: "ProcessorRefused",
      code: "key_mode_mismatch"
    })
  })

  it("the surcharge setting is refused with the reason, not silently ignored", async () => {
    const outcome = await run(adapter({ surcharge: true }).verifyCredentials())
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
      _tag: "ProcessorRefused",
      code: "surcharge_unsupported"
    })
  })

  it("a refused key's error does not echo the key", async () => {
    const key = "sk_test_thisIsASecretKeyValue123"
    const outcome = await run(adapter({}, key).verifyCredentials())
    expect(Either.isLeft(outcome) && outcome.left._tag).toBe("ProcessorRefused")
    expect(JSON.stringify(Either.isLeft(outcome) && outcome.left)).not.toContain(
      "thisIsASecretKeyValue"
    )
  })

  it("the same key with other parameters is an unknown outcome (the first may have paid), and lookup finds the first", async () => {
    const charge = request()
    const first = Either.getOrThrow(await run(adapter().charge(charge)))
    const conflicting = await run(adapter().charge({ ...charge, amount: 9_999 }))
    expect(Either.isLeft(conflicting) && conflicting.left._tag).toBe("ProcessorUnavailable")
    const found = Either.getOrThrow(await run(adapter().lookup(charge.idempotencyKey)))
    expect(found).toEqual(Option.some(first))
  })

  it("an unreachable Stripe is ProcessorUnavailable", async () => {
    const gone = await startFakeStripe()
    await gone.close()
    const down = make({
      credentials: { secretKey: fake.secretKey },
      apiBaseUrl: gone.url,
      livemode: false
    })
    const outcome = await run(down.charge(request()))
    expect(Either.isLeft(outcome) && outcome.left._tag).toBe("ProcessorUnavailable")
  })

  it("a source that is neither pm_ nor ctoken_ is SourceInvalid without a call", async () => {
    const before = fake.requests().length
    const outcome = await run(adapter().describe("tok_visa"))
    expect(Either.isLeft(outcome) && outcome.left._tag).toBe("SourceInvalid")
    expect(fake.requests().length).toBe(before)
  })
})

describe("Stripe adapter: events", () => {
  const parse = (type: string, object: unknown) => {
    const signed = fake.signedEvent(type, object, SECRET)
    return run(adapter().parseNotification(signed.rawBody, signed.headers, SECRET)).then(
      Either.getOrThrow
    )
  }

  it("refund.created is a RefundMade of that refund", async () => {
    const notes = await parse("refund.created", {
      id: "re_1",
      object: "refund",
      amount: 700,
      currency: "usd",
      payment_intent: "pi_1",
      charge: "ch_1",
      status: "succeeded"
    })
    expect(notes).toEqual([
      expect.objectContaining({
        _tag: "RefundMade",
        refundReference: "re_1",
        paymentReference: "pi_1",
        amount: 700
      })
    ])
  })

  it("charge.refunded lists its refunds when the charge carries them, and nothing when not", async () => {
    const charge = {
      id: "ch_1",
      object: "charge",
      payment_intent: "pi_1",
      amount: 1000,
      amount_refunded: 300
    }
    expect(await parse("charge.refunded", charge)).toEqual([])
    const withRefunds = {
      ...charge,
      refunds: {
        object: "list",
        data: [
          { id: "re_9", object: "refund", amount: 300, currency: "usd", payment_intent: "pi_1" }
        ]
      }
    }
    expect(await parse("charge.refunded", withRefunds)).toEqual([
      expect.objectContaining({ _tag: "RefundMade", refundReference: "re_9" })
    ])
  })

  it.each([
    ["won", "won"],
    ["lost", "lost"],
    ["warning_closed", "won"],
    ["under_review", "under_review"]
  ])(
    "charge.dispute.closed with status %s is DisputeUpdated %s",
    async (stripeStatus, levyStatus) => {
      const notes = await parse("charge.dispute.closed", {
        id: "dp_1",
        object: "dispute",
        amount: 1000,
        currency: "usd",
        charge: "ch_1",
        payment_intent: "pi_1",
        reason: "fraudulent",
        status: stripeStatus
      })
      expect(notes).toEqual([
        expect.objectContaining({
          _tag: "DisputeUpdated",
          disputeReference: "dp_1",
          paymentReference: "pi_1",
          status: levyStatus
        })
      ])
    }
  )

  it("payment_intent.payment_failed carries the key and the decline", async () => {
    const declined = fake.payments().length
    await run(adapter().charge(request({ source: "pm_card_chargeDeclinedInsufficientFunds" })))
    const payment = fake.payments()[declined]!
    const notes = await parse("payment_intent.payment_failed", fake.paymentIntent(payment))
    expect(notes).toEqual([
      expect.objectContaining({
        _tag: "PaymentFailed",
        idempotencyKey: payment.idempotencyKey,
        declineCode: "insufficient_funds"
      })
    ])
  })

  it("refund.failed (the fake's refund failing after it was made) is a RefundFailed with its reason", async () => {
    const paid = Either.getOrThrow(await run(adapter().charge(request())))
    const reference = paid._tag === "Succeeded" ? paid.reference : ""
    const refunded = Either.getOrThrow(
      await run(
        adapter().refund({
          idempotencyKey: randomUUID(),
          paymentReference: reference,
          amount: 500,
          currency: "usd"
        })
      )
    )
    const refundReference = refunded._tag === "Refunded" ? refunded.reference : ""
    const failed = fake.failRefund(refundReference, "lost_or_stolen_card")
    expect(failed.data.object).toMatchObject({
      status: "failed",
      failure_reason: "lost_or_stolen_card"
    })
    expect(await parse("refund.failed", failed.data.object)).toEqual([
      expect.objectContaining({
        _tag: "RefundFailed",
        refundReference,
        paymentReference: reference,
        code: "lost_or_stolen_card",
        message: "The card was reported lost or stolen."
      })
    ])
    const unknownReason = await parse("refund.failed", {
      id: "re_2",
      object: "refund",
      payment_intent: "pi_2",
      status: "failed"
    })
    expect(unknownReason).toEqual([expect.objectContaining({ code: "unknown" })])
  })

  it("an event Levy does not act on maps to nothing", async () => {
    expect(await parse("customer.created", { id: "cus_1", object: "customer" })).toEqual([])
  })

  it("a missing Stripe-Signature header is a signature failure", async () => {
    const signed = fake.signedEvent("refund.created", { id: "re_1", object: "refund" }, SECRET)
    const outcome = await run(adapter().parseNotification(signed.rawBody, {}, SECRET))
    expect(Either.isLeft(outcome) && outcome.left.reason).toBe("signature")
  })
})

describe("Stripe adapter: metadata and Stripe's published limits (second review, item 13)", () => {
  /** `n` keys of Levy's longest (20 characters) with its longest values (80). */
  const widest = (n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`k${String(i).padStart(19, "0")}`, "v".repeat(80)])
    )

  it("the most a request may carry (17 keys) and Levy's two are all sent, with the adapter's two", async () => {
    const metadata = { ...widest(17), levy_charge: "ch_123", levy_account: "acct_1" }
    const charge = request({ metadata })
    expect(Either.getOrThrow(await run(adapter().charge(charge)))._tag).toBe("Succeeded")
    const sent = sentFor(charge.idempotencyKey)[0]?.params.metadata as Record<string, string>
    expect(Object.keys(sent)).toHaveLength(21)
    expect(sent).toMatchObject(metadata)
  })

  it("metadata Stripe refuses (51 keys, a key with a bracket) is refused as the request's metadata, not the configuration", async () => {
    for (const metadata of [widest(49), { "items[0]": "shoe" }]) {
      const refused = await run(adapter().charge(request({ metadata })))
      expect(Either.isLeft(refused)).toBe(true)
      if (Either.isLeft(refused)) {
        expect(refused.left).toMatchObject({ _tag: "ProcessorRefused", param: "metadata" })
      }
    }
  })
})

/**
 * The payment processor contract, written once and run against every processor (like the
 * storage conformance suite): each adapter talking to a local fake of its processor's HTTP API
 * through the official SDK. Counts of payments and refunds are read at the fake, so "exactly
 * one payment" is what the processor saw, not what the adapter says.
 */
import { randomUUID } from "node:crypto"
import type { ChargeRequest } from "@levy/engine/processors/PaymentProcessor.js"
import { Duration, Effect, Either, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adyenHarness, type Harness, simulatorHarness, stripeHarness } from "./harnesses.js"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.either(effect))

const chargeOf = (source: string, fields: Partial<ChargeRequest> = {}): ChargeRequest => ({
  idempotencyKey: randomUUID(),
  source,
  amount: 10_320,
  currency: "usd",
  fee: 320,
  description: "Levy conformance",
  metadata: { levy_charge: `ch_${randomUUID().slice(0, 8)}` },
  ...fields
})

/** A processor, and whether it has credentials to refuse and signed notifications. */
const HARNESSES: ReadonlyArray<
  readonly [string, () => Promise<Harness>, { readonly remote: boolean }]
> = [
  ["stripe (fake Stripe API)", stripeHarness, { remote: true }],
  ["adyen (fake Adyen Checkout API)", adyenHarness, { remote: true }],
  ["simulator (built in)", simulatorHarness, { remote: false }]
]

describe.each(HARNESSES)("processor conformance: %s", (_name, start, { remote }) => {
  /** A case about credentials or signed notifications: defined only for processors that have them. */
  const itRemote = (name: string, fn: () => Promise<void>) => {
    if (remote) it(name, fn)
  }
  let h: Harness
  beforeAll(async () => {
    h = await start()
  })
  afterAll(() => h.close())

  /** A succeeded payment and its reference. */
  const paid = async (fields: Partial<ChargeRequest> = {}) => {
    const request = chargeOf(h.sources.credit, fields)
    const outcome = await run(h.processor.charge(request))
    if (Either.isLeft(outcome) || outcome.right._tag !== "Succeeded") {
      throw new Error(`charge did not succeed: ${JSON.stringify(outcome)}`)
    }
    return { request, reference: outcome.right.reference }
  }

  describe("describe", () => {
    it("tells a credit card's funding, network and issuing country (where it knows it)", async () => {
      const method = await run(h.processor.describe(h.sources.credit))
      expect(method).toEqual(
        Either.right(
          expect.objectContaining({
            funding: "credit",
            network: "visa",
            issuingCountry: h.creditIssuingCountry
          })
        )
      )
    })

    it("tells a debit card from a credit card", async () => {
      const method = await run(h.processor.describe(h.sources.debit))
      expect(Either.getOrThrow(method).funding).toBe("debit")
    })

    it("fails SourceInvalid for a source the processor does not know, making no payment", async () => {
      const before = h.payments()
      const method = await run(h.processor.describe(h.sources.unknown))
      expect(Either.isLeft(method) && method.left._tag).toBe("SourceInvalid")
      expect(h.payments()).toBe(before)
    })
  })

  describe("charge", () => {
    it("takes the total and answers Succeeded with the processor's reference", async () => {
      const before = h.payments()
      const outcome = Either.getOrThrow(await run(h.processor.charge(chargeOf(h.sources.credit))))
      expect(outcome).toMatchObject({ _tag: "Succeeded", amount: 10_320 })
      expect(outcome._tag === "Succeeded" && outcome.reference.length).toBeGreaterThan(0)
      expect(h.payments()).toBe(before + 1)
    })

    it("answers Declined with a code and a decline code, taking nothing", async () => {
      const before = h.payments()
      const outcome = Either.getOrThrow(await run(h.processor.charge(chargeOf(h.sources.declined))))
      expect(outcome).toMatchObject({ _tag: "Declined", code: "card_declined" })
      expect(outcome._tag === "Declined" && outcome.declineCode.length).toBeGreaterThan(0)
      expect(h.payments()).toBe(before)
    })

    it("fails SourceInvalid for an unknown source", async () => {
      const outcome = await run(h.processor.charge(chargeOf(h.sources.unknown)))
      expect(Either.isLeft(outcome) && outcome.left._tag).toBe("SourceInvalid")
    })

    it("repeated with the same key returns the same payment: exactly one at the processor", async () => {
      const before = h.payments()
      const request = chargeOf(h.sources.credit)
      const first = Either.getOrThrow(await run(h.processor.charge(request)))
      const again = Either.getOrThrow(await run(h.processor.charge(request)))
      const third = Either.getOrThrow(await run(h.processor.charge(request)))
      expect(again).toEqual(first)
      expect(third).toEqual(first)
      expect(h.payments()).toBe(before + 1)
    })

    it("a repeated decline stays one decline", async () => {
      const request = chargeOf(h.sources.declined)
      const first = Either.getOrThrow(await run(h.processor.charge(request)))
      const again = Either.getOrThrow(await run(h.processor.charge(request)))
      expect(again).toEqual(first)
    })
  })

  describe("refund", () => {
    it("refunds part, then the rest, each key once", async () => {
      const { reference } = await paid()
      const before = h.refunds()
      const partial = {
        idempotencyKey: randomUUID(),
        paymentReference: reference,
        amount: 4_000,
        currency: "usd"
      }
      const first = Either.getOrThrow(await run(h.processor.refund(partial)))
      const retried = Either.getOrThrow(await run(h.processor.refund(partial)))
      expect(first._tag).toBe("Refunded")
      expect(retried).toEqual(first)
      expect(h.refunds()).toBe(before + 1)
      const rest = Either.getOrThrow(
        await run(
          h.processor.refund({ ...partial, idempotencyKey: randomUUID(), amount: 10_320 - 4_000 })
        )
      )
      expect(rest._tag).toBe("Refunded")
      expect(rest._tag === "Refunded" && first._tag === "Refunded" && rest.reference).not.toBe(
        first._tag === "Refunded" && first.reference
      )
      expect(h.refunds()).toBe(before + 2)
    })

    it("a full refund in one call", async () => {
      const { reference } = await paid()
      const outcome = await run(
        h.processor.refund({
          idempotencyKey: randomUUID(),
          paymentReference: reference,
          amount: 10_320,
          currency: "usd"
        })
      )
      expect(Either.getOrThrow(outcome)._tag).toBe("Refunded")
    })
  })

  describe("lookup", () => {
    it("after a charge: finds it, or (no lookup API) says None and the same key repeats it safely", async () => {
      const { request, reference } = await paid()
      const before = h.payments()
      const found = Either.getOrThrow(await run(h.processor.lookup(request.idempotencyKey)))
      if (h.lookupFinds) {
        expect(found).toEqual(
          Option.some(expect.objectContaining({ _tag: "Succeeded", reference }))
        )
      } else {
        expect(Option.isNone(found)).toBe(true)
        const repeated = Either.getOrThrow(await run(h.processor.charge(request)))
        expect(repeated).toMatchObject({ _tag: "Succeeded", reference })
      }
      expect(h.payments()).toBe(before)
    })

    it("says None for a key no payment was made with", async () => {
      const found = await run(h.processor.lookup(randomUUID()))
      expect(found).toEqual(Either.right(Option.none()))
    })
  })

  describe("lookupRefund", () => {
    /** A partial refund of a fresh payment, and its request. */
    const refunded = async () => {
      const { reference } = await paid()
      const request = {
        idempotencyKey: randomUUID(),
        paymentReference: reference,
        amount: 3_000,
        currency: "usd"
      }
      const outcome = Either.getOrThrow(await run(h.processor.refund(request)))
      if (outcome._tag !== "Refunded") throw new Error(`refund failed: ${JSON.stringify(outcome)}`)
      return { request, reference: outcome.reference }
    }

    it("a refund made is found by its key (or, with no lookup API, None), making no refund", async () => {
      const { request, reference } = await refunded()
      // Another refund of the same payment, under another key: not the one asked for.
      await run(h.processor.refund({ ...request, idempotencyKey: randomUUID(), amount: 1_000 }))
      const before = h.refunds()
      const found = Either.getOrThrow(
        await run(
          h.processor.lookupRefund({
            idempotencyKey: request.idempotencyKey,
            paymentReference: request.paymentReference
          })
        )
      )
      expect(found).toEqual(
        h.refundLookupFinds ? Option.some({ _tag: "Refunded", reference }) : Option.none()
      )
      expect(h.refunds()).toBe(before)
    })

    it("a key never used finds nothing, on a payment with and without refunds", async () => {
      const { request } = await refunded()
      const fresh = await paid()
      const before = h.refunds()
      for (const paymentReference of [request.paymentReference, fresh.reference]) {
        const found = await run(
          h.processor.lookupRefund({ idempotencyKey: randomUUID(), paymentReference })
        )
        expect(found).toEqual(Either.right(Option.none()))
      }
      expect(h.refunds()).toBe(before)
    })

    it("finds the payment and the refund after the processor forgot their keys", async () => {
      if (h.forgetKeys === undefined || !h.refundLookupFinds) return
      const { request, reference } = await refunded()
      const payment = request.paymentReference
      h.forgetKeys()
      const before = { payments: h.payments(), refunds: h.refunds() }
      const refund = await run(
        h.processor.lookupRefund({
          idempotencyKey: request.idempotencyKey,
          paymentReference: payment
        })
      )
      expect(refund).toEqual(Either.right(Option.some({ _tag: "Refunded", reference })))
      expect({ payments: h.payments(), refunds: h.refunds() }).toEqual(before)
    })
  })

  describe("idempotency guarantee", () => {
    it("states the key window its processor documents, and which lookups really ask", () => {
      const stated = h.processor.idempotency
      expect(Duration.equals(stated.keyWindow, h.keyWindow)).toBe(true)
      expect(stated.lookupCharges).toBe(h.lookupFinds)
      expect(stated.lookupRefunds).toBe(h.refundLookupFinds)
    })
  })

  describe("verifyCredentials", () => {
    it("passes with the account's credentials", async () => {
      expect(await run(h.processor.verifyCredentials())).toEqual(Either.right(undefined))
    })

    itRemote(
      "fails ProcessorRefused with a clear message for credentials the processor refuses",
      async () => {
        const result = await run(h.refused!.verifyCredentials())
        expect(Either.isLeft(result) && result.left._tag).toBe("ProcessorRefused")
        expect(Either.isLeft(result) && result.left.message).toMatch(/key|credential/i)
      }
    )

    itRemote("refused credentials take no payment", async () => {
      const before = h.payments()
      const result = await run(h.refused!.charge(chargeOf(h.sources.credit)))
      expect(Either.isLeft(result) && result.left._tag).toBe("ProcessorRefused")
      expect(h.payments()).toBe(before)
    })
  })

  describe("notifications", () => {
    itRemote(
      "a validly signed dispute notification becomes DisputeOpened on the payment",
      async () => {
        const { reference } = await paid()
        const signed = h.disputeNotification!(reference, h.webhookSecret)
        const parsed = Either.getOrThrow(
          await run(h.processor.parseNotification(signed.rawBody, signed.headers, h.webhookSecret))
        )
        expect(parsed).toContainEqual(
          expect.objectContaining({
            _tag: "DisputeOpened",
            paymentReference: reference,
            status: "needs_response"
          })
        )
      }
    )

    itRemote(
      "the same notification signed with another secret is refused (signature)",
      async () => {
        const { reference } = await paid()
        const signed = h.disputeNotification!(
          reference,
          h.webhookSecret.replace(/.$/, "0").replace(/^./, "1")
        )
        const parsed = await run(
          h.processor.parseNotification(signed.rawBody, signed.headers, h.webhookSecret)
        )
        expect(Either.isLeft(parsed) && parsed.left.reason).toBe("signature")
      }
    )

    itRemote("a body changed after signing is refused (signature)", async () => {
      const { reference } = await paid()
      const signed = h.disputeNotification!(reference, h.webhookSecret)
      const tampered = signed.rawBody.replace(/10320/g, "1")
      expect(tampered).not.toBe(signed.rawBody)
      const parsed = await run(
        h.processor.parseNotification(tampered, signed.headers, h.webhookSecret)
      )
      expect(Either.isLeft(parsed) && parsed.left.reason).toBe("signature")
    })

    it("a body that is not a notification is refused", async () => {
      const parsed = await run(h.processor.parseNotification("not json", {}, h.webhookSecret))
      expect(Either.isLeft(parsed) && parsed.left._tag).toBe("NotificationInvalid")
    })
  })
})

/**
 * Processor webhooks over real HTTP (docs/design.md §8, docs/processors.md "Processor
 * webhooks"), on memory and PostgreSQL: Stripe and Adyen notifications signed as the processors
 * sign them (by the local fakes' signers) become Levy disputes, refunds and settled charges with
 * their events, once each however often or in whatever order they arrive; a bad signature or an
 * unknown URL changes nothing; a payment Levy did not make is acknowledged and ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import {
  ChargeRepository,
  type NewCharge,
  type Processing,
  StorageError,
  Tenant
} from "@levy/storage"
import { Effect, Layer } from "effect"
import type { NotificationItem } from "../src/fakes/FakeAdyen.js"
import { seedCharge } from "./chargeStores.js"
import {
  ADYEN_HMAC_KEY,
  type Processors,
  post,
  startProcessors,
  stripeDispute,
  stripeEvent,
  webhookPath
} from "./ProcessorWebhooksSupport.js"
import { call, STORES, start, startWithStore } from "./support.js"

const TEST = Tenant.make("acct_1", false)
const T0 = 1_760_000_000

interface Listed<A> {
  readonly data: ReadonlyArray<A>
}
interface WireEvent {
  readonly id: string
  readonly type: string
  readonly data: { readonly object: Record<string, unknown> }
}

let processors: Processors
beforeAll(async () => {
  processors = await startProcessors()
})
afterAll(async () => {
  await processors.close()
})

for (const [storeName, makeStore] of STORES) {
  describe(`processor webhooks (${storeName})`, () => {
    let server: Awaited<ReturnType<typeof startWithStore>>
    let counter = 0

    beforeAll(async () => {
      server = await startWithStore(makeStore(), { processors: processors.layer })
    })
    afterAll(async () => {
      await server.close()
    })

    const run = <A, E>(effect: Effect.Effect<A, E, ChargeRepository>) =>
      server.store.runPromise(effect)

    /** A pending charge of acct_1 in test mode, written as the phased charge path writes it. */
    const pending = async (fields: Partial<NewCharge> = {}) => {
      const id = `ch_pw${storeName}${Date.now()}${++counter}`
      const charge: NewCharge & Processing = {
        ...seedCharge(TEST, id, fields),
        status: "pending",
        processor: "stripe",
        processorKey: `levy_${id}`,
        idempotencyKey: null,
        requestFingerprint: null,
        processorReference: null,
        recoverAfterMs: Date.now() + 60_000
      }
      await run(Effect.flatMap(ChargeRepository, (charges) => charges.beginCharge(charge)))
      return charge
    }

    /** A charge paid at the processor under `reference`. */
    const paid = async (reference: string, fields: Partial<NewCharge> = {}) => {
      const charge = await pending(fields)
      await run(
        Effect.flatMap(ChargeRepository, (charges) =>
          charges.settleCharge(
            TEST,
            charge.id,
            { status: "succeeded", processorReference: reference },
            () => ({ events: [] })
          )
        )
      )
      return charge.id
    }

    const get = async <A>(path: string) => (await call(server.url, "GET", path)).body as A
    const disputesOf = (charge: string) =>
      get<Listed<Record<string, unknown>>>(`/v1/disputes?charge=${charge}`).then((l) => l.data)
    const refundsOf = (charge: string) =>
      get<Listed<Record<string, unknown>>>(`/v1/refunds?charge=${charge}`).then((l) => l.data)
    /** The events about `id` (a charge, or a dispute's charge), oldest first. */
    const eventsAbout = async (id: string) => {
      const events = await get<Listed<WireEvent>>("/v1/events?limit=100")
      return events.data
        .filter((e) => e.data.object.id === id || e.data.object.charge === id)
        .map((e) => e.type)
        .reverse()
    }

    it("a Stripe dispute opens a Levy dispute once, however often it is delivered", async () => {
      const charge = await paid("pi_disputed_once")
      const opened = stripeEvent(
        "charge.dispute.created",
        stripeDispute("du_once", "pi_disputed_once", "needs_response")
      )
      const first = await post(server.url, webhookPath("stripe"), opened)
      expect(first.status).toBe(200)
      expect(first.body).toEqual({ received: true })
      expect((await post(server.url, webhookPath("stripe"), opened)).status).toBe(200)
      // The same dispute in another event (Stripe resends as a new event id now and then).
      const again = stripeEvent(
        "charge.dispute.created",
        stripeDispute("du_once", "pi_disputed_once", "needs_response")
      )
      expect((await post(server.url, webhookPath("stripe"), again)).status).toBe(200)

      const disputes = await disputesOf(charge)
      expect(disputes).toHaveLength(1)
      expect(disputes[0]).toMatchObject({
        object: "dispute",
        charge,
        amount: 10_320,
        currency: "usd",
        status: "needs_response",
        reason: "fraudulent",
        livemode: false
      })
      expect(String(disputes[0]?.id)).toMatch(/^dp_/)
      const stored = await run(Effect.flatMap(ChargeRepository, (c) => c.get(TEST, charge)))
      expect(stored.disputed).toBe(true)
      expect(await eventsAbout(charge)).toEqual(["dispute.created"])
    })

    it("dispute updates apply in the processor's order, and nothing after it closes", async () => {
      const charge = await paid("pi_ordered")
      const send = (type: string, status: string, created: number) =>
        post(
          server.url,
          webhookPath("stripe"),
          stripeEvent(type, stripeDispute("du_ordered", "pi_ordered", status), { created })
        )
      // The update arrives before the dispute's opening: it opens the dispute with its status.
      expect((await send("charge.dispute.updated", "under_review", T0 + 10)).status).toBe(200)
      expect((await send("charge.dispute.created", "needs_response", T0)).status).toBe(200)
      expect((await disputesOf(charge))[0]?.status).toBe("under_review")
      // An older update changes nothing.
      await send("charge.dispute.updated", "needs_response", T0 + 5)
      expect((await disputesOf(charge))[0]?.status).toBe("under_review")
      await send("charge.dispute.closed", "lost", T0 + 30)
      // A later "update" after the close changes nothing: lost is final.
      await send("charge.dispute.updated", "under_review", T0 + 40)
      await send("charge.dispute.closed", "won", T0 + 50)
      const disputes = await disputesOf(charge)
      expect(disputes).toHaveLength(1)
      expect(disputes[0]?.status).toBe("lost")
      expect(await eventsAbout(charge)).toEqual(["dispute.created", "dispute.closed"])
    })

    it("an open dispute's update is dispute.updated; winning it is dispute.closed", async () => {
      const charge = await paid("pi_won")
      const send = (type: string, status: string, created: number) =>
        post(
          server.url,
          webhookPath("stripe"),
          stripeEvent(type, stripeDispute("du_won", "pi_won", status), { created })
        )
      await send("charge.dispute.created", "needs_response", T0)
      await send("charge.dispute.updated", "under_review", T0 + 1)
      await send("charge.dispute.closed", "won", T0 + 2)
      expect((await disputesOf(charge))[0]?.status).toBe("won")
      expect(await eventsAbout(charge)).toEqual([
        "dispute.created",
        "dispute.updated",
        "dispute.closed"
      ])
    })

    it("a refund made in Stripe's dashboard is booked once, its fee part pro rata", async () => {
      const charge = await paid("pi_dashboard_refund")
      const refund = {
        id: "re_dashboard_1",
        object: "refund",
        amount: 2_064,
        currency: "usd",
        charge: "ch_stripe_1",
        payment_intent: "pi_dashboard_refund",
        status: "succeeded",
        metadata: {}
      }
      const created = stripeEvent("refund.created", refund)
      expect((await post(server.url, webhookPath("stripe"), created)).status).toBe(200)
      expect((await post(server.url, webhookPath("stripe"), created)).status).toBe(200)
      // charge.refunded listing the same refund (expanded): another event, the same refund.
      const listed = stripeEvent("charge.refunded", {
        id: "ch_stripe_1",
        object: "charge",
        amount: 10_320,
        amount_refunded: 2_064,
        currency: "usd",
        payment_intent: "pi_dashboard_refund",
        refunded: false,
        refunds: { object: "list", data: [refund] }
      })
      expect((await post(server.url, webhookPath("stripe"), listed)).status).toBe(200)

      const refunds = await refundsOf(charge)
      expect(refunds).toHaveLength(1)
      // 2,064 of 10,320 is a fifth: a fifth of the 320 fee is 64, the base part 2,000.
      expect(refunds[0]).toMatchObject({
        object: "refund",
        charge,
        amount: 2_000,
        convenienceFee: 64,
        totalAmount: 2_064,
        status: "succeeded"
      })
      expect(String(refunds[0]?.id)).toMatch(/^re_/)
      expect(await get<Record<string, unknown>>(`/v1/charges/${charge}`)).toMatchObject({
        amountRefunded: 2_064,
        refunded: false
      })
      expect(await eventsAbout(charge)).toEqual(["charge.refunded"])
    })

    it("a refund Levy made (its key in its metadata) settles Levy's pending refund, once", async () => {
      const charge = await paid("pi_levy_refund")
      const refundId = `re_levy${storeName}${++counter}`
      await run(
        Effect.flatMap(ChargeRepository, (charges) =>
          charges.refund({
            id: refundId,
            accountId: TEST.accountId,
            livemode: false,
            chargeId: charge,
            amount: 1_032,
            feeAmount: 32,
            reason: null,
            status: "pending",
            created: T0,
            metadata: {},
            processor: "stripe",
            processorKey: `levy_${refundId}`
          })
        )
      )
      const made = stripeEvent("refund.created", {
        id: "re_stripe_levys",
        object: "refund",
        amount: 1_032,
        currency: "usd",
        payment_intent: "pi_levy_refund",
        status: "succeeded",
        metadata: { levy_idempotency_key: `levy_${refundId}` }
      })
      expect((await post(server.url, webhookPath("stripe"), made)).status).toBe(200)
      expect((await post(server.url, webhookPath("stripe"), made)).status).toBe(200)
      // Stripe's charge.refunded names the same refund: Levy knows it by its reference now.
      const listed = stripeEvent("refund.created", {
        ...(JSON.parse(made.rawBody).data.object as Record<string, unknown>),
        metadata: {}
      })
      expect((await post(server.url, webhookPath("stripe"), listed)).status).toBe(200)
      expect(await refundsOf(charge)).toMatchObject([
        { id: refundId, status: "succeeded", totalAmount: 1_032, convenienceFee: 32 }
      ])
      const stored = await run(
        Effect.flatMap(ChargeRepository, (c) => c.leaseRefund(TEST, refundId, 0))
      )
      expect(stored.processorReference).toBe("re_stripe_levys")
      expect(await get<Record<string, unknown>>(`/v1/charges/${charge}`)).toMatchObject({
        amountRefunded: 1_032
      })
      expect(await eventsAbout(charge)).toEqual(["charge.refunded"])
    })

    it("a pending charge is settled by its payment's outcome, once", async () => {
      const succeeded = await pending()
      const intent = (id: string, key: string, extra: Record<string, unknown> = {}) => ({
        id,
        object: "payment_intent",
        amount: 10_320,
        amount_received: 10_320,
        currency: "usd",
        status: "succeeded",
        metadata: { levy_idempotency_key: key },
        last_payment_error: null,
        ...extra
      })
      const paidEvent = stripeEvent(
        "payment_intent.succeeded",
        intent("pi_late", succeeded.processorKey ?? "")
      )
      expect((await post(server.url, webhookPath("stripe"), paidEvent)).status).toBe(200)
      expect((await post(server.url, webhookPath("stripe"), paidEvent)).status).toBe(200)
      expect(await get<Record<string, unknown>>(`/v1/charges/${succeeded.id}`)).toMatchObject({
        status: "succeeded"
      })
      const stored = await run(
        Effect.flatMap(ChargeRepository, (charges) => charges.leaseCharge(TEST, succeeded.id, 0))
      )
      expect(stored.processorReference).toBe("pi_late")
      // A failure reported afterwards for the settled charge changes nothing.
      const late = stripeEvent(
        "payment_intent.payment_failed",
        intent("pi_late", succeeded.processorKey ?? "", { status: "requires_payment_method" })
      )
      expect((await post(server.url, webhookPath("stripe"), late)).status).toBe(200)
      expect(await eventsAbout(succeeded.id)).toEqual(["charge.succeeded"])

      const failed = await pending()
      const declined = stripeEvent(
        "payment_intent.payment_failed",
        intent("pi_declined", failed.processorKey ?? "", {
          status: "requires_payment_method",
          amount_received: 0,
          last_payment_error: {
            type: "card_error",
            code: "card_declined",
            decline_code: "insufficient_funds",
            message: "Your card has insufficient funds."
          }
        })
      )
      expect((await post(server.url, webhookPath("stripe"), declined)).status).toBe(200)
      expect(await get<Record<string, unknown>>(`/v1/charges/${failed.id}`)).toMatchObject({
        status: "failed",
        failureCode: "card_declined",
        failureMessage: "Your card has insufficient funds."
      })
      expect(await eventsAbout(failed.id)).toEqual(["charge.failed"])
    })

    it("a notification about a payment Levy did not make is acknowledged and ignored", async () => {
      const before = (await get<Listed<WireEvent>>("/v1/events?limit=100")).data.length
      const foreign = [
        stripeEvent("charge.dispute.created", stripeDispute("du_x", "pi_elsewhere", "lost")),
        stripeEvent("refund.created", {
          id: "re_elsewhere",
          object: "refund",
          amount: 500,
          currency: "usd",
          payment_intent: "pi_elsewhere",
          status: "succeeded",
          metadata: {}
        }),
        stripeEvent("payment_intent.succeeded", {
          id: "pi_elsewhere",
          object: "payment_intent",
          amount: 500,
          amount_received: 500,
          currency: "usd",
          status: "succeeded",
          metadata: {}
        }),
        // An event type Levy does not act on.
        stripeEvent("customer.created", { id: "cus_1", object: "customer" })
      ]
      for (const signed of foreign) {
        const reply = await post(server.url, webhookPath("stripe"), signed)
        expect(reply.status).toBe(200)
      }
      expect((await get<Listed<WireEvent>>("/v1/events?limit=100")).data).toHaveLength(before)
    })

    it("a bad signature or an unreadable body is a 400 and changes nothing", async () => {
      const charge = await paid("pi_forged")
      const forged = stripeEvent(
        "charge.dispute.created",
        stripeDispute("du_forged", "pi_forged", "needs_response"),
        { secret: "whsec_not_the_merchants" }
      )
      const refused = await post(server.url, webhookPath("stripe"), forged)
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({
        error: { type: "invalid_request_error", code: "signature_invalid" }
      })
      expect(refused.headers.get("request-id")).toMatch(/^req_/)
      const genuine = stripeEvent(
        "charge.dispute.created",
        stripeDispute("du_forged", "pi_forged", "needs_response")
      )
      const tampered = { ...genuine, rawBody: genuine.rawBody.replace("10320", "99999") }
      expect((await post(server.url, webhookPath("stripe"), tampered)).status).toBe(400)
      const unsigned = await post(server.url, webhookPath("stripe"), {
        rawBody: genuine.rawBody,
        headers: {}
      })
      expect(unsigned.status).toBe(400)
      const adyenGarbage = await post(server.url, webhookPath("adyen"), {
        rawBody: "{not json",
        headers: {}
      })
      expect(adyenGarbage.status).toBe(400)
      expect(adyenGarbage.body).toMatchObject({ error: { code: "body_invalid" } })
      expect(await disputesOf(charge)).toEqual([])
      expect(await eventsAbout(charge)).toEqual([])
    })

    it("a URL naming no configured processor is a 404 in the error shape", async () => {
      const genuine = stripeEvent("customer.created", { id: "cus_1", object: "customer" })
      for (const path of [
        "/v1/processor-webhooks/acct_unknown/test/stripe",
        "/v1/processor-webhooks/acct_1/sandbox/stripe",
        "/v1/processor-webhooks/acct_1/test/paypal",
        "/v1/processor-webhooks/acct_1/live/adyen",
        "/v1/processor-webhooks/acct_1/test",
        "/v1/processor-webhooks/acct_1/test/stripe/extra"
      ]) {
        const reply = await post(server.url, path, genuine)
        expect(reply.status, path).toBe(404)
        expect(reply.body, path).toMatchObject({
          error: { type: "invalid_request_error", code: "processor_webhook_not_found" }
        })
      }
      const wrongMethod = await call(server.url, "GET", webhookPath("stripe"), { key: null })
      expect(wrongMethod.status).toBe(405)
      expect(wrongMethod.headers.get("allow")).toBe("POST")
    })

    it("Adyen: a chargeback, its reversal and a Customer Area refund, each once", async () => {
      const charge = await paid("8816000000000001")
      const item = (fields: Partial<NotificationItem>): NotificationItem => ({
        eventCode: "NOTIFICATION_OF_CHARGEBACK",
        pspReference: "9916000000000001",
        originalReference: "8816000000000001",
        merchantReference: "levy_order",
        amount: { value: 10_320, currency: "USD" },
        success: "true",
        reason: "Fraudulent transaction",
        additionalData: { chargebackReasonCode: "10.4", disputeStatus: "Undefended" },
        ...fields
      })
      const send = (items: ReadonlyArray<NotificationItem>) =>
        post(server.url, webhookPath("adyen"), processors.adyen.notification(items, ADYEN_HMAC_KEY))
      const chargeback = await send([item({})])
      expect(chargeback.status).toBe(200)
      expect(chargeback.text).toBe("[accepted]")
      expect(await disputesOf(charge)).toMatchObject([
        { status: "needs_response", amount: 10_320, reason: "Fraudulent transaction" }
      ])
      // The whole batch again, with the reversal and a refund of 1,032 (a tenth).
      const batch = [
        item({}),
        item({
          eventCode: "CHARGEBACK_REVERSED",
          pspReference: "9916000000000002",
          additionalData: { disputeStatus: "Won" }
        }),
        item({
          eventCode: "REFUND",
          pspReference: "7716000000000001",
          amount: { value: 1_032, currency: "USD" }
        })
      ]
      expect((await send(batch)).status).toBe(200)
      expect((await send(batch)).status).toBe(200)
      expect((await disputesOf(charge)).map((d) => d.status)).toEqual(["won"])
      expect(await refundsOf(charge)).toMatchObject([
        { amount: 1_000, convenienceFee: 32, totalAmount: 1_032 }
      ])
      expect(await eventsAbout(charge)).toEqual([
        "dispute.created",
        "dispute.closed",
        "charge.refunded"
      ])
      // A badly signed item rejects the batch: nothing of it is applied.
      const other = await paid("8816000000000002")
      const good = processors.adyen.notification(
        [item({ originalReference: "8816000000000002", pspReference: "9916000000000003" })],
        ADYEN_HMAC_KEY
      )
      const bad = processors.adyen.notification([item({ pspReference: "X" })], "00".repeat(32))
      const body = JSON.parse(good.rawBody)
      body.notificationItems.push(JSON.parse(bad.rawBody).notificationItems[0])
      const mixed = await post(server.url, webhookPath("adyen"), {
        rawBody: JSON.stringify(body),
        headers: {}
      })
      expect(mixed.status).toBe(400)
      expect(await disputesOf(other)).toEqual([])
    })

    it("Adyen: AUTHORISATION settles the pending charge its merchantReference names", async () => {
      const charge = await pending()
      const authorised = processors.adyen.notification(
        [
          {
            eventCode: "AUTHORISATION",
            pspReference: "6616000000000001",
            merchantReference: charge.processorKey ?? "",
            amount: { value: 10_320, currency: "USD" },
            success: "true"
          }
        ],
        ADYEN_HMAC_KEY
      )
      expect((await post(server.url, webhookPath("adyen"), authorised)).status).toBe(200)
      expect(await get<Record<string, unknown>>(`/v1/charges/${charge.id}`)).toMatchObject({
        status: "succeeded"
      })
      expect(await eventsAbout(charge.id)).toEqual(["charge.succeeded"])
    })
  })
}

describe("processor webhooks: limits and failures", () => {
  it("a storage failure is a 503 the processor retries", async () => {
    const failing = Layer.succeed(PaymentProcessors, {
      forTenant: () => Effect.fail(new StorageError({ message: "down" })),
      forNotifications: () => Effect.fail(new StorageError({ message: "down" }))
    })
    const server = await start({ processors: failing })
    try {
      const reply = await post(
        server.url,
        webhookPath("stripe"),
        stripeEvent("customer.created", { id: "cus_1", object: "customer" })
      )
      expect(reply.status).toBe(503)
      expect(reply.body).toMatchObject({ error: { type: "api_error" } })
    } finally {
      await server.close()
    }
  })

  it("105 unsigned posts to an account's URL do not hold back its processor's signed notification (second review, item 7)", async () => {
    // The production limits: the account's test-mode budget is 100 a minute.
    const server = await start({ processors: processors.layer })
    try {
      const unsigned = stripeEvent("charge.dispute.created", { id: "du_x", object: "dispute" })
      const statuses = new Map<number, number>()
      for (let i = 0; i < 105; i++) {
        const reply = await post(server.url, webhookPath("stripe"), {
          rawBody: unsigned.rawBody,
          headers: {}
        })
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
      }
      // Refusals are counted against the sender's address, which is then refused outright...
      expect(Object.fromEntries(statuses)).toStrictEqual({ 400: 100, 429: 5 })
      const throttled = await post(server.url, webhookPath("stripe"), {
        rawBody: unsigned.rawBody,
        headers: {}
      })
      expect(throttled.body).toMatchObject({ error: { type: "rate_limit_error" } })
      expect((throttled.body as { error: { message: string } }).error.message).toContain(
        "refused processor notifications from this address"
      )
      // ...while the processor's signed notification, even from that same address, is
      // accepted: the account's budget was never spent.
      const signed = await post(
        server.url,
        webhookPath("stripe"),
        stripeEvent("customer.created", { id: "cus_1", object: "customer" })
      )
      expect(signed.status, signed.text).toBe(200)
      expect(signed.headers.get("x-ratelimit-remaining")).toBe("99")
    } finally {
      await server.close()
    }
  })

  it("forged signatures are counted per client address (an IPv6 client per /64), unknown URLs too; another client still gets its answer", async () => {
    const server = await start({
      processors: processors.layer,
      edge: { anonymous: 2 },
      trustedProxies: ["127.0.0.1", "::1", "::ffff:127.0.0.1"]
    })
    try {
      const forged = (client: string) =>
        post(server.url, webhookPath("stripe"), {
          rawBody: "{}",
          headers: { "x-forwarded-for": client, "stripe-signature": "t=1,v1=00" }
        })
      const guess = (client: string) =>
        post(server.url, "/v1/processor-webhooks/acct_guess/test/stripe", {
          rawBody: "{}",
          headers: { "x-forwarded-for": client }
        })
      const statuses = [
        (await forged("2001:db8:5:6::1")).status,
        (await forged("2001:db8:5:6::2")).status,
        (await forged("2001:db8:5:6:ffff::3")).status,
        (await guess("2001:db8:5:6::4")).status
      ]
      expect(statuses).toStrictEqual([400, 400, 429, 429])
      expect((await forged("2001:db8:5:7::1")).status).toBe(400)
      expect((await guess("203.0.113.40")).status).toBe(404)
    } finally {
      await server.close()
    }
  })

  it("notifications are limited per account and mode; bodies over the limit are 413s", async () => {
    const server = await start({
      processors: processors.layer,
      edge: { test: 2 },
      maxBodyBytes: 2_048
    })
    try {
      const send = () =>
        post(
          server.url,
          webhookPath("stripe"),
          stripeEvent("customer.created", { id: "cus_1", object: "customer" })
        )
      expect((await send()).status).toBe(200)
      const second = await send()
      expect(second.status).toBe(200)
      expect(second.headers.get("x-ratelimit-limit")).toBe("2")
      const third = await send()
      expect(third.status).toBe(429)
      expect(third.headers.get("retry-after")).not.toBeNull()
      // Live mode is another bucket.
      const big = stripeEvent("customer.created", { id: "cus_1", note: "x".repeat(4_096) })
      expect((await post(server.url, webhookPath("stripe", "live"), big)).status).toBe(413)
    } finally {
      await server.close()
    }
  })
})

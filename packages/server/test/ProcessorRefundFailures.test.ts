/**
 * A refund the processor failed after accepting it (docs/design.md §8, docs/processors.md
 * "Processor webhooks"), on memory and PostgreSQL: Stripe's signed `refund.failed` and Adyen's
 * REFUND_FAILED (or REFUND with success false) make the Levy refund `failed` with the
 * processor's reason, give its amounts back to the charge and write one `refund.failed`; a
 * redelivery changes nothing, and the charge can be refunded again up to its total.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ChargeRepository, type NewCharge, type Processing, Tenant } from "@levy/storage"
import { Effect } from "effect"
import type { NotificationItem } from "../src/fakes/FakeAdyen.js"
import { stripeSignature } from "../src/fakes/FakeStripe.js"
import { seedCharge } from "./chargeStores.js"
import {
  ADYEN_HMAC_KEY,
  type Processors,
  post,
  STRIPE_WEBHOOK_SECRET,
  startProcessors,
  webhookPath
} from "./ProcessorWebhooksSupport.js"
import { call, SECRET, STORES, startWithStore } from "./support.js"

const TEST = Tenant.make("acct_1", false)

interface Listed<A> {
  readonly data: ReadonlyArray<A>
}
interface WireEvent {
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
  describe(`a refund failed at the processor (${storeName})`, () => {
    let server: Awaited<ReturnType<typeof startWithStore>>
    let counter = 0

    beforeAll(async () => {
      server = await startWithStore(makeStore(), { processors: processors.layer })
    })
    afterAll(async () => {
      processors.stripeTest.setWebhook(undefined)
      await server.close()
    })

    const run = <A, E>(effect: Effect.Effect<A, E, ChargeRepository>) =>
      server.store.runPromise(effect)
    const get = async <A>(path: string) => (await call(server.url, "GET", path)).body as A
    const refundsOf = (charge: string) =>
      get<Listed<Record<string, unknown>>>(`/v1/refunds?charge=${charge}`).then((l) => l.data)
    const failedEventsAbout = async (refund: string) =>
      (await get<Listed<WireEvent>>("/v1/events?type=refund.failed&limit=100")).data.filter(
        (e) => e.data.object.id === refund
      )

    it("Stripe: refund.failed fails the Levy refund once and gives the charge its amounts back", async () => {
      const fake = processors.stripeTest
      const created = await call(server.url, "POST", "/v1/charges", {
        key: SECRET,
        body: { amount: 10_000, currency: "usd", source: "pm_card_visa" }
      })
      expect(created.status, created.text).toBe(200)
      const charge = created.body as { id: string; totalAmount: number }
      const refunded = await call(server.url, "POST", "/v1/refunds", {
        body: { charge: charge.id }
      })
      expect(refunded.status, refunded.text).toBe(200)
      const refund = refunded.body as { id: string; status: string }
      expect(refund.status).toBe("succeeded")
      const intent = fake.payments().find((p) => p.metadata.levy_charge === charge.id)
      const stripeRefund = intent?.refunds[0]
      if (stripeRefund === undefined) throw new Error("Stripe made no refund")

      fake.setWebhook({
        url: `${server.url}${webhookPath("stripe")}`,
        secret: STRIPE_WEBHOOK_SECRET
      })
      const event = fake.failRefund(stripeRefund.id, "expired_or_canceled_card")
      await fake.settled()
      fake.setWebhook(undefined)

      // The API says why, like a failed charge.
      expect(await refundsOf(charge.id)).toMatchObject([
        {
          id: refund.id,
          status: "failed",
          failureCode: "expired_or_canceled_card",
          failureMessage: "The card expired or was canceled."
        }
      ])
      const stored = await run(
        Effect.flatMap(ChargeRepository, (c) => c.leaseRefund(TEST, refund.id, 0))
      )
      expect(stored).toMatchObject({
        failureCode: "expired_or_canceled_card",
        failureMessage: "The card expired or was canceled."
      })
      expect(await get(`/v1/charges/${charge.id}`)).toMatchObject({
        amountRefunded: 0,
        refunded: false
      })
      expect(await failedEventsAbout(refund.id)).toMatchObject([
        {
          type: "refund.failed",
          data: {
            object: { object: "refund", status: "failed", failureCode: "expired_or_canceled_card" }
          }
        }
      ])

      // The same event delivered again: nothing changes twice.
      const rawBody = JSON.stringify(event)
      const again = await post(server.url, webhookPath("stripe"), {
        rawBody,
        headers: {
          "stripe-signature": stripeSignature(
            rawBody,
            STRIPE_WEBHOOK_SECRET,
            Math.floor(Date.now() / 1000)
          )
        }
      })
      expect(again.status).toBe(200)
      expect(await failedEventsAbout(refund.id)).toHaveLength(1)
      expect(await get(`/v1/charges/${charge.id}`)).toMatchObject({ amountRefunded: 0 })

      // The money is the merchant's again: refundable once more, up to the total.
      const retry = await call(server.url, "POST", "/v1/refunds", { body: { charge: charge.id } })
      expect(retry.status, retry.text).toBe(200)
      expect(await get(`/v1/charges/${charge.id}`)).toMatchObject({
        amountRefunded: charge.totalAmount,
        refunded: true
      })
      const over = await call(server.url, "POST", "/v1/refunds", { body: { charge: charge.id } })
      expect(over.status).toBe(400)
    })

    /** A charge paid at Adyen under `psp`, with a succeeded Levy refund Adyen knows as `refundPsp`. */
    const refundedAtAdyen = async (psp: string, refundPsp: string) => {
      const id = `ch_rf${storeName}${Date.now()}${++counter}`
      const charge: NewCharge & Processing = {
        ...seedCharge(TEST, id),
        status: "pending",
        processor: "adyen",
        processorKey: `levy_${id}`,
        idempotencyKey: null,
        requestFingerprint: null,
        processorReference: null,
        recoverAfterMs: Date.now() + 60_000
      }
      const refundId = `re_rf${storeName}${++counter}`
      await run(
        Effect.gen(function* () {
          const charges = yield* ChargeRepository
          yield* charges.beginCharge(charge)
          yield* charges.settleCharge(
            TEST,
            id,
            { status: "succeeded", processorReference: psp },
            () => ({ events: [] })
          )
          yield* charges.refund({
            id: refundId,
            accountId: TEST.accountId,
            livemode: false,
            chargeId: id,
            amount: 2_064,
            feeAmount: 64,
            reason: null,
            status: "succeeded",
            created: 1_760_000_000,
            metadata: {},
            processor: "adyen",
            processorReference: refundPsp
          })
        })
      )
      return { chargeId: id, refundId }
    }

    const adyenItem = (fields: Partial<NotificationItem>): NotificationItem => ({
      eventCode: "REFUND_FAILED",
      pspReference: "X",
      originalReference: "Y",
      merchantReference: "levy_order",
      amount: { value: 2_064, currency: "USD" },
      success: "true",
      reason: "Refund rejected by the card scheme",
      ...fields
    })
    const sendAdyen = (items: ReadonlyArray<NotificationItem>) =>
      post(server.url, webhookPath("adyen"), processors.adyen.notification(items, ADYEN_HMAC_KEY))

    it("Adyen: REFUND_FAILED fails the refund once; the charge is refundable again", async () => {
      const psp = `88${storeName === "memory" ? 1 : 2}6000000000101`
      const refundPsp = `77${storeName === "memory" ? 1 : 2}6000000000101`
      const { chargeId, refundId } = await refundedAtAdyen(psp, refundPsp)
      expect(await get(`/v1/charges/${chargeId}`)).toMatchObject({ amountRefunded: 2_064 })
      const item = adyenItem({ pspReference: refundPsp, originalReference: psp })
      const first = await sendAdyen([item])
      expect(first.status).toBe(200)
      expect(first.text).toBe("[accepted]")
      expect((await sendAdyen([item])).status).toBe(200)
      expect(await refundsOf(chargeId)).toMatchObject([{ id: refundId, status: "failed" }])
      const stored = await run(
        Effect.flatMap(ChargeRepository, (c) => c.leaseRefund(TEST, refundId, 0))
      )
      expect(stored).toMatchObject({
        failureCode: "refund_rejected_by_scheme",
        failureMessage: "Refund rejected by the card scheme"
      })
      expect(await get(`/v1/charges/${chargeId}`)).toMatchObject({
        amountRefunded: 0,
        refunded: false
      })
      expect(await failedEventsAbout(refundId)).toHaveLength(1)
      // REFUND with success false about the same refund: already failed, nothing more.
      expect(
        (await sendAdyen([adyenItem({ ...item, eventCode: "REFUND", success: "false" })])).status
      ).toBe(200)
      expect(await failedEventsAbout(refundId)).toHaveLength(1)
      // The whole charge is refundable again (this harness refunds through Stripe only, so
      // the store books it as Levy's refund path would).
      const whole = await run(
        Effect.flatMap(ChargeRepository, (charges) =>
          charges.refund({
            id: `${refundId}_again`,
            accountId: TEST.accountId,
            livemode: false,
            chargeId,
            amount: 10_320,
            feeAmount: 320,
            reason: null,
            status: "succeeded",
            created: 1_760_000_001,
            metadata: {}
          })
        )
      )
      expect(whole.charge).toMatchObject({ amountRefunded: 10_320, refunded: true })
    })

    it("Adyen: a REFUND with success false fails Levy's accepted refund", async () => {
      const psp = `88${storeName === "memory" ? 1 : 2}6000000000102`
      const refundPsp = `77${storeName === "memory" ? 1 : 2}6000000000102`
      const { chargeId, refundId } = await refundedAtAdyen(psp, refundPsp)
      const item = adyenItem({
        eventCode: "REFUND",
        success: "false",
        pspReference: refundPsp,
        originalReference: psp,
        reason: "Insufficient in process refund amount"
      })
      expect((await sendAdyen([item])).status).toBe(200)
      expect(await refundsOf(chargeId)).toMatchObject([{ id: refundId, status: "failed" }])
      expect(await get(`/v1/charges/${chargeId}`)).toMatchObject({ amountRefunded: 0 })
      expect(await failedEventsAbout(refundId)).toHaveLength(1)
    })

    it("a failure of a refund Levy has no record of is acknowledged and changes nothing", async () => {
      const psp = `88${storeName === "memory" ? 1 : 2}6000000000103`
      const { chargeId, refundId } = await refundedAtAdyen(psp, `77${storeName}103`)
      const unknownRefund = adyenItem({ pspReference: "7700000000000999", originalReference: psp })
      expect((await sendAdyen([unknownRefund])).status).toBe(200)
      const unknownPayment = adyenItem({
        pspReference: "7700000000000998",
        originalReference: "8800000000000998"
      })
      expect((await sendAdyen([unknownPayment])).status).toBe(200)
      expect(await refundsOf(chargeId)).toMatchObject([{ id: refundId, status: "succeeded" }])
      expect(await get(`/v1/charges/${chargeId}`)).toMatchObject({ amountRefunded: 2_064 })
    })
  })
}

/**
 * End to end (docs/processors.md "Processor webhooks"): a charge made through the
 * Stripe adapter against the local Stripe fake; the cardholder's bank disputes it at "Stripe",
 * whose signed `charge.dispute.created` reaches Levy's webhook URL; Levy opens a dispute, its
 * `dispute.created` webhook reaches the merchant's endpoint signed with the endpoint's secret,
 * and a refund of the disputed charge is refused with `charge_disputed`, nothing sent to Stripe.
 * In test mode (Stripe's test environment configured for Levy's test mode) the merchant's
 * endpoint is a local receiver; in live mode, where endpoints must be public HTTPS, the event
 * is read back from `/v1/events`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"
import {
  type Processors,
  STRIPE_WEBHOOK_SECRET,
  startProcessors,
  webhookPath
} from "./ProcessorWebhooksSupport.js"
import {
  call,
  KEYS_WITH_APPROVER,
  LIVE_APPROVER,
  LIVE_SECRET,
  SECRET,
  STORES,
  startWithStore
} from "./support.js"
import {
  eventually,
  type Receiver,
  receiver,
  runDispatcher,
  signedWith
} from "./WebhooksSupport.js"

interface Listed<A> {
  readonly data: ReadonlyArray<A>
}

for (const [storeName, makeStore] of STORES) {
  describe(`a processor's dispute, end to end (${storeName})`, () => {
    let processors: Processors
    let server: Awaited<ReturnType<typeof startWithStore>>
    let hooks: Receiver
    let dispatcher: { stop: () => Promise<void> }

    beforeAll(async () => {
      processors = await startProcessors()
      server = await startWithStore(makeStore(), { processors: processors.layer })
      hooks = await receiver()
      dispatcher = runDispatcher(await server.store.runtime().then((r) => r.context))
    })
    afterAll(async () => {
      await dispatcher.stop()
      await hooks.close()
      await server.close()
      await processors.close()
    })

    /** Charges 100.00 through Stripe with `key`; the Levy charge and Stripe's PaymentIntent. */
    const charge = async (key: string, fake: FakeStripe) => {
      const created = await call(server.url, "POST", "/v1/charges", {
        key,
        body: { amount: 10_000, currency: "usd", source: "pm_card_visa" }
      })
      expect(created.status, created.text).toBe(200)
      const levy = created.body as { id: string; totalAmount: number; status: string }
      expect(levy.status).toBe("succeeded")
      const intent = fake.payments().find((p) => p.metadata.levy_charge === levy.id)
      if (intent === undefined) throw new Error("Stripe has no payment for the charge")
      expect(intent.amount).toBe(levy.totalAmount)
      return { levy, intent }
    }

    /** The cardholder disputes the payment; Stripe notifies `mode`'s URL. */
    const dispute = async (fake: FakeStripe, intent: string, mode: "test" | "live") => {
      fake.setWebhook({
        url: `${server.url}${webhookPath("stripe", mode)}`,
        secret: STRIPE_WEBHOOK_SECRET
      })
      fake.dispute(intent)
      await fake.settled()
    }

    it("test mode: dispute → Levy dispute → merchant webhook → refund refused", async () => {
      const endpoint = await call(server.url, "POST", "/v1/webhook-endpoints", {
        body: { url: `${hooks.url}/levy`, enabledEvents: ["dispute.created"] }
      })
      expect(endpoint.status, endpoint.text).toBe(200)
      const secret = (endpoint.body as { secret: string }).secret

      const { levy, intent } = await charge(SECRET, processors.stripeTest)
      await dispute(processors.stripeTest, intent.id, "test")

      const disputes = (
        (await call(server.url, "GET", `/v1/disputes?charge=${levy.id}`)).body as Listed<{
          id: string
          status: string
          amount: number
        }>
      ).data
      expect(disputes).toMatchObject([{ status: "needs_response", amount: levy.totalAmount }])

      await eventually("the dispute.created webhook", () =>
        hooks.received.some((r) => r.body.includes(disputes[0]?.id ?? "?"))
      )
      const delivered = hooks.received.find((r) => r.body.includes(disputes[0]?.id ?? "?"))
      if (delivered === undefined) throw new Error("no delivery")
      expect(signedWith(delivered, secret)).toBe(true)
      expect(JSON.parse(delivered.body)).toMatchObject({
        type: "dispute.created",
        livemode: false,
        data: { object: { id: disputes[0]?.id, object: "dispute", charge: levy.id } }
      })

      const refund = await call(server.url, "POST", "/v1/refunds", { body: { charge: levy.id } })
      expect(refund.status).toBe(400)
      expect(refund.body).toMatchObject({ error: { code: "charge_disputed", param: "charge" } })
      expect(intent.refunds).toEqual([])
    })

    it("live mode: a live charge's dispute becomes a live dispute and its event", async () => {
      const { levy, intent } = await charge(LIVE_SECRET, processors.stripeLive)
      await dispute(processors.stripeLive, intent.id, "live")
      const live = (path: string) => call(server.url, "GET", path, { key: LIVE_SECRET })
      const disputes = ((await live(`/v1/disputes?charge=${levy.id}`)).body as Listed<unknown>).data
      expect(disputes).toMatchObject([{ charge: levy.id, livemode: true }])
      const events = (
        (await live("/v1/events?type=dispute.created")).body as Listed<{
          data: { object: { charge: string } }
        }>
      ).data.filter((e) => e.data.object.charge === levy.id)
      expect(events).toHaveLength(1)
      // Test mode sees nothing of it.
      expect((await call(server.url, "GET", `/v1/disputes?charge=${levy.id}`)).status).toBe(200)
      expect(
        ((await call(server.url, "GET", `/v1/disputes?charge=${levy.id}`)).body as Listed<unknown>)
          .data
      ).toEqual([])
      const refund = await call(server.url, "POST", "/v1/refunds", {
        key: LIVE_SECRET,
        body: { charge: levy.id }
      })
      expect(refund.status).toBe(400)
      expect(refund.body).toMatchObject({ error: { code: "charge_disputed" } })
      expect(intent.refunds).toEqual([])
    })
  })
}

/**
 * The same path with nothing stubbed inside Levy: Stripe connected for live mode through
 * `POST /v1/processor-config` (the credentials checked against the fake), the live charge made
 * through the saved configuration, and Stripe's dispute sent to the `webhookUrl` that answer
 * names, verified with the saved webhook secret.
 */
describe("a processor's dispute, end to end, configured through /v1/processor-config", () => {
  let stripe: FakeStripe
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: "sk_live_levy_configured_4242" })
    server = await startWithStore(STORES[0][1](), {
      keys: KEYS_WITH_APPROVER,
      processorApiBaseUrls: { stripe: stripe.url }
    })
  })
  afterAll(async () => {
    await server.close()
    await stripe.close()
  })

  it("connect → live charge → dispute at the webhook URL → Levy dispute → refund refused", async () => {
    const live = (method: string, path: string, body?: unknown) =>
      call(server.url, method, path, { key: LIVE_SECRET, ...(body === undefined ? {} : { body }) })
    const connected = await live("POST", "/v1/processor-config", {
      processor: "stripe",
      credentials: {
        secretKey: "sk_live_levy_configured_4242",
        webhookSecret: STRIPE_WEBHOOK_SECRET
      }
    })
    expect(connected.status, connected.text).toBe(200)
    const { webhookUrl, pendingChange } = connected.body as {
      webhookUrl: string
      pendingChange: { id: string }
    }
    // A live configuration waits for a second key (docs/design.md §4).
    const approved = await call(server.url, "POST", "/v1/processor-config/pending/approve", {
      key: LIVE_APPROVER,
      body: { id: pendingChange.id }
    })
    expect(approved.status, approved.text).toBe(200)
    expect(webhookUrl).toContain("/v1/processor-webhooks/acct_1/live/stripe")

    const created = await live("POST", "/v1/charges", {
      amount: 10_000,
      currency: "usd",
      source: "pm_card_visa"
    })
    expect(created.status, created.text).toBe(200)
    const levy = created.body as { id: string; totalAmount: number }
    const intent = stripe.payments().find((p) => p.metadata.levy_charge === levy.id)
    if (intent === undefined) throw new Error("Stripe has no payment for the charge")
    expect(intent.amount).toBe(levy.totalAmount)

    stripe.setWebhook({
      url: new URL(webhookUrl, server.url).toString(),
      secret: STRIPE_WEBHOOK_SECRET
    })
    stripe.dispute(intent.id)
    await stripe.settled()

    const disputes = (await live("GET", `/v1/disputes?charge=${levy.id}`)).body as Listed<unknown>
    expect(disputes.data).toMatchObject([{ charge: levy.id, livemode: true }])
    const refund = await live("POST", "/v1/refunds", { charge: levy.id })
    expect(refund.body).toMatchObject({ error: { code: "charge_disputed" } })
    expect(intent.refunds).toEqual([])
  })
})

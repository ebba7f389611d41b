/**
 * Processor-webhook test helpers: a `PaymentProcessors` layer that serves acct_1 with the
 * Stripe and Adyen adapters pointed at local fakes (what processor configuration does in
 * production), Stripe events signed with a chosen time (for out-of-order deliveries), and the
 * account's webhook URLs.
 */

import * as AdyenAdapter from "@levy/engine/processors/adyen/AdyenProcessor.js"
import type { PaymentProcessor } from "@levy/engine/processors/PaymentProcessor.js"
import { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import * as StripeAdapter from "@levy/engine/processors/stripe/StripeProcessor.js"
import { Effect, Layer, Option } from "effect"
import { type FakeAdyen, startFakeAdyen } from "../src/fakes/FakeAdyen.js"
import { type FakeStripe, startFakeStripe, stripeSignature } from "../src/fakes/FakeStripe.js"
import { ADYEN_HMAC_KEY } from "./processors/harnesses.js"

export { ADYEN_HMAC_KEY }
export const ACCOUNT = "acct_1"
export const STRIPE_WEBHOOK_SECRET = "whsec_levy_processor_webhooks"

/** Fakes of Stripe (its test and live environments) and Adyen (test), and adapters on them. */
export interface Processors {
  readonly stripeTest: FakeStripe
  readonly stripeLive: FakeStripe
  readonly adyen: FakeAdyen
  /** acct_1: Stripe in both modes, Adyen in test mode (by the `adyen` URL). */
  readonly layer: Layer.Layer<PaymentProcessors>
  readonly close: () => Promise<void>
}

export const startProcessors = async (): Promise<Processors> => {
  const stripeTest = await startFakeStripe()
  const stripeLive = await startFakeStripe({ secretKey: "sk_live_levy_fake" })
  const adyen = await startFakeAdyen()
  const stripe = (fake: FakeStripe, livemode: boolean) =>
    StripeAdapter.make({
      credentials: { secretKey: fake.secretKey, webhookSecret: STRIPE_WEBHOOK_SECRET },
      apiBaseUrl: fake.url,
      livemode
    })
  const stripeAdapters = { test: stripe(stripeTest, false), live: stripe(stripeLive, true) }
  const adyenAdapter = AdyenAdapter.make({
    credentials: {
      apiKey: adyen.apiKey,
      merchantAccount: adyen.merchantAccount,
      hmacKey: ADYEN_HMAC_KEY
    },
    apiBaseUrl: adyen.url,
    livemode: false
  })
  const configured = (accountId: string, livemode: boolean, name: string) => {
    if (accountId !== ACCOUNT) return undefined
    if (name === "stripe") {
      return {
        processor: livemode ? stripeAdapters.live : stripeAdapters.test,
        webhookSecret: STRIPE_WEBHOOK_SECRET
      }
    }
    if (name === "adyen" && !livemode) {
      return { processor: adyenAdapter as PaymentProcessor, webhookSecret: ADYEN_HMAC_KEY }
    }
    return undefined
  }
  const layer = Layer.succeed(PaymentProcessors, {
    forTenant: (tenant) =>
      Effect.succeed(
        Option.fromNullable(configured(tenant.accountId, tenant.livemode, "stripe")?.processor)
      ),
    forNotifications: (tenant, name) =>
      Effect.succeed(Option.fromNullable(configured(tenant.accountId, tenant.livemode, name)))
  })
  return {
    stripeTest,
    stripeLive,
    adyen,
    layer,
    close: async () => {
      await Promise.all([stripeTest.close(), stripeLive.close(), adyen.close()])
    }
  }
}

/** The path of acct_1's webhook URL for a processor and mode. */
export const webhookPath = (processor: string, mode: "test" | "live" = "test") =>
  `/v1/processor-webhooks/${ACCOUNT}/${mode}/${processor}`

let eventCounter = 0

/** A Stripe event of `type` about `object`, created at `created`, signed as Stripe signs. */
export const stripeEvent = (
  type: string,
  object: Record<string, unknown>,
  options: { readonly created?: number; readonly secret?: string; readonly id?: string } = {}
) => {
  const id = options.id ?? `evt_levytest${Date.now()}${++eventCounter}`
  const rawBody = JSON.stringify({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object }
  })
  const signature = stripeSignature(
    rawBody,
    options.secret ?? STRIPE_WEBHOOK_SECRET,
    Math.floor(Date.now() / 1000)
  )
  return { id, rawBody, headers: { "stripe-signature": signature } }
}

/** A Stripe dispute object on a PaymentIntent. */
export const stripeDispute = (
  id: string,
  paymentIntent: string,
  status: string,
  amount = 10_320
): Record<string, unknown> => ({
  id,
  object: "dispute",
  amount,
  currency: "usd",
  charge: `ch_of_${paymentIntent}`,
  payment_intent: paymentIntent,
  reason: "fraudulent",
  status,
  created: 1_760_000_000
})

/** A reply to a notification. */
export interface Reply {
  readonly status: number
  readonly text: string
  readonly body: unknown
  readonly headers: Headers
}

/** POSTs a raw notification body with its headers. */
export const post = async (
  base: string,
  path: string,
  signed: { readonly rawBody: string; readonly headers: Readonly<Record<string, string>> }
): Promise<Reply> => {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...signed.headers },
    body: signed.rawBody
  })
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, text, body, headers: response.headers }
}

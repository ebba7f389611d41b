/**
 * The processors the conformance suite runs against: each adapter talking to its local fake
 * (the SDK pointed at it). A harness says what differs between processors: the sources, how
 * to count the payments the processor made, how its notifications are made.
 */

import * as AdyenAdapter from "@levy/engine/processors/adyen/AdyenProcessor.js"
import type { PaymentProcessor } from "@levy/engine/processors/PaymentProcessor.js"
import * as Simulator from "@levy/engine/processors/simulator/Simulator.js"
import * as StripeAdapter from "@levy/engine/processors/stripe/StripeProcessor.js"
import { Duration } from "effect"
import { startFakeAdyen } from "../../src/fakes/FakeAdyen.js"
import { startFakeStripe } from "../../src/fakes/FakeStripe.js"

/** A signed notification, as the processor would POST it. */
export interface Signed {
  readonly rawBody: string
  readonly headers: Readonly<Record<string, string>>
}

export interface Harness {
  readonly processor: PaymentProcessor
  /** The same processor with credentials it refuses; none for the simulator (it has none). */
  readonly refused?: PaymentProcessor
  readonly webhookSecret: string
  readonly sources: {
    readonly credit: string
    readonly debit: string
    readonly declined: string
    readonly unknown: string
  }
  /** The credit source's issuing country as the processor tells it (the simulator does not). */
  readonly creditIssuingCountry: string | null
  /** Payments that took money at the processor. */
  readonly payments: () => number
  /** Refunds the processor made. */
  readonly refunds: () => number
  /** Whether `lookup` can find a payment (Adyen's Checkout API cannot: recovery repeats). */
  readonly lookupFinds: boolean
  /** Whether `lookupRefund` can find a refund (Adyen's Checkout API cannot). */
  readonly refundLookupFinds: boolean
  /** How long the processor's documentation says it honours an idempotency key. */
  readonly keyWindow: Duration.Duration
  /** Makes the processor forget every idempotency key, as once its window passed; fakes only. */
  readonly forgetKeys?: () => void
  /** A dispute on a payment, notified and signed with `secret`; none for the simulator. */
  readonly disputeNotification?: (paymentReference: string, secret: string) => Signed
  readonly close: () => Promise<void>
}

export const stripeHarness = async (): Promise<Harness> => {
  const fake = await startFakeStripe()
  const settings = (secretKey: string) => ({
    credentials: { secretKey, webhookSecret: "whsec_levy_conformance" },
    apiBaseUrl: fake.url,
    livemode: false
  })
  return {
    processor: StripeAdapter.make(settings(fake.secretKey)),
    refused: StripeAdapter.make(settings("sk_test_not_a_real_key_0000")),
    webhookSecret: "whsec_levy_conformance",
    creditIssuingCountry: "US",
    sources: {
      credit: "pm_card_visa",
      debit: "ctoken_visa_debit",
      declined: "pm_card_chargeDeclined",
      unknown: "pm_card_doesNotExist"
    },
    payments: () => fake.payments().filter((p) => p.status === "succeeded").length,
    refunds: () => fake.payments().reduce((n, p) => n + p.refunds.length, 0),
    lookupFinds: true,
    refundLookupFinds: true,
    // Stripe's API reference, "Idempotent requests": keys may be removed once 24 hours old.
    keyWindow: Duration.hours(24),
    forgetKeys: fake.forgetIdempotencyKeys,
    disputeNotification: (reference, secret) => {
      const event = fake.dispute(reference)
      return fake.signedEvent(event.type, event.data.object, secret)
    },
    close: fake.close
  }
}

const card = (number: string, holderName = "Levy Conformance") =>
  JSON.stringify({
    type: "scheme",
    encryptedCardNumber: `test_${number}`,
    encryptedExpiryMonth: "test_03",
    encryptedExpiryYear: "test_2030",
    encryptedSecurityCode: "test_737",
    holderName
  })

export const ADYEN_HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"

export const adyenHarness = async (): Promise<Harness> => {
  const fake = await startFakeAdyen()
  const settings = (apiKey: string) => ({
    credentials: { apiKey, merchantAccount: fake.merchantAccount, hmacKey: ADYEN_HMAC_KEY },
    apiBaseUrl: fake.url,
    livemode: false
  })
  return {
    processor: AdyenAdapter.make(settings(fake.apiKey)),
    refused: AdyenAdapter.make(settings("AQE_wrong_key")),
    webhookSecret: ADYEN_HMAC_KEY,
    creditIssuingCountry: "US",
    sources: {
      credit: card("4111111111111111"),
      debit: card("4400000000000008"),
      declined: card("4111111111111111", "DECLINED"),
      unknown: card("1234567890123456")
    },
    payments: () => fake.payments().filter((p) => p.resultCode === "Authorised").length,
    refunds: () => fake.payments().reduce((n, p) => n + p.refunds.length, 0),
    lookupFinds: false,
    refundLookupFinds: false,
    // Adyen's API idempotency documentation: keys valid for a minimum of 31 days.
    keyWindow: Duration.days(31),
    disputeNotification: (reference, secret) =>
      fake.notification([fake.chargeback(reference)], secret),
    close: fake.close
  }
}

/** The built-in test-mode simulator: no credentials, no notifications; lookup finds its own charges. */
export const simulatorHarness = async (): Promise<Harness> => {
  const simulator = Simulator.make()
  return {
    processor: simulator,
    webhookSecret: "none",
    creditIssuingCountry: null,
    sources: {
      credit: "tok_visa",
      debit: "tok_visa_debit",
      declined: "tok_chargeDeclined",
      unknown: "tok_doesNotExist"
    },
    payments: simulator.payments,
    refunds: simulator.refunds,
    lookupFinds: true,
    refundLookupFinds: true,
    // Deterministic: the same key always gives the same answer.
    keyWindow: Duration.infinity,
    close: async () => {}
  }
}

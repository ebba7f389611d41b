/**
 * Real examples for the reference at `/docs`: every request body, path id and the
 * Idempotency-Key header gets one a person can send as it is, so a sample request copied from
 * the page works (the generated ones had `amount: 1`, `currency: ""`, an empty key). Each body
 * decodes with its request schema (test/OpenApiExamples.test.ts).
 */

/** A request body per request schema (its component name in the document). */
export const bodies: Readonly<Record<string, unknown>> = {
  EstimateRequest: { amount: 10000, currency: "usd", region: "US-NY", source: "tok_visa" },
  ChargeCreate: {
    amount: 10000,
    currency: "usd",
    source: "tok_visa",
    region: "US-NY",
    customer: "cus_1001",
    description: "Order 1001",
    metadata: { order_id: "1001" }
  },
  RefundCreate: { charge: "ch_1a2b3c4d5e6f", amount: 2500 },
  FeeConfigUpdate: {
    percentage: 2.9,
    flatFee: 0.3,
    defaultRegion: "US-NY",
    currencyFees: { jpy: { flatFee: 40 } }
  },
  CheckComplianceRequest: {
    region: "US-CO",
    percentage: 2.9,
    flatFee: 0.3,
    cardType: "credit",
    amount: 10000,
    currency: "usd"
  },
  EventResend: { endpoint: "we_1a2b3c4d5e6f" },
  FeeConfigApprove: { id: "fcc_1a2b3c4d5e6f" },
  WebhookEndpointCreate: {
    url: "https://example.com/webhooks/levy",
    enabledEvents: ["charge.succeeded", "charge.refunded"],
    description: "Order service"
  },
  WebhookEndpointUpdate: { enabledEvents: ["charge.succeeded"], status: "enabled" },
  ProcessorConfigCreate: {
    processor: "stripe",
    credentials: { secretKey: "rk_live_51Hx…", webhookSecret: "whsec_…" }
  }
}

/** The example id of a path's `{id}` (or `{code}`), by the collection it names. */
export const pathIds: Readonly<Record<string, string>> = {
  charges: "ch_1a2b3c4d5e6f",
  refunds: "re_1a2b3c4d5e6f",
  disputes: "dp_1a2b3c4d5e6f",
  events: "evt_1a2b3c4d5e6f",
  "webhook-endpoints": "we_1a2b3c4d5e6f",
  keys: "key_1a2b3c4d5e6f",
  regions: "US-NY",
  rulesets: "1.1.0"
}

/** An Idempotency-Key as a client makes one: unique per operation, reused only on retry. */
export const IDEMPOTENCY_KEY = "order-1001-attempt-1"

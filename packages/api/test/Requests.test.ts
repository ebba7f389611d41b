/**
 * Request bodies and query strings: the specification's own examples decode; missing,
 * unknown and out-of-limit fields fail with a 400 naming the field (docs/design.md §9).
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { ChargeCreate } from "../src/ChargeCreate.js"
import { CheckComplianceRequest } from "../src/CheckComplianceRequest.js"
import { EstimateRequest } from "../src/EstimateRequest.js"
import { FeeConfigUpdate } from "../src/FeeConfigUpdate.js"
import * as Headers from "../src/Headers.js"
import { ChargeListParams, EventListParams, ListParams } from "../src/ListParams.js"
import { ProcessorConfigCreate } from "../src/ProcessorConfigCreate.js"
import { RefundCreate } from "../src/RefundCreate.js"
import { WebhookEndpointCreate } from "../src/WebhookEndpointCreate.js"
import { WebhookEndpointUpdate } from "../src/WebhookEndpointUpdate.js"
import { decode, rejection } from "./support.js"

const metadataOf = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, `value ${i}`]))

describe("EstimateRequest", () => {
  it("decodes the specification's example body", () => {
    const body = { amount: 10000, currency: "USD", region: "US-CA", cardType: "credit" }
    expect(decode(EstimateRequest, body)).toStrictEqual(body)
  })

  it("accepts the currency in either case and keeps it as sent", () => {
    expect(decode(EstimateRequest, { amount: 10000, currency: "usd" }).currency).toBe("usd")
    expect(decode(EstimateRequest, { amount: 10000, currency: "USD" }).currency).toBe("USD")
    expect(decode(EstimateRequest, { amount: 10000, currency: "Usd" }).currency).toBe("Usd")
  })

  it("refuses a currency that is not three letters, naming currency", () => {
    expect(rejection(EstimateRequest, { amount: 10000, currency: "usdx" })).toMatchObject({
      code: "parameter_invalid",
      param: "currency"
    })
    expect(rejection(EstimateRequest, { amount: 10000, currency: "us1" }).param).toBe("currency")
  })

  it("a missing amount fails with parameter_missing naming amount", () => {
    expect(rejection(EstimateRequest, { currency: "usd" })).toStrictEqual({
      code: "parameter_missing",
      param: "amount",
      message: "Missing required param: amount."
    })
  })

  it("a fractional or string amount fails naming amount", () => {
    expect(rejection(EstimateRequest, { amount: 100.5, currency: "usd" }).param).toBe("amount")
    expect(rejection(EstimateRequest, { amount: "100", currency: "usd" }).param).toBe("amount")
  })

  it("an unknown field fails with parameter_unknown naming it", () => {
    expect(
      rejection(EstimateRequest, { amount: 10000, currency: "usd", colour: "red" })
    ).toStrictEqual({
      code: "parameter_unknown",
      param: "colour",
      message: "Received unknown parameter: colour."
    })
  })

  it("takes the optional payer context of docs/design.md §3", () => {
    const body = {
      amount: 10000,
      currency: "usd",
      region: "US-NY",
      cardType: "prepaid",
      cardNetwork: "visa",
      costOfAcceptance: 2.5,
      cardholder: "business",
      channel: "in_person",
      feeType: "convenience_fee",
      disclosed: false,
      recurring: true,
      date: "2026-01-15"
    }
    expect(decode(EstimateRequest, body)).toStrictEqual(body)
  })

  it("refuses values outside the vocabulary, naming the field", () => {
    const base = { amount: 10000, currency: "usd" }
    expect(rejection(EstimateRequest, { ...base, cardType: "amex" }).param).toBe("cardType")
    expect(rejection(EstimateRequest, { ...base, channel: "phone" }).param).toBe("channel")
    expect(rejection(EstimateRequest, { ...base, date: "2025-02-30" }).param).toBe("date")
    expect(rejection(EstimateRequest, { ...base, region: "New York" }).param).toBe("region")
    expect(rejection(EstimateRequest, { ...base, costOfAcceptance: 101 }).param).toBe(
      "costOfAcceptance"
    )
  })

  it("messages say what is expected, not the schema's internals", () => {
    const base = { amount: 10000, currency: "usd" }
    expect(rejection(EstimateRequest, { ...base, cardType: "amex" }).message).toBe(
      "Invalid cardType: must be one of credit, debit, prepaid"
    )
    expect(rejection(EstimateRequest, { ...base, amount: "100" }).message).toBe(
      "Invalid amount: must be a whole number of minor units (cents)"
    )
    expect(rejection(EstimateRequest, { ...base, costOfAcceptance: "2" }).message).toBe(
      "Invalid costOfAcceptance: must be a number of percent from 0 to 100"
    )
  })

  it("does not take charge-only fields", () => {
    expect(
      rejection(EstimateRequest, { amount: 10000, currency: "usd", customer: "c" }).param
    ).toBe("customer")
  })
})

describe("ChargeCreate", () => {
  const example = {
    amount: 10000,
    currency: "usd",
    customer: "cus_123",
    description: "Invoice #1001",
    metadata: { order_id: "6735" },
    region: "US-CA",
    cardType: "credit"
  }

  it("decodes the specification's example body", () => {
    expect(decode(ChargeCreate, example)).toStrictEqual(example)
  })

  it("takes a source token", () => {
    expect(decode(ChargeCreate, { ...example, source: "tok_chargeDeclined" }).source).toBe(
      "tok_chargeDeclined"
    )
  })

  it("a missing amount fails naming amount", () => {
    const { amount: _, ...rest } = example
    expect(rejection(ChargeCreate, rest)).toMatchObject({
      code: "parameter_missing",
      param: "amount"
    })
  })

  it("an unknown field fails naming it", () => {
    expect(rejection(ChargeCreate, { ...example, card_number: "4242" })).toMatchObject({
      code: "parameter_unknown",
      param: "card_number"
    })
  })

  // The strictest processor's limits less the keys Levy adds (src/Metadata.ts): a charge
  // accepted here is never refused for its metadata by Stripe or Adyen in live mode.
  it("metadata: 17 keys pass, 18 fail naming metadata", () => {
    expect(
      Object.keys(decode(ChargeCreate, { ...example, metadata: metadataOf(17) }).metadata ?? {})
    ).toHaveLength(17)
    expect(rejection(ChargeCreate, { ...example, metadata: metadataOf(18) })).toMatchObject({
      code: "parameter_invalid",
      param: "metadata",
      message: "Invalid metadata: metadata must have at most 17 keys"
    })
    // What Stripe takes and Levy used to pass on: 50 keys.
    expect(rejection(ChargeCreate, { ...example, metadata: metadataOf(50) }).param).toBe("metadata")
  })

  it("metadata: a key of 20 characters passes, 21 fails naming the key, as invalid (not unknown)", () => {
    expect(decode(ChargeCreate, { ...example, metadata: { ["k".repeat(20)]: "v" } })).toBeDefined()
    const long = "k".repeat(21)
    expect(
      rejection(ChargeCreate, { ...example, metadata: { ok: "v", [long]: "v" } })
    ).toStrictEqual({
      code: "parameter_invalid",
      param: `metadata[${long}]`,
      message: `Invalid metadata[${long}]: metadata keys must be 1 to 20 characters`
    })
    expect(rejection(ChargeCreate, { ...example, metadata: { "": "v" } }).param).toBe("metadata[]")
  })

  it("metadata: keys with square brackets or Levy's levy_ prefix fail naming the key", () => {
    for (const key of ["items[0]", "a]b", "levy_charge", "levy_fee", "levy_anything"]) {
      const refused = rejection(ChargeCreate, { ...example, metadata: { ok: "v", [key]: "v" } })
      expect(refused, key).toMatchObject({ code: "parameter_invalid", param: `metadata[${key}]` })
    }
    expect(rejection(ChargeCreate, { ...example, metadata: { levy_fee: "0" } }).message).toBe(
      "Invalid metadata[levy_fee]: metadata keys starting with levy_ are Levy's own"
    )
    // Only the prefix is Levy's.
    expect(
      decode(ChargeCreate, { ...example, metadata: { levy: "v", my_levy_x: "v" } })
    ).toBeDefined()
  })

  it("metadata: a value of 80 characters passes, 81 fails naming the key", () => {
    expect(decode(ChargeCreate, { ...example, metadata: { note: "v".repeat(80) } })).toBeDefined()
    expect(rejection(ChargeCreate, { ...example, metadata: { note: "v".repeat(81) } }).param).toBe(
      "metadata[note]"
    )
  })

  it("metadata: values must be strings", () => {
    expect(rejection(ChargeCreate, { ...example, metadata: { count: 3 } }).param).toBe(
      "metadata[count]"
    )
  })

  it("description ≤ 1000 and customer ≤ 255 characters", () => {
    expect(decode(ChargeCreate, { ...example, description: "d".repeat(1000) })).toBeDefined()
    expect(rejection(ChargeCreate, { ...example, description: "d".repeat(1001) }).param).toBe(
      "description"
    )
    expect(decode(ChargeCreate, { ...example, customer: "c".repeat(255) })).toBeDefined()
    expect(rejection(ChargeCreate, { ...example, customer: "c".repeat(256) }).param).toBe(
      "customer"
    )
  })
})

describe("RefundCreate", () => {
  it("decodes a full and a partial refund", () => {
    expect(decode(RefundCreate, { charge: "ch_1" })).toStrictEqual({ charge: "ch_1" })
    const partial = {
      charge: "ch_1",
      amount: 500,
      reason: "requested_by_customer",
      refundFee: false
    }
    expect(decode(RefundCreate, partial)).toStrictEqual(partial)
  })

  it("refuses a zero amount, a missing charge and unknown fields", () => {
    expect(rejection(RefundCreate, { charge: "ch_1", amount: 0 }).param).toBe("amount")
    expect(rejection(RefundCreate, { amount: 10 })).toMatchObject({
      code: "parameter_missing",
      param: "charge"
    })
    expect(rejection(RefundCreate, { charge: "ch_1", metadata: {} }).param).toBe("metadata")
  })
})

describe("FeeConfigUpdate", () => {
  it("decodes the specification's example body (rates as JSON numbers)", () => {
    const body = { percentage: 2.9, flatFee: 0.3, minAmount: 50, billingMode: "direct" }
    expect(decode(FeeConfigUpdate, body)).toStrictEqual(body)
  })

  it("accepts an empty body and null to clear the optional limits", () => {
    expect(decode(FeeConfigUpdate, {})).toStrictEqual({})
    const body = {
      maxAmount: null,
      minFee: null,
      maxFee: null,
      costOfAcceptance: null,
      defaultRegion: null
    }
    expect(decode(FeeConfigUpdate, body)).toStrictEqual(body)
  })

  it("a percentage with more than 4 decimals fails naming percentage", () => {
    expect(decode(FeeConfigUpdate, { percentage: 2.9999 }).percentage).toBe(2.9999)
    expect(rejection(FeeConfigUpdate, { percentage: 2.99999 }).param).toBe("percentage")
    expect(rejection(FeeConfigUpdate, { percentage: 101 }).param).toBe("percentage")
  })

  it("a flat fee with more than 3 decimals fails naming flatFee", () => {
    expect(decode(FeeConfigUpdate, { flatFee: 0.305 }).flatFee).toBe(0.305)
    expect(rejection(FeeConfigUpdate, { flatFee: 0.3001 }).param).toBe("flatFee")
    expect(rejection(FeeConfigUpdate, { flatFee: -1 }).param).toBe("flatFee")
  })

  it("refuses unknown fields and values outside the vocabulary", () => {
    expect(rejection(FeeConfigUpdate, { percent: 2 }).code).toBe("parameter_unknown")
    expect(rejection(FeeConfigUpdate, { billingMode: "split" }).param).toBe("billingMode")
    expect(rejection(FeeConfigUpdate, { rounding: "nearest" }).param).toBe("rounding")
    expect(rejection(FeeConfigUpdate, { regionCodes: ["US-NY", "nowhere"] }).param).toBe(
      "regionCodes[1]"
    )
  })
})

describe("CheckComplianceRequest", () => {
  it("decodes the specification's example body", () => {
    const body = { region: "US-CA", percentage: 3.5, flatFee: 0.3, cardType: "credit" }
    expect(decode(CheckComplianceRequest, body)).toStrictEqual(body)
  })

  it("needs all four of the specification's fields", () => {
    for (const field of ["region", "percentage", "flatFee", "cardType"] as const) {
      const body: Record<string, unknown> = {
        region: "US-CA",
        percentage: 3.5,
        flatFee: 0.3,
        cardType: "credit"
      }
      delete body[field]
      expect(rejection(CheckComplianceRequest, body)).toMatchObject({
        code: "parameter_missing",
        param: field
      })
    }
  })

  it("takes amount and currency and the payer context", () => {
    const body = {
      region: "GB",
      percentage: 1,
      flatFee: 0,
      cardType: "debit",
      amount: 5000,
      currency: "GBP",
      cardholder: "business"
    }
    expect(decode(CheckComplianceRequest, body)).toStrictEqual(body)
  })
})

describe("WebhookEndpointCreate / Update", () => {
  it("decodes an https endpoint for all events and a localhost one for two types", () => {
    expect(
      decode(WebhookEndpointCreate, { url: "https://example.com/hooks", enabledEvents: ["*"] })
    ).toBeDefined()
    const local = {
      url: "http://localhost:4242/hooks",
      enabledEvents: ["charge.succeeded", "charge.failed"]
    }
    expect(decode(WebhookEndpointCreate, local)).toStrictEqual(local)
  })

  it("refuses non-http URLs, empty or unknown event selections", () => {
    expect(
      rejection(WebhookEndpointCreate, { url: "ftp://x.test", enabledEvents: ["*"] }).param
    ).toBe("url")
    expect(rejection(WebhookEndpointCreate, { url: "not a url", enabledEvents: ["*"] }).param).toBe(
      "url"
    )
    expect(
      rejection(WebhookEndpointCreate, { url: "https://x.test", enabledEvents: [] }).param
    ).toBe("enabledEvents")
    expect(
      rejection(WebhookEndpointCreate, { url: "https://x.test", enabledEvents: ["charge.created"] })
        .param
    ).toBe("enabledEvents[0]")
  })

  it("an unknown event type is named with the accepted ones", () => {
    expect(
      rejection(WebhookEndpointCreate, { url: "https://x.test", enabledEvents: ["*", "nope"] })
    ).toMatchObject({
      param: "enabledEvents[1]",
      message: expect.stringContaining("must be * or one of charge.succeeded")
    })
  })

  it("an update may disable an endpoint; unknown fields are refused", () => {
    expect(decode(WebhookEndpointUpdate, { status: "disabled" })).toStrictEqual({
      status: "disabled"
    })
    expect(rejection(WebhookEndpointUpdate, { secret: "whsec_dev_x" }).param).toBe("secret")
  })
})

describe("list query parameters", () => {
  it("limit defaults to 10 and is read from the query string", () => {
    expect(decode(ListParams, {})).toStrictEqual({ limit: 10 })
    expect(decode(ListParams, { limit: "100" }).limit).toBe(100)
    expect(decode(ListParams, { limit: "1" }).limit).toBe(1)
  })

  it("limit outside 1–100 or not an integer fails naming limit", () => {
    for (const limit of ["0", "101", "2.5", "ten"]) {
      expect(rejection(ListParams, { limit }).param).toBe("limit")
    }
  })

  it("charges: cursor, customer and created[...] filters as integers", () => {
    const query = decode(ChargeListParams, {
      starting_after: "ch_9",
      customer: "cus_1",
      "created[gte]": "1700000000",
      "created[lt]": "1800000000"
    })
    expect(query).toStrictEqual({
      limit: 10,
      starting_after: "ch_9",
      customer: "cus_1",
      "created[gte]": 1700000000,
      "created[lt]": 1800000000
    })
    expect(rejection(ChargeListParams, { "created[lte]": "yesterday" }).param).toBe("created[lte]")
  })

  it("events filter by a known type only", () => {
    expect(decode(EventListParams, { type: "charge.failed" }).type).toBe("charge.failed")
    expect(rejection(EventListParams, { type: "charge.exploded" }).param).toBe("type")
  })
})

describe("headers", () => {
  it("Levy-Version accepts 2025-01 only", () => {
    expect(Schema.decodeUnknownEither(Headers.ApiVersion)("2025-01")._tag).toBe("Right")
    expect(Schema.decodeUnknownEither(Headers.ApiVersion)("2024-12")._tag).toBe("Left")
  })

  it("Idempotency-Key is optional, 1–255 characters", () => {
    expect(decode(Headers.PostHeaders, {})).toStrictEqual({})
    expect(decode(Headers.PostHeaders, { "idempotency-key": "k1", other: "x" })).toStrictEqual({
      "idempotency-key": "k1"
    })
    expect(rejection(Headers.PostHeaders, { "idempotency-key": "k".repeat(256) }).param).toBe(
      "idempotency-key"
    )
  })
})

describe("ProcessorConfigCreate", () => {
  const stripe = {
    processor: "stripe",
    credentials: { secretKey: "sk_test_1", webhookSecret: "w" }
  }

  it("decodes a processor with its credentials, surcharge optional", () => {
    expect(decode(ProcessorConfigCreate, stripe)).toStrictEqual(stripe)
    expect(decode(ProcessorConfigCreate, { ...stripe, surcharge: true }).surcharge).toBe(true)
  })

  it("refuses an unknown processor listing stripe and adyen, naming processor", () => {
    const refused = rejection(ProcessorConfigCreate, { ...stripe, processor: "paypal" })
    expect(refused.param).toBe("processor")
    expect(refused.message).toContain("stripe, adyen")
  })

  it("refuses empty or non-string credentials, too many, and unknown body fields", () => {
    expect(
      rejection(ProcessorConfigCreate, { ...stripe, credentials: { secretKey: "" } }).param
    ).toBe("credentials[secretKey]")
    expect(
      rejection(ProcessorConfigCreate, { ...stripe, credentials: { secretKey: 42 } }).param
    ).toBe("credentials[secretKey]")
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"]))
    expect(rejection(ProcessorConfigCreate, { ...stripe, credentials: many }).param).toBe(
      "credentials"
    )
    expect(rejection(ProcessorConfigCreate, { ...stripe, apiBaseUrl: "http://x" }).param).toBe(
      "apiBaseUrl"
    )
  })
})

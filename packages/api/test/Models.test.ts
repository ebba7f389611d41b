/**
 * The wire models carry what the engine produces: estimates, charge quotes, verdicts and
 * region information from packages/core encode and decode through them unchanged.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  Compliance as CoreCompliance,
  Estimate as CoreEstimate,
  FeeSchedule,
  Rate,
  RegionInfo,
  Ruleset
} from "@levy/core"
import { Schema } from "effect"
import * as Charge from "../src/Charge.js"
import * as ComplianceCheckResult from "../src/ComplianceCheckResult.js"
import * as CurrentKey from "../src/CurrentKey.js"
import * as Dispute from "../src/Dispute.js"
import * as Estimate from "../src/Estimate.js"
import * as Event from "../src/Event.js"
import * as FeeConfig from "../src/FeeConfig.js"
import * as List from "../src/List.js"
import * as ProcessorConfig from "../src/ProcessorConfig.js"
import * as Refund from "../src/Refund.js"
import * as Region from "../src/Region.js"
import * as RulesetChange from "../src/RulesetChange.js"
import * as WebhookDelivery from "../src/WebhookDelivery.js"
import * as WebhookEndpoint from "../src/WebhookEndpoint.js"
import { decode, right } from "./support.js"

/** Encodes with `schema`, sends through JSON, decodes again. */
const roundTrip = <A, I>(schema: Schema.Schema<A, I>, value: A): A =>
  decode(schema, JSON.parse(JSON.stringify(Schema.encodeSync(schema)(value))))

const nyEstimate = () =>
  right(
    CoreEstimate.estimate(FeeSchedule.DEFAULT, Ruleset.DEFAULT, {
      amount: 10000,
      currency: "usd",
      region: "US-NY",
      cardType: "credit"
    })
  )

describe("Estimate", () => {
  it("the engine's estimate encodes and decodes unchanged, with object 'estimate'", () => {
    const wire = Estimate.fromEngine(nyEstimate())
    expect(wire.object).toBe("estimate")
    expect(roundTrip(Estimate.Estimate, wire)).toStrictEqual(wire)
  })

  it("carries the specification's example numbers and both fee forms, lowered as a charge is", () => {
    const encoded = Schema.encodeSync(Estimate.Estimate)(Estimate.fromEngine(nyEstimate()))
    expect(encoded).toMatchObject({
      baseAmount: 10000,
      // The network's 3 % binds on an unnamed credit card in US-NY: 320 → 300, as a charge collects.
      convenienceFee: 300,
      totalAmount: 10300,
      currency: "usd",
      region: "US-NY",
      feeStructure: { percentage: 2.9, flatFee: 0.3 },
      feeBreakdown: { percentage: 290, flatFee: 30 },
      adjustment: -20,
      rounding: "half_up",
      model: "add_on",
      compliant: true,
      configured: {
        convenienceFee: 320,
        totalAmount: 10320,
        compliant: false,
        reasonCode: "network_cap_exceeded"
      }
    })
  })

  it("reports the engine's verdict on the configured fee, with the ruleset version", () => {
    const core = nyEstimate()
    const wire = Estimate.fromEngine(core)
    expect(wire.compliant).toBe(core.compliant)
    expect(wire.compliance.compliant).toBe(core.compliance.compliant)
    expect(wire.compliance.reasonCode).toBe(core.compliance.reasonCode)
    expect(wire.compliance.rulesetVersion).toBe(Ruleset.DEFAULT.version)
    expect(wire.compliance.rules).toContain("US-NY")
  })

  it("an estimate without a region has region null and still round-trips", () => {
    const core = right(
      CoreEstimate.estimate(FeeSchedule.DEFAULT, Ruleset.DEFAULT, { amount: 5000, currency: "EUR" })
    )
    const wire = Estimate.fromEngine(core)
    expect(wire.region).toBeNull()
    expect(wire.currency).toBe("EUR")
    expect(roundTrip(Estimate.Estimate, wire)).toStrictEqual(wire)
  })

  it("refuses an estimate whose amounts are not integers", () => {
    const encoded = Schema.encodeSync(Estimate.Estimate)(Estimate.fromEngine(nyEstimate()))
    expect(
      Schema.decodeUnknownEither(Estimate.Estimate)({ ...encoded, convenienceFee: 3.2 })._tag
    ).toBe("Left")
  })
})

describe("Charge", () => {
  const coloradoQuote = () =>
    right(
      CoreEstimate.chargeQuote(FeeSchedule.DEFAULT, Ruleset.DEFAULT, {
        amount: 10000,
        currency: "usd",
        region: "US-CO",
        cardType: "credit"
      })
    )

  const chargeOf = (quote: CoreEstimate.ChargeQuote): Charge.Charge => ({
    id: "ch_1a2b3c",
    object: "charge",
    ...Charge.quoteFields(quote),
    status: "succeeded",
    created: 1_767_225_600,
    livemode: false,
    customer: "cus_123",
    metadata: { order_id: "6735" },
    cardType: "credit",
    amountRefunded: 0,
    refunded: false,
    disputed: false,
    billingMode: "direct"
  })

  it("a charge built from the engine's charge quote round-trips", () => {
    const charge = chargeOf(coloradoQuote())
    expect(roundTrip(Charge.Charge, charge)).toStrictEqual(charge)
    const disputed = { ...charge, disputed: true }
    expect(roundTrip(Charge.Charge, disputed)).toStrictEqual(disputed)
  })

  it("a charge recorded before `disputed` existed (a stored event, a replay) reads as not disputed", () => {
    const { disputed: _, ...older } = Schema.encodeSync(Charge.Charge)(chargeOf(coloradoQuote()))
    expect(Schema.decodeUnknownSync(Charge.Charge)(older).disputed).toBe(false)
    // Encoded, the field is always there, as Stripe's charge always has it.
    expect(Schema.encodeSync(Charge.Charge)(chargeOf(coloradoQuote())).disputed).toBe(false)
  })

  it("the lowered fee adds up: breakdown + adjustment = convenienceFee; total = amount + fee", () => {
    const charge = chargeOf(coloradoQuote())
    expect(charge.feeBreakdown.percentage + charge.feeBreakdown.flatFee + charge.adjustment).toBe(
      charge.convenienceFee
    )
    expect(charge.totalAmount).toBe(charge.amount + charge.convenienceFee)
    expect(charge.adjustment).toBeLessThan(0)
  })

  it("compliance says the fee collected is compliant; configured says why it was lowered", () => {
    const quote = coloradoQuote()
    const charge = chargeOf(quote)
    expect(charge.convenienceFee).toBe(200)
    expect(charge.compliance.compliant).toBe(true)
    expect(charge.compliance.reasonCode).toBeNull()
    expect(charge.configured).toMatchObject({
      convenienceFee: 320,
      compliant: false,
      reasonCode: "percentage_over_limit"
    })
    expect(charge.configured?.reason).toEqual(expect.any(String))
  })

  it("a failed charge with separate billing carries failure fields and transactions", () => {
    const charge: Charge.Charge = {
      ...chargeOf(coloradoQuote()),
      status: "failed",
      failureCode: "card_declined",
      failureMessage: "Your card was declined.",
      billingMode: "separate",
      transactions: [
        { part: "amount", amount: 10000, reference: "sim_1" },
        { part: "fee", amount: 200, reference: "sim_2" }
      ]
    }
    expect(roundTrip(Charge.Charge, charge)).toStrictEqual(charge)
  })

  it("refuses an id without the ch_ prefix and an unknown status", () => {
    const encoded = Schema.encodeSync(Charge.Charge)(chargeOf(coloradoQuote()))
    expect(Schema.decodeUnknownEither(Charge.Charge)({ ...encoded, id: "re_1" })._tag).toBe("Left")
    expect(Schema.decodeUnknownEither(Charge.Charge)({ ...encoded, status: "refunded" })._tag).toBe(
      "Left"
    )
  })
})

describe("Region", () => {
  it("every place of the shipped ruleset encodes and decodes unchanged", () => {
    const places = RegionInfo.list(Ruleset.DEFAULT, "2026-01-01")
    expect(places.length).toBeGreaterThan(50)
    for (const info of places) {
      const wire = Region.fromEngine(info)
      expect(roundTrip(Region.Region, wire)).toStrictEqual(wire)
    }
  })

  it("a country has state null; a subdivision names its state", () => {
    const us = RegionInfo.describe(Ruleset.DEFAULT, "US", "2026-01-01")
    const ny = RegionInfo.describe(Ruleset.DEFAULT, "US-NY", "2026-01-01")
    expect(us && Region.fromEngine(us).state).toBeNull()
    expect(ny && Region.fromEngine(ny).state).toEqual(expect.any(String))
  })
})

describe("ComplianceCheckResult", () => {
  it("the engine's verdict round-trips and echoes the region", () => {
    const verdict = right(
      CoreCompliance.check(Ruleset.DEFAULT, {
        region: "US-CA",
        cardType: "credit",
        percentage: Rate.percent("3.5"),
        flatFee: Rate.NO_FLAT_FEE
      })
    )
    const wire = ComplianceCheckResult.fromEngine("US-CA", verdict)
    expect(wire.region).toBe("US-CA")
    expect(wire.compliant).toBe(verdict.compliant)
    expect(wire.reason === null).toBe(verdict.compliant)
    expect(roundTrip(ComplianceCheckResult.ComplianceCheckResult, wire)).toStrictEqual(wire)
  })
})

describe("FeeConfig, Refund, Dispute, Event, WebhookEndpoint, List", () => {
  const feeConfig: FeeConfig.FeeConfig = {
    object: "fee_config",
    livemode: true,
    percentage: 2.9,
    flatFee: 0.3,
    minAmount: 50,
    maxAmount: null,
    billingMode: "direct",
    rounding: "half_up",
    model: "add_on",
    minFee: null,
    maxFee: null,
    costOfAcceptance: null,
    merchantCategoryCode: null,
    defaultRegion: "US-CA",
    nonCompliant: "adjust",
    allowUncertain: false,
    requireRegion: false,
    requireEstimate: false,
    currencyFees: { jpy: { flatFee: 40, minFee: null } },
    regionCodes: ["US-CA", "US-NY"],
    regions: {
      "US-CA": { maxPercentage: 3, requiresDisclosure: true },
      "US-NY": { maxPercentage: 3, requiresDisclosure: true }
    },
    updated: false,
    pendingChange: {
      id: "fcc_1",
      changes: { percentage: 3.5 },
      requestedAt: 1_767_225_600,
      stale: false
    }
  }

  it("a live fee configuration with a pending change round-trips", () => {
    expect(roundTrip(FeeConfig.FeeConfig, feeConfig)).toStrictEqual(feeConfig)
  })

  it("a pending change id must start with fcc_", () => {
    const encoded = Schema.encodeSync(FeeConfig.FeeConfig)(feeConfig)
    const bad = { ...encoded, pendingChange: { ...encoded.pendingChange, id: "chg_1" } }
    expect(Schema.decodeUnknownEither(FeeConfig.FeeConfig)(bad)._tag).toBe("Left")
  })

  it("a refund and a dispute round-trip", () => {
    const refund: Refund.Refund = {
      id: "re_1",
      object: "refund",
      charge: "ch_1",
      amount: 5000,
      convenienceFee: 160,
      totalAmount: 5160,
      currency: "usd",
      status: "succeeded",
      reason: null,
      metadata: { rma: "77" },
      created: 1,
      livemode: false
    }
    const dispute: Dispute.Dispute = {
      id: "dp_1",
      object: "dispute",
      charge: "ch_1",
      amount: 10320,
      currency: "usd",
      status: "needs_response",
      reason: "fraudulent",
      created: 1,
      livemode: false
    }
    expect(roundTrip(Refund.Refund, refund)).toStrictEqual(refund)
    // A refund recorded before metadata existed (a stored refund.failed event) reads {}.
    const { metadata: _, ...older } = Schema.encodeSync(Refund.Refund)(refund)
    expect(Schema.decodeUnknownSync(Refund.Refund)(older).metadata).toStrictEqual({})
    expect(roundTrip(Dispute.Dispute, dispute)).toStrictEqual(dispute)
    expect(Schema.decodeUnknownEither(Dispute.Dispute)({ ...dispute, status: "open" })._tag).toBe(
      "Left"
    )
  })

  it("an event carries its resource in data.object, which decodes by its object field", () => {
    const event: Event.Event = {
      id: "evt_1",
      object: "event",
      type: "fee_config.updated",
      data: { object: feeConfig },
      created: 1,
      livemode: true
    }
    expect(roundTrip(Event.Event, event)).toStrictEqual(event)
    const encoded = Schema.encodeSync(Event.Event)(event)
    expect(
      Schema.decodeUnknownEither(Event.Event)({
        ...encoded,
        data: { object: { object: "coupon" } }
      })._tag
    ).toBe("Left")
    expect(
      Schema.decodeUnknownEither(Event.Event)({ ...encoded, type: "charge.created" })._tag
    ).toBe("Left")
  })

  it("processor configuration events carry the configuration, its deletion or a held change, each decoding as itself", () => {
    const change: ProcessorConfig.ProcessorConfigChange = {
      object: "processor_config_change",
      id: "pcc_1",
      action: "save",
      processor: "stripe",
      livemode: true,
      credentials: { secretKey: "rk_live_…4242" },
      surcharge: false,
      status: "pending",
      stale: false,
      requestedAt: 1
    }
    const held: ProcessorConfig.ProcessorConfig = {
      object: "processor_config",
      processor: "stripe",
      livemode: true,
      credentials: { secretKey: "rk_live_…4242" },
      surcharge: false,
      webhookUrl: "/v1/processor-webhooks/acct_1/live/stripe",
      created: 1,
      updated: 1,
      applied: false,
      pendingChange: change
    }
    const deleted: ProcessorConfig.DeletedProcessorConfig = {
      object: "processor_config",
      processor: "stripe",
      livemode: true,
      deleted: true
    }
    const { applied: _, pendingChange: __, ...saved } = held
    for (const [type, object] of [
      ["processor_config.updated", saved],
      ["processor_config.deleted", deleted],
      ["processor_config.change_requested", change]
    ] as const) {
      const event: Event.Event = {
        id: "evt_1",
        object: "event",
        type,
        data: { object },
        created: 1,
        livemode: true
      }
      expect(roundTrip(Event.Event, event)).toStrictEqual(event)
    }
    expect(roundTrip(ProcessorConfig.ProcessorConfig, held)).toStrictEqual(held)
    expect(
      Schema.decodeUnknownEither(ProcessorConfig.ProcessorConfigChange)({ ...change, id: "fcc_1" })
        ._tag
    ).toBe("Left")
  })

  it("ruleset.changed carries the ruleset change; an endpoint may subscribe to it", () => {
    const change: RulesetChange.RulesetChange = {
      object: "ruleset_change",
      reason: "dated_rule",
      effectiveDate: "2026-07-01",
      rulesetVersion: { before: "2.1.0", after: "2.1.0" },
      regions: [
        {
          region: "AU",
          currency: "aud",
          before: {
            verdict: "capped",
            maxPercentage: 1.5,
            maxFlatFee: null,
            requiresDisclosure: true
          },
          after: {
            verdict: "prohibited",
            maxPercentage: 0,
            maxFlatFee: null,
            requiresDisclosure: true
          },
          fees: [{ amount: 10000, cardType: "credit", before: 150, after: 0 }]
        }
      ],
      livemode: false
    }
    const event: Event.Event = {
      id: "evt_2",
      object: "event",
      type: "ruleset.changed",
      data: { object: change },
      created: 1,
      livemode: false
    }
    expect(roundTrip(Event.Event, event)).toStrictEqual(event)
    const bad = (patch: object) =>
      Schema.decodeUnknownEither(RulesetChange.RulesetChange)({ ...change, ...patch })._tag
    expect(bad({ reason: "whim" })).toBe("Left")
    expect(bad({ effectiveDate: "2026-02-30" })).toBe("Left")
    expect(bad({ regions: [{ ...change.regions[0], before: { verdict: "maybe" } }] })).toBe("Left")
    expect(Schema.decodeUnknownEither(WebhookEndpoint.EnabledEvent)("ruleset.changed")._tag).toBe(
      "Right"
    )
  })

  it("a webhook endpoint shows its secret only when given one", () => {
    const endpoint: WebhookEndpoint.WebhookEndpoint = {
      id: "we_1",
      object: "webhook_endpoint",
      url: "https://example.com/hooks",
      enabledEvents: ["charge.succeeded", "*"],
      status: "enabled",
      description: null,
      created: 1,
      livemode: false
    }
    expect(Object.keys(Schema.encodeSync(WebhookEndpoint.WebhookEndpoint)(endpoint))).not.toContain(
      "secret"
    )
    const created = { ...endpoint, secret: "whsec_dev_abc123" }
    expect(roundTrip(WebhookEndpoint.WebhookEndpoint, created)).toStrictEqual(created)
    expect(
      Schema.decodeUnknownEither(WebhookEndpoint.WebhookEndpoint)({
        ...created,
        secret: "sk_dev_service_x"
      })._tag
    ).toBe("Left")
  })

  it("a list page has object 'list', data, has_more and url", () => {
    const delivery: WebhookDelivery.WebhookDelivery = {
      id: "wd_1",
      object: "webhook_delivery",
      webhookEndpoint: "we_1",
      event: "evt_1",
      eventType: "charge.succeeded",
      status: "pending",
      attempts: [{ attemptedAt: 1, responseStatus: 500, error: null, durationMs: 12 }],
      nextAttemptAt: 61,
      created: 1
    }
    const schema = List.List(WebhookDelivery.WebhookDelivery, "WebhookDeliveryList")
    const page = List.make([delivery], true, "/v1/webhook-endpoints/we_1/deliveries")
    expect(Schema.encodeSync(schema)(page)).toStrictEqual({
      object: "list",
      data: [delivery],
      has_more: true,
      url: "/v1/webhook-endpoints/we_1/deliveries"
    })
    expect(roundTrip(schema, page)).toStrictEqual(page)
  })
})

describe("CurrentKey.classify", () => {
  it("reads kind and mode from the four prefixes", () => {
    expect(CurrentKey.classify("sk_dev_service_abc")).toStrictEqual({
      kind: "secret",
      mode: "test"
    })
    expect(CurrentKey.classify("sk_prod_service_abc")).toStrictEqual({
      kind: "secret",
      mode: "live"
    })
    expect(CurrentKey.classify("pk_dev_service_abc")).toStrictEqual({
      kind: "publishable",
      mode: "test"
    })
    expect(CurrentKey.classify("pk_prod_service_abc")).toStrictEqual({
      kind: "publishable",
      mode: "live"
    })
  })

  it("refuses other prefixes and a bare prefix", () => {
    expect(CurrentKey.classify("sk_test_abc")).toBeUndefined()
    expect(CurrentKey.classify("sk_dev_service_")).toBeUndefined()
    expect(CurrentKey.classify("whsec_dev_abc")).toBeUndefined()
  })
})

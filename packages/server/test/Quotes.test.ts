/**
 * Quotes for the shopper's card that the charge honours (docs/quotes.md), over real HTTP on the
 * memory store and PostgreSQL: an estimate with `source` quotes for the card the processor
 * describes; every estimate is a signed quote (`est_…`, `expiresAt`); a charge that names it
 * collects the smaller of the quoted fee and the legal fee for the card charged, for the quote's
 * account, mode, amount, currency and region, once; a declined attempt leaves it usable.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as QuoteToken from "@levy/engine/estimates/QuoteToken.js"
import { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import * as Simulator from "@levy/engine/processors/simulator/Simulator.js"
import { Signer } from "@levy/storage"
import { Effect, Layer, Option } from "effect"
import {
  call,
  KEYS,
  LIVE_SECRET,
  memoryStore,
  PUBLISHABLE,
  type Reply,
  STORES,
  startWithStore
} from "./support.js"

const OTHER_SECRET = "sk_dev_service_otheraccount5"

interface Quote {
  readonly id: string
  readonly expiresAt: number
  readonly convenienceFee: number
  readonly totalAmount: number
  readonly card?: Record<string, unknown>
  readonly compliance: { readonly disclosureText: string | null }
}

const errorOf = (reply: Reply) => (reply.body as { error: Record<string, unknown> }).error

describe.each(STORES)("quotes on the %s store", (_name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    server = await startWithStore(makeStore(), {
      keys: [...KEYS, { secret: OTHER_SECRET, accountId: "acct_2", keyId: "key_other" }]
    })
  }, 60_000)
  afterAll(() => server.close())

  const post = (path: string, body: unknown, key?: string) =>
    call(server.url, "POST", path, { body, ...(key === undefined ? {} : { key }) })
  const quote = async (body: Record<string, unknown>, key?: string) => {
    const reply = await post("/v1/estimates", { amount: 10_000, currency: "usd", ...body }, key)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body as Quote
  }
  const charge = (body: Record<string, unknown>, key?: string) =>
    post("/v1/charges", { amount: 10_000, currency: "usd", ...body }, key)

  it("every estimate is a signed quote that expires in 15 minutes; a what-if is none", async () => {
    const before = Math.floor(Date.now() / 1000)
    const q = await quote({ region: "US-NY" })
    expect(q.id).toMatch(/^est_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(q.expiresAt).toBeGreaterThanOrEqual(before + 900)
    expect(q.expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 900)
    expect(q).not.toHaveProperty("card")
    // Two quotes of the same inputs are two quotes.
    expect((await quote({ region: "US-NY" })).id).not.toBe(q.id)
    const whatIf = await quote({ region: "US-NY", date: "2025-01-01" })
    expect(whatIf).not.toHaveProperty("id")
    expect(whatIf).not.toHaveProperty("expiresAt")
  })

  it("with source, the fee for the card the processor describes, and only what it learned", async () => {
    // US-NY: 2.9 % + 0.30 lowered to the 3 % cap on a credit card; no fee on a debit card.
    const credit = await quote({ region: "US-NY", source: "tok_visa" })
    expect(credit).toMatchObject({
      convenienceFee: 300,
      card: { funding: "credit", network: "visa", country: null, category: "unknown" }
    })
    const debit = await quote({ region: "US-NY", source: "tok_visa_debit" })
    expect(debit).toMatchObject({ convenienceFee: 0, card: { funding: "debit" } })
    const prepaid = await quote({ region: "US-NY", source: "tok_mastercard_prepaid" })
    expect(prepaid.card).toEqual({
      funding: "prepaid",
      network: "mastercard",
      country: null,
      category: "unknown"
    })
    // A commercial card in GB may carry a fee (consumer cards may not: SI 2017/752 reg. 6A).
    const commercial = await quote({
      currency: "gbp",
      region: "GB",
      source: "tok_visa_commercial"
    })
    expect(commercial.card).toMatchObject({ category: "commercial" })
    expect(commercial.convenienceFee).toBeGreaterThan(0)
    const consumer = await quote({ currency: "gbp", region: "GB", source: "tok_gb" })
    expect(consumer).toMatchObject({ convenienceFee: 0, card: { country: "GB" } })
    // A publishable key may quote (a checkout page does).
    expect((await quote({ region: "US-NY", source: "tok_visa" }, PUBLISHABLE)).convenienceFee).toBe(
      300
    )
  })

  it("a cardType that contradicts the card, or an unknown source: 400, as for charges", async () => {
    const mismatch = await post("/v1/estimates", {
      amount: 10_000,
      currency: "usd",
      source: "tok_visa_debit",
      cardType: "credit"
    })
    expect(mismatch.status).toBe(400)
    expect(errorOf(mismatch)).toMatchObject({ code: "card_mismatch", param: "cardType" })
    const unknown = await post("/v1/estimates", {
      amount: 10_000,
      currency: "usd",
      source: "tok_x"
    })
    expect(unknown.status).toBe(400)
    expect(errorOf(unknown)).toMatchObject({ param: "source" })
  })

  it("a charge naming its quote collects the quoted fee and records the quote and the card", async () => {
    const q = await quote({ region: "US-NY", source: "tok_visa" })
    const reply = await charge({ region: "US-NY", source: "tok_visa", estimate: q.id })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      convenienceFee: q.convenienceFee,
      totalAmount: q.totalAmount,
      estimate: q.id,
      card: { funding: "credit", network: "visa" },
      compliance: { disclosureText: q.compliance.disclosureText }
    })
    const id = (reply.body as { id: string }).id
    const again = await call(server.url, "GET", `/v1/charges/${id}`)
    expect(again.body).toMatchObject({ estimate: q.id, card: { funding: "credit" } })
  })

  it("never more than shown: the smaller of the quoted fee and the legal fee for the card charged", async () => {
    // Quoted for a debit card (no fee), paid with a credit card: still no fee.
    const debit = await quote({ region: "US-NY", source: "tok_visa_debit" })
    const byCredit = await charge({ region: "US-NY", source: "tok_visa", estimate: debit.id })
    expect(byCredit.body).toMatchObject({ convenienceFee: 0, totalAmount: 10_000 })
    // Quoted for a credit card, paid with a debit card: the law allows none.
    const credit = await quote({ region: "US-NY", source: "tok_visa" })
    const byDebit = await charge({ region: "US-NY", source: "tok_visa_debit", estimate: credit.id })
    expect(byDebit.body).toMatchObject({ convenienceFee: 0 })
    // The fee raised after the quote: the quote holds.
    // Without a card, a US quote is the fee legal on every card: none. With one, the fee for it.
    expect((await quote({ region: "US-FL" })).convenienceFee).toBe(0)
    const shown = await quote({ region: "US-FL", source: "tok_visa" })
    expect(shown.convenienceFee).toBe(300)
    expect((await post("/v1/fee-configs", { percentage: 2, flatFee: 0 })).status).toBe(200)
    try {
      const lower = await charge({ region: "US-FL", estimate: shown.id })
      // Lowered since: the lower fee is collected.
      expect(lower.body).toMatchObject({ convenienceFee: 200 })
      const raisedQuote = await quote({ region: "US-FL", source: "tok_visa" })
      expect(raisedQuote.convenienceFee).toBe(200)
      expect((await post("/v1/fee-configs", { percentage: 2.9, flatFee: 0.3 })).status).toBe(200)
      const raised = await charge({ region: "US-FL", estimate: raisedQuote.id })
      expect(raised.body).toMatchObject({ convenienceFee: 200, estimate: raisedQuote.id })
    } finally {
      await post("/v1/fee-configs", { percentage: 2.9, flatFee: 0.3 })
    }
  })

  it("a charge that is not the one quoted is refused, naming the field", async () => {
    const q = await quote({ region: "US-NY" })
    for (const [field, body] of [
      ["amount", { amount: 10_001, region: "US-NY" }],
      ["currency", { currency: "cad", region: "US-NY" }],
      ["region", { region: "US-CA" }],
      ["region", {}]
    ] as const) {
      const reply = await charge({ ...body, estimate: q.id })
      expect(reply.status, field).toBe(400)
      expect(errorOf(reply), field).toMatchObject({ code: "estimate_mismatch", param: field })
    }
    // The currency as sent, in either case, is the same currency.
    expect((await charge({ currency: "USD", region: "US-NY", estimate: q.id })).status).toBe(200)
  })

  it("an altered, unknown, other-account, other-mode or expired quote: 400 with a code for each", async () => {
    const q = await quote({ region: "US-NY", source: "tok_visa" })
    const [payload, signature] = q.id.slice(4).split(".") as [string, string]
    const fields = JSON.parse(Buffer.from(payload, "base64url").toString()) as Array<unknown>
    fields[6] = 1_000 // a higher fee than was shown
    const altered = `est_${Buffer.from(JSON.stringify(fields)).toString("base64url")}.${signature}`
    const cases: ReadonlyArray<readonly [string, string, string | undefined]> = [
      ["estimate_altered", altered, undefined],
      ["estimate_unknown", "est_bm90LWEtcXVvdGU.c2lnbmF0dXJl", undefined],
      ["estimate_other_account", (await quote({ region: "US-NY" }, OTHER_SECRET)).id, undefined],
      ["estimate_other_mode", (await quote({ region: "US-NY" }, LIVE_SECRET)).id, undefined]
    ]
    const expired = await server.store.runPromise(
      Effect.map(Signer, (signer) =>
        QuoteToken.issue(signer, {
          accountId: "acct_1",
          livemode: false,
          amount: 10_000,
          currency: "usd",
          region: "US-NY",
          fee: 300,
          card: null,
          expiresAt: Math.floor(Date.now() / 1000) - 1
        })
      ) as Effect.Effect<string, never, Signer>
    )
    for (const [code, estimate] of [...cases, ["estimate_expired", expired, undefined] as const]) {
      const reply = await charge({ region: "US-NY", estimate })
      expect(reply.status, code).toBe(400)
      expect(errorOf(reply), code).toMatchObject({ code, param: "estimate" })
    }
    // Not an estimate id at all: the schema names the field.
    const malformed = await charge({ region: "US-NY", estimate: "est_nodot" })
    expect(errorOf(malformed)).toMatchObject({ code: "parameter_invalid", param: "estimate" })
  })

  it("a quote pays for one charge; a declined attempt leaves it usable", async () => {
    const q = await quote({ region: "US-NY", source: "tok_visa" })
    const declined = await charge({
      region: "US-NY",
      source: "tok_chargeDeclined",
      estimate: q.id
    })
    expect(declined.status).toBe(402)
    const paid = await charge({ region: "US-NY", source: "tok_mastercard", estimate: q.id })
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({ convenienceFee: 300, estimate: q.id })
    const twice = await charge({ region: "US-NY", estimate: q.id })
    expect(twice.status).toBe(400)
    expect(errorOf(twice)).toMatchObject({ code: "estimate_used", param: "estimate" })
    // Replaying the first charge's key is not a second use.
    const keyed = await quote({ region: "US-NY" })
    const headers = { "idempotency-key": `quote-${Date.now()}` }
    const first = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 10_000, currency: "usd", region: "US-NY", estimate: keyed.id },
      headers
    })
    const replay = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 10_000, currency: "usd", region: "US-NY", estimate: keyed.id },
      headers
    })
    expect(first.status).toBe(200)
    expect(replay.status).toBe(200)
    expect((replay.body as { id: string }).id).toBe((first.body as { id: string }).id)
  })

  it("concurrent charges naming one quote: exactly one is made", async () => {
    const q = await quote({ region: "US-NY" })
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => charge({ region: "US-NY", estimate: q.id }))
    )
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of replies.filter((r) => r.status !== 200)) {
      expect(errorOf(r)).toMatchObject({ code: "estimate_used" })
    }
  })
})

describe("requireEstimate", () => {
  const LIVE_SECRET_2 = "sk_prod_service_approver0004"
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    // Live charges through the simulator: what is tested is the account's rule, not a processor.
    const simulator = Simulator.make()
    server = await startWithStore(memoryStore(), {
      keys: [...KEYS, { secret: LIVE_SECRET_2, accountId: "acct_1", keyId: "key_sk_prod_2" }],
      processors: Layer.succeed(PaymentProcessors, {
        forTenant: () => Effect.succeed(Option.some(simulator)),
        forNotifications: () => Effect.succeed(Option.none())
      })
    })
  }, 60_000)
  afterAll(() => server.close())

  const live = (path: string, body: unknown) =>
    call(server.url, "POST", path, { body, key: LIVE_SECRET })

  it("refuses live charges that name no quote; test mode is not concerned", async () => {
    const set = await live("/v1/fee-configs", { requireEstimate: true })
    expect(set.body).toMatchObject({ requireEstimate: true, updated: true })
    const bare = await live("/v1/charges", { amount: 10_000, currency: "usd", region: "US-NY" })
    expect(bare.status).toBe(400)
    expect(errorOf(bare)).toMatchObject({ code: "estimate_required", param: "estimate" })
    const q = (
      await live("/v1/estimates", {
        amount: 10_000,
        currency: "usd",
        region: "US-NY",
        source: "tok_visa"
      })
    ).body as Quote
    const quoted = await live("/v1/charges", {
      amount: 10_000,
      currency: "usd",
      region: "US-NY",
      estimate: q.id
    })
    expect(quoted.status).toBe(200)
    expect(quoted.body).toMatchObject({ livemode: true, convenienceFee: 300, estimate: q.id })
    // The test-mode configuration is its own.
    const test = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 10_000, currency: "usd" }
    })
    expect(test.status).toBe(200)
  })
})

/**
 * Charges over real HTTP, on the memory store and on PostgreSQL: the specification's numbers,
 * the test-mode simulator's tokens (docs/design.md §4), live mode without a processor, the
 * idempotency of docs/design.md §7 (replays, reuse, concurrency: one charge per key), paging and
 * filters, and what is written with each charge (its event, its dispute).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ChargeRepository, EventRepository, FeeConfigRepository, Tenant } from "@levy/storage"
import { Effect } from "effect"
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
const TEST = Tenant.make("acct_1", false)

interface WireCharge {
  readonly id: string
  readonly status: string
  readonly [field: string]: unknown
}

describe.each(STORES)("charges on the %s store", (_name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    server = await startWithStore(makeStore(), {
      keys: [...KEYS, { secret: OTHER_SECRET, accountId: "acct_2", keyId: "key_other" }],
      // More requests than a test key's 100 a minute; limits have their own tests.
      edge: { test: 10_000, live: 10_000 }
    })
  }, 60_000)
  afterAll(() => server.close())

  const post = (body: unknown, init: { key?: string; idempotencyKey?: string } = {}) =>
    call(server.url, "POST", "/v1/charges", {
      body,
      ...(init.key === undefined ? {} : { key: init.key }),
      ...(init.idempotencyKey === undefined
        ? {}
        : { headers: { "idempotency-key": init.idempotencyKey } })
    })
  const stored = <A>(effect: Effect.Effect<A, unknown, ChargeRepository | EventRepository>) =>
    server.store.runPromise(effect as Effect.Effect<A, never, ChargeRepository | EventRepository>)
  const chargeCount = () =>
    stored(
      Effect.flatMap(ChargeRepository, (repo) =>
        Effect.map(repo.list(TEST, { limit: 100 }), (p) => p.data.length)
      )
    )
  const eventsOf = (chargeId: string) =>
    stored(
      Effect.flatMap(EventRepository, (repo) =>
        Effect.map(repo.list(TEST, { limit: 100 }), (p) =>
          p.data.filter(
            (e) =>
              (e.data.object as { id?: string; charge?: string })?.id === chargeId ||
              (e.data.object as { charge?: string })?.charge === chargeId
          )
        )
      )
    )
  const errorOf = (reply: Reply) => (reply.body as { error: Record<string, unknown> }).error

  it("charges the specification's example: 10000 usd → fee 320, total 10320", async () => {
    const reply = await post({
      amount: 10000,
      currency: "usd",
      customer: "cus_1",
      metadata: { order: "42" }
    })
    expect(reply.status).toBe(200)
    const charge = reply.body as WireCharge
    expect(charge).toMatchObject({
      object: "charge",
      amount: 10000,
      convenienceFee: 320,
      totalAmount: 10320,
      currency: "usd",
      status: "succeeded",
      livemode: false,
      customer: "cus_1",
      metadata: { order: "42" },
      cardType: "credit",
      feeBreakdown: { percentage: 290, flatFee: 30 },
      amountRefunded: 0,
      refunded: false,
      billingMode: "direct"
    })
    expect(charge.id).toMatch(/^ch_/)
    expect(charge.transactions).toEqual([
      { part: "amount", amount: 10320, reference: expect.stringMatching(/^sim_/) }
    ])
    const retrieved = await call(server.url, "GET", `/v1/charges/${charge.id}`)
    expect(retrieved.status).toBe(200)
    expect(retrieved.body).toEqual(charge)
    const events = await eventsOf(charge.id)
    expect(events.map((e) => e.type)).toEqual(["charge.succeeded"])
    expect(events[0]?.data.object).toEqual(charge)
  })

  it("a declined card: 402 card_declined, the failed charge and charge.failed stored", async () => {
    const before = await chargeCount()
    const reply = await post({ amount: 5000, currency: "usd", source: "tok_chargeDeclined" })
    expect(reply.status).toBe(402)
    const error = errorOf(reply)
    expect(error).toMatchObject({ type: "card_error", code: "card_declined" })
    expect(typeof error.message).toBe("string")
    expect(await chargeCount()).toBe(before + 1)
    const list = await call(server.url, "GET", "/v1/charges?limit=1")
    const failed = (list.body as { data: ReadonlyArray<WireCharge> }).data[0]
    expect(failed).toMatchObject({ status: "failed", failureCode: "card_declined", amount: 5000 })
    expect(failed?.transactions).toBeUndefined()
    expect((await eventsOf(failed?.id ?? "")).map((e) => e.type)).toEqual(["charge.failed"])
  })

  it("tok_chargeDispute succeeds, then a dispute is opened with dispute.created", async () => {
    const reply = await post({ amount: 2000, currency: "usd", source: "tok_chargeDispute" })
    expect(reply.status).toBe(200)
    const charge = reply.body as WireCharge
    const disputes = await stored(
      Effect.flatMap(ChargeRepository, (repo) => repo.listDisputes(TEST, { charge: charge.id }))
    )
    expect(disputes.data).toHaveLength(1)
    expect(disputes.data[0]).toMatchObject({ status: "needs_response", amount: charge.totalAmount })
    expect((await eventsOf(charge.id)).map((e) => e.type).sort()).toEqual([
      "charge.succeeded",
      "dispute.created"
    ])
    // Stripe's `disputed`, on the answer, the charge read back and its event alike.
    expect(charge.disputed).toBe(true)
    const retrieved = await call(server.url, "GET", `/v1/charges/${charge.id}`)
    expect(retrieved.body).toEqual(charge)
    const succeeded = (await eventsOf(charge.id)).find((e) => e.type === "charge.succeeded")
    expect(succeeded?.data.object).toEqual(charge)
    const plain = await post({ amount: 2000, currency: "usd" })
    expect((plain.body as WireCharge).disputed).toBe(false)
  })

  it("a replayed tok_chargeDispute answer is the first answer, disputed included", async () => {
    const key = `dispute-replay-${Math.random()}`
    const body = { amount: 2000, currency: "usd", source: "tok_chargeDispute" }
    const first = await post(body, { idempotencyKey: key })
    const again = await post(body, { idempotencyKey: key })
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    expect(first.body).toMatchObject({ disputed: true })
  })

  it.each([
    ["tok_chargeDisputeWon", "won"],
    ["tok_chargeDisputeLost", "lost"]
  ] as const)(
    "%s succeeds, and its dispute opens and closes %s at once",
    async (source, outcome) => {
      const reply = await post({ amount: 2000, currency: "usd", source })
      expect(reply.status).toBe(200)
      const charge = reply.body as WireCharge
      expect(charge).toMatchObject({ status: "succeeded", disputed: true, cardType: "credit" })
      const listed = await call(server.url, "GET", `/v1/disputes?charge=${charge.id}`)
      const disputes = (listed.body as { data: ReadonlyArray<Record<string, unknown>> }).data
      expect(disputes).toHaveLength(1)
      expect(disputes[0]).toMatchObject({ status: outcome, amount: charge.totalAmount })
      const events = await eventsOf(charge.id)
      const created = events.find((e) => e.type === "dispute.created")
      const closed = events.find((e) => e.type === "dispute.closed")
      // Each event carries the dispute as it was then: opened needing a response, then closed.
      expect(created?.data.object).toMatchObject({ id: disputes[0]?.id, status: "needs_response" })
      expect(closed?.data.object).toMatchObject({ id: disputes[0]?.id, status: outcome })
      expect(events.map((e) => e.type).sort()).toEqual([
        "charge.succeeded",
        "dispute.closed",
        "dispute.created"
      ])
    }
  )

  it("a charge whose dispute was won can be refunded; one lost cannot (charge_disputed)", async () => {
    const won = (await post({ amount: 2000, currency: "usd", source: "tok_chargeDisputeWon" }))
      .body as WireCharge
    const refund = await call(server.url, "POST", "/v1/refunds", { body: { charge: won.id } })
    expect(refund.status).toBe(200)
    expect(refund.body).toMatchObject({ status: "succeeded", amount: 2000 })
    const lost = (await post({ amount: 2000, currency: "usd", source: "tok_chargeDisputeLost" }))
      .body as WireCharge
    const refused = await call(server.url, "POST", "/v1/refunds", { body: { charge: lost.id } })
    expect(refused.status).toBe(400)
    expect(errorOf(refused)).toMatchObject({ code: "charge_disputed", param: "charge" })
    expect(String(errorOf(refused).message)).toMatch(/lost its dispute/)
    const after = await call(server.url, "GET", `/v1/charges/${lost.id}`)
    expect(after.body).toMatchObject({ amountRefunded: 0, refunded: false })
    const open = (await post({ amount: 2000, currency: "usd", source: "tok_chargeDispute" }))
      .body as WireCharge
    const held = await call(server.url, "POST", "/v1/refunds", { body: { charge: open.id } })
    expect(errorOf(held)).toMatchObject({ code: "charge_disputed" })
    expect(String(errorOf(held).message)).toMatch(/open dispute/)
  })

  it("the token decides the card type; a contradicting cardType or network is a 400", async () => {
    const debit = await post({
      amount: 10000,
      currency: "usd",
      source: "tok_visa_debit",
      region: "US"
    })
    expect(debit.status).toBe(200)
    // Card networks forbid surcharging debit cards in the US: the fee is lowered to zero.
    expect(debit.body).toMatchObject({ cardType: "debit", convenienceFee: 0, totalAmount: 10000 })
    // The fee collected (0) is compliant; why it was lowered is in configured.
    expect(debit.body).toMatchObject({
      compliance: { compliant: true, disclosureText: null },
      configured: { convenienceFee: 320, compliant: false, reasonCode: "card_type_not_allowed" }
    })
    const before = await chargeCount()
    const mismatch = await post({
      amount: 10000,
      currency: "usd",
      source: "tok_visa_debit",
      cardType: "credit"
    })
    expect(mismatch.status).toBe(400)
    expect(errorOf(mismatch)).toMatchObject({ type: "invalid_request_error", param: "cardType" })
    const network = await post({
      amount: 10000,
      currency: "usd",
      source: "tok_visa",
      cardNetwork: "mastercard"
    })
    expect(errorOf(network)).toMatchObject({ param: "cardNetwork" })
    const unknown = await post({ amount: 10000, currency: "usd", source: "tok_nope" })
    expect(unknown.status).toBe(400)
    expect(errorOf(unknown)).toMatchObject({ code: "source_invalid", param: "source" })
    expect(await chargeCount()).toBe(before)
  })

  it("a prohibited region: adjusted to no fee, or refused when the policy is reject", async () => {
    const adjusted = await post({ amount: 10000, currency: "usd", region: "US-CT" })
    expect(adjusted.body).toMatchObject({ convenienceFee: 0, totalAmount: 10000, region: "US-CT" })
    await call(server.url, "POST", "/v1/fee-configs", { body: { nonCompliant: "reject" } })
    const before = await chargeCount()
    const refused = await post({ amount: 10000, currency: "usd", region: "US-CT" })
    expect(refused.status).toBe(400)
    expect(errorOf(refused).type).toBe("invalid_request_error")
    expect(await chargeCount()).toBe(before)
    await call(server.url, "POST", "/v1/fee-configs", { body: { nonCompliant: "adjust" } })
  })

  it("separate billing collects the base and the fee as two transactions", async () => {
    await call(server.url, "POST", "/v1/fee-configs", { body: { billingMode: "separate" } })
    const reply = await post({ amount: 10000, currency: "usd" })
    await call(server.url, "POST", "/v1/fee-configs", { body: { billingMode: "direct" } })
    expect(reply.body).toMatchObject({
      billingMode: "separate",
      transactions: [
        { part: "amount", amount: 10000 },
        { part: "fee", amount: 320 }
      ]
    })
  })

  it("errors of the specification's table; live mode without a processor; key limits", async () => {
    const before = await chargeCount()
    const missing = await post({ currency: "usd" })
    expect(missing.status).toBe(400)
    expect(errorOf(missing)).toMatchObject({
      type: "invalid_request_error",
      code: "parameter_missing",
      param: "amount"
    })
    const small = await post({ amount: 10, currency: "usd" })
    expect(errorOf(small)).toMatchObject({ code: "amount_too_small", param: "amount" })
    expect(String(errorOf(small).message)).toContain("50")
    const live = await post({ amount: 10000, currency: "usd" }, { key: LIVE_SECRET })
    expect(live.status).toBe(400)
    expect(errorOf(live)).toMatchObject({ code: "processor_not_configured" })
    const publishable = await post({ amount: 10000, currency: "usd" }, { key: PUBLISHABLE })
    expect(publishable.status).toBe(403)
    expect(errorOf(publishable).code).toBe("permission_denied")
    expect(await chargeCount()).toBe(before)
  })

  it("another account's or mode's charge is a 404", async () => {
    const charge = (await post({ amount: 1000, currency: "usd" })).body as WireCharge
    for (const key of [OTHER_SECRET, LIVE_SECRET]) {
      const reply = await call(server.url, "GET", `/v1/charges/${charge.id}`, { key })
      expect(reply.status).toBe(404)
      expect(errorOf(reply)).toMatchObject({
        type: "invalid_request_error",
        code: "resource_missing"
      })
    }
    const other = await call(server.url, "GET", "/v1/charges", { key: OTHER_SECRET })
    expect((other.body as { data: unknown[] }).data).toEqual([])
  })

  describe("Idempotency-Key", () => {
    it("a retry replays the first response; one charge", async () => {
      const before = await chargeCount()
      const body = { amount: 4200, currency: "usd" }
      const first = await post(body, { idempotencyKey: "order-1" })
      const again = await post(body, { idempotencyKey: "order-1" })
      expect(first.status).toBe(200)
      expect(first.headers.get("idempotent-replayed")).toBeNull()
      expect(again.status).toBe(200)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.body).toEqual(first.body)
      expect(await chargeCount()).toBe(before + 1)
      // The charge's event names the request's key.
      const events = await eventsOf((first.body as WireCharge).id)
      expect(events.map((e) => e.request)).toEqual([{ idempotencyKey: "order-1" }])
    })

    it("the same key with another body is a 400; the key is per mode", async () => {
      await post({ amount: 4200, currency: "usd" }, { idempotencyKey: "order-2" })
      const reused = await post({ amount: 4300, currency: "usd" }, { idempotencyKey: "order-2" })
      expect(reused.status).toBe(400)
      expect(errorOf(reused)).toMatchObject({
        code: "idempotency_key_reused",
        param: "Idempotency-Key"
      })
      // Live mode is another namespace: the key is new there (and live has no processor).
      const live = await post(
        { amount: 4300, currency: "usd" },
        { idempotencyKey: "order-2", key: LIVE_SECRET }
      )
      expect(errorOf(live).code).toBe("processor_not_configured")
    })

    it("a declined charge is replayed as the same 402, not charged again", async () => {
      const before = await chargeCount()
      const body = { amount: 900, currency: "usd", source: "tok_chargeDeclined" }
      const first = await post(body, { idempotencyKey: "declined-1" })
      const again = await post(body, { idempotencyKey: "declined-1" })
      expect(first.status).toBe(402)
      expect(again.status).toBe(402)
      // Made again from the failed charge, byte for byte what the first request answered.
      expect(again.text).toBe(first.text)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(await chargeCount()).toBe(before + 1)
    })

    it("a request refused before writing is not stored: the retry runs again", async () => {
      const refused = await post({ amount: 10, currency: "usd" }, { idempotencyKey: "fixable" })
      expect(refused.status).toBe(400)
      const fixed = await post({ amount: 10, currency: "usd" }, { idempotencyKey: "fixable" })
      expect(fixed.status).toBe(400)
      expect(fixed.headers.get("idempotent-replayed")).toBeNull()
    })

    it("30 concurrent requests with one key make exactly one charge", async () => {
      const before = await chargeCount()
      const body = { amount: 7700, currency: "usd" }
      const replies = await Promise.all(
        Array.from({ length: 30 }, () => post(body, { idempotencyKey: "burst" }))
      )
      const statuses = replies.map((r) => r.status)
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true)
      const ids = new Set(
        replies.filter((r) => r.status === 200).map((r) => (r.body as WireCharge).id)
      )
      expect(ids.size).toBe(1)
      for (const r of replies.filter((r) => r.status === 409)) {
        expect(errorOf(r)).toMatchObject({ code: "idempotency_key_in_use" })
      }
      expect(await chargeCount()).toBe(before + 1)
    })

    it("estimates replay too; a key over 255 characters is a 400", async () => {
      const body = { amount: 10000, currency: "usd" }
      const headers = { "idempotency-key": "estimate-1" }
      await call(server.url, "POST", "/v1/estimates", { body, headers })
      const again = await call(server.url, "POST", "/v1/estimates", { body, headers })
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.body).toMatchObject({ convenienceFee: 320 })
      const long = await post(body, { idempotencyKey: "k".repeat(256) })
      expect(long.status).toBe(400)
      expect(errorOf(long).param).toBe("Idempotency-Key")
    })
  })

  describe("listing", () => {
    it("walks every charge newest first with starting_after, back with ending_before", async () => {
      const customer = `cus_walk_${_name}`
      const created: string[] = []
      for (let i = 0; i < 23; i++) {
        created.push(
          ((await post({ amount: 1000 + i, currency: "usd", customer })).body as WireCharge).id
        )
      }
      const seen: string[] = []
      let after: string | undefined
      let pages = 0
      for (;;) {
        const query = `customer=${customer}&limit=10${after === undefined ? "" : `&starting_after=${after}`}`
        const page = (await call(server.url, "GET", `/v1/charges?${query}`)).body as {
          object: string
          url: string
          data: ReadonlyArray<WireCharge>
          has_more: boolean
        }
        expect(page).toMatchObject({ object: "list", url: "/v1/charges" })
        seen.push(...page.data.map((c) => c.id))
        pages++
        if (!page.has_more) break
        after = page.data.at(-1)?.id
      }
      expect(pages).toBe(3)
      expect(seen).toEqual([...created].reverse())
      const back = (
        await call(
          server.url,
          "GET",
          `/v1/charges?customer=${customer}&limit=5&ending_before=${seen[10]}`
        )
      ).body as { data: ReadonlyArray<WireCharge>; has_more: boolean }
      expect(back.data.map((c) => c.id)).toEqual(seen.slice(5, 10))
      expect(back.has_more).toBe(true)
    })

    it("filters by creation time; bad parameters are 400s naming them", async () => {
      const future = Math.floor(Date.now() / 1000) + 3600
      const none = await call(server.url, "GET", `/v1/charges?created[gte]=${future}`)
      expect((none.body as { data: unknown[] }).data).toEqual([])
      const some = await call(server.url, "GET", `/v1/charges?created[lt]=${future}&limit=3`)
      expect((some.body as { data: unknown[] }).data).toHaveLength(3)
      for (const [query, param] of [
        ["limit=0", "limit"],
        ["limit=101", "limit"],
        ["limit=abc", "limit"],
        ["starting_after=ch_nope", "starting_after"],
        ["starting_after=a&ending_before=b", "ending_before"]
      ] as const) {
        const reply = await call(server.url, "GET", `/v1/charges?${query}`)
        expect(reply.status, query).toBe(400)
        expect(errorOf(reply).param, query).toBe(param)
      }
    })
  })
})

describe("a stored fee configuration the engine refuses", () => {
  // The account's stored data is the server's fault, not the caller's: a 500 in the error
  // shape, and nothing charged.
  it("answers 500 and charges nothing", async () => {
    const server = await startWithStore(memoryStore())
    try {
      await server.store.runPromise(
        Effect.flatMap(FeeConfigRepository, (repo) =>
          repo.initialize(TEST, { percentage: -1, flatFee: 0.3 }, 0)
        ).pipe(Effect.orDie)
      )
      const reply = await call(server.url, "POST", "/v1/charges", {
        body: { amount: 10_000, currency: "usd" },
        headers: { "idempotency-key": "refused-config" }
      })
      expect(reply.status).toBe(500)
      expect(reply.body).toMatchObject({ error: { type: "api_error" } })
      const charges = await server.store.runPromise(
        Effect.flatMap(ChargeRepository, (repo) => repo.list(TEST, { limit: 10 })).pipe(
          Effect.orDie
        )
      )
      expect(charges.data).toHaveLength(0)
    } finally {
      await server.close()
    }
  })
})

/**
 * Refunds over real HTTP (docs/design.md §3–§4), on the memory store and on PostgreSQL: the fee
 * goes back pro rata and the refund that completes the base takes what is left of it,
 * `refundFee` overrides that, refusals change nothing, every refund writes `charge.refunded`
 * with the charge in its wire form, and nothing crosses accounts or modes.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Charge } from "@levy/api"
import {
  ChargeRepository,
  EventRepository,
  Ids,
  type NewCharge,
  type Storage,
  Tenant
} from "@levy/storage"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { seedCharge, stores } from "./chargeStores.js"
import { call, KEYS, LIVE_SECRET, PUBLISHABLE, type Running, SECRET, start } from "./support.js"

const OTHER_SECRET = "sk_dev_service_otheraccount5"
const TEST = Tenant.make("acct_1", false)
const LIVE = Tenant.make("acct_1", true)

interface WireRefund {
  readonly id: string
  readonly object: string
  readonly charge: string
  readonly amount: number
  readonly convenienceFee: number
  readonly totalAmount: number
  readonly currency: string
  readonly status: string
  readonly reason: string | null
  readonly livemode: boolean
}
interface WireList {
  readonly object: string
  readonly data: ReadonlyArray<WireRefund>
  readonly has_more: boolean
  readonly url: string
}
const errorOf = (body: unknown) => (body as { error: Record<string, unknown> }).error

describe.each(stores)("refunds on the $name store", ({ layer }) => {
  let server: Running
  let store: ManagedRuntime.ManagedRuntime<Storage.Repositories | Ids, unknown>

  beforeAll(async () => {
    store = ManagedRuntime.make(layer)
    const context = await store.runtime().then((runtime) => runtime.context)
    server = await start({
      storage: Layer.succeedContext(context),
      keys: [...KEYS, { secret: OTHER_SECRET, accountId: "acct_2", keyId: "key_other_dev" }]
    })
  }, 60_000)
  afterAll(async () => {
    await server.close()
    await store.dispose()
  })

  /** A new charge of the tenant in the store; its id. */
  const seed = async (tenant = TEST, fields: Partial<NewCharge> = {}) =>
    store.runPromise(
      Effect.gen(function* () {
        const id = yield* Effect.flatMap(Ids, (ids) => ids.make("ch"))
        yield* Effect.flatMap(ChargeRepository, (charges) =>
          charges.insert(seedCharge(tenant, id, fields))
        )
        return id
      })
    )
  const stored = (id: string, tenant = TEST) =>
    store.runPromise(Effect.flatMap(ChargeRepository, (charges) => charges.get(tenant, id)))
  const refundEvents = (tenant = TEST) =>
    store.runPromise(
      Effect.flatMap(EventRepository, (events) =>
        events.list(tenant, { limit: 100, type: "charge.refunded" })
      )
    )
  const refund = (body: unknown, key = SECRET) =>
    call(server.url, "POST", "/v1/refunds", { body, key })
  const refundOk = async (body: Record<string, unknown>) => {
    const reply = await refund(body)
    expect(reply.status, reply.text).toBe(200)
    return reply.body as WireRefund
  }
  const get = (path: string, key = SECRET) => call(server.url, "GET", path, { key })

  it("a full refund gives back base and fee; a second one is refused", async () => {
    const charge = await seed()
    const body = await refundOk({ charge, reason: "requested_by_customer" })
    expect(body).toStrictEqual({
      id: body.id,
      object: "refund",
      charge,
      amount: 10_000,
      convenienceFee: 320,
      totalAmount: 10_320,
      currency: "usd",
      status: "succeeded",
      reason: "requested_by_customer",
      metadata: {},
      created: (body as unknown as { created: number }).created,
      livemode: false
    })
    expect(body.id).toMatch(/^re_/)
    expect(await stored(charge)).toMatchObject({
      amountRefunded: 10_320,
      feeRefunded: 320,
      refunded: true
    })
    const again = await refund({ charge })
    expect(again.status).toBe(400)
    expect(errorOf(again.body)).toMatchObject({
      type: "invalid_request_error",
      code: "charge_already_refunded",
      param: "charge"
    })
  })

  it("partial refunds take the fee pro rata, floored; the last takes the remainder", async () => {
    const charge = await seed()
    const parts = []
    for (const amount of [5_000, 3_333, 1_667]) {
      const r = await refundOk({ charge, amount })
      parts.push([r.amount, r.convenienceFee, r.totalAmount])
    }
    // floor(320 × 5000 / 10000) = 160; floor(320 × 3333 / 10000) = 106; 320 − 266 = 54.
    expect(parts).toEqual([
      [5_000, 160, 5_160],
      [3_333, 106, 3_439],
      [1_667, 54, 1_721]
    ])
    expect(await stored(charge)).toMatchObject({
      amountRefunded: 10_320,
      feeRefunded: 320,
      refunded: true
    })
  })

  it("refunds racing on one charge give back exactly the charge, fee included", async () => {
    const charge = await seed(TEST, { amount: 1_000, convenienceFee: 59 })
    // Seven refunds of 143 at once: only seven fit (7 × 143 = 1001 > 1000 fails the last),
    // so six succeed and the seventh may be too large, whatever the interleaving.
    const replies = await Promise.all(
      Array.from({ length: 7 }, () => refund({ charge, amount: 143 }))
    )
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 400])
    const rest = await refundOk({ charge })
    expect(rest.amount).toBe(1_000 - 6 * 143)
    const all = await get(`/v1/refunds?charge=${charge}&limit=100`)
    const data = (all.body as WireList).data
    expect(data.reduce((sum, r) => sum + r.amount, 0)).toBe(1_000)
    expect(data.reduce((sum, r) => sum + r.convenienceFee, 0)).toBe(59)
    expect(await stored(charge)).toMatchObject({
      amountRefunded: 1_059,
      feeRefunded: 59,
      refunded: true
    })
  })

  it("a partial refund left unfinished keeps the floored fee", async () => {
    const charge = await seed(TEST, { amount: 999, convenienceFee: 59 })
    const r = await refundOk({ charge, amount: 500 })
    // floor(59 × 500 / 999) = 29 (29.53 rounded down).
    expect([r.amount, r.convenienceFee]).toEqual([500, 29])
    expect(await stored(charge)).toMatchObject({
      amountRefunded: 529,
      feeRefunded: 29,
      refunded: false
    })
  })

  it("refundFee: true gives back all the fee left at once", async () => {
    const charge = await seed()
    const first = await refundOk({ charge, amount: 2_000, refundFee: true })
    expect([first.amount, first.convenienceFee]).toEqual([2_000, 320])
    const rest = await refundOk({ charge })
    expect([rest.amount, rest.convenienceFee]).toEqual([8_000, 0])
    expect(await stored(charge)).toMatchObject({ feeRefunded: 320, refunded: true })
  })

  it("refundFee: false keeps the fee", async () => {
    const charge = await seed()
    const kept = await refundOk({ charge, refundFee: false })
    expect([kept.amount, kept.convenienceFee, kept.totalAmount]).toEqual([10_000, 0, 10_000])
    expect(await stored(charge)).toMatchObject({
      amountRefunded: 10_000,
      feeRefunded: 0,
      refunded: false
    })
    // The base is all back; nothing more without the fee.
    const none = await refund({ charge, refundFee: false })
    expect(errorOf(none.body)).toMatchObject({ code: "charge_already_refunded" })
    // The fee can still be given back on its own.
    const fee = await refundOk({ charge, refundFee: true })
    expect([fee.amount, fee.convenienceFee]).toEqual([0, 320])
    expect(await stored(charge)).toMatchObject({ amountRefunded: 10_320, refunded: true })
  })

  it("more than the base left is a 400 that changes nothing", async () => {
    const charge = await seed()
    await refundOk({ charge, amount: 4_000 })
    const before = await stored(charge)
    const eventsBefore = (await refundEvents()).data.length
    const reply = await refund({ charge, amount: 6_001 })
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({
      type: "invalid_request_error",
      code: "amount_too_large",
      param: "amount"
    })
    expect(String(errorOf(reply.body).message)).toContain("6000")
    expect(await stored(charge)).toEqual(before)
    expect((await refundEvents()).data.length).toBe(eventsBefore)
    const list = await get(`/v1/refunds?charge=${charge}`)
    expect((list.body as WireList).data).toHaveLength(1)
  })

  it("a refund keeps the metadata it was created with, shown wherever the refund is", async () => {
    const charge = await seed()
    const metadata = { rma: "RMA-77", reason_detail: "damaged in transit" }
    const created = await refundOk({ charge, amount: 1_000, metadata })
    expect(created).toMatchObject({ metadata })
    expect((await get(`/v1/refunds/${created.id}`)).body).toStrictEqual(created)
    const listed = (await get(`/v1/refunds?charge=${charge}`)).body as WireList
    expect(listed.data).toStrictEqual([created])
    // The charge's metadata rules hold for a refund's: a bad one is a 400 naming metadata.
    for (const bad of [{ "": "x" }, { k: "v".repeat(501) }, { k: 1 }, "x"]) {
      const reply = await refund({ charge, metadata: bad })
      expect(reply.status, JSON.stringify(bad)).toBe(400)
      expect(String(errorOf(reply.body).param)).toMatch(/^metadata/)
    }
    expect((await stored(charge)).amountRefunded).toBe(1_000 + 32)
  })

  it("bad requests are 400s naming the field", async () => {
    const charge = await seed()
    for (const body of [
      {},
      { charge, amount: 0 },
      { charge, amount: 1.5 },
      { charge, reason: "because" },
      { charge, refundFee: "yes" },
      { charge, extra: 1 }
    ]) {
      const reply = await refund(body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(errorOf(reply.body).type).toBe("invalid_request_error")
    }
    expect((await stored(charge)).amountRefunded).toBe(0)
  })

  it("a failed or pending charge cannot be refunded", async () => {
    for (const status of ["failed", "pending"] as const) {
      const charge = await seed(TEST, { status })
      const reply = await refund({ charge })
      expect(reply.status).toBe(400)
      expect(errorOf(reply.body)).toMatchObject({ code: "charge_not_refundable", param: "charge" })
      expect((await stored(charge)).amountRefunded).toBe(0)
    }
  })

  it("unknown, other-mode and other-account charges are 404s", async () => {
    const live = await seed(LIVE)
    const test = await seed(TEST)
    for (const [charge, key] of [
      ["ch_nosuchcharge", SECRET],
      [live, SECRET],
      [test, LIVE_SECRET],
      [test, OTHER_SECRET]
    ] as const) {
      const reply = await refund({ charge }, key)
      expect(reply.status, `${charge} with ${key}`).toBe(404)
      expect(errorOf(reply.body)).toMatchObject({ code: "resource_missing", param: "charge" })
    }
    expect((await stored(live, LIVE)).amountRefunded).toBe(0)
    expect((await stored(test)).amountRefunded).toBe(0)
    // The live key finds the live charge, but a refund goes through the processor, and live
    // mode has none configured here: refused, nothing reserved.
    const live400 = await refund({ charge: live }, LIVE_SECRET)
    expect(live400.status).toBe(400)
    expect(errorOf(live400.body)).toMatchObject({ code: "processor_not_configured" })
    expect((await stored(live, LIVE)).amountRefunded).toBe(0)
  })

  it("a publishable key may not refund, retrieve or list", async () => {
    const charge = await seed()
    for (const reply of [
      await refund({ charge }, PUBLISHABLE),
      await get("/v1/refunds", PUBLISHABLE),
      await get("/v1/refunds/re_x", PUBLISHABLE)
    ]) {
      expect(reply.status).toBe(403)
      expect(errorOf(reply.body).code).toBe("permission_denied")
    }
    expect((await stored(charge)).amountRefunded).toBe(0)
  })

  it("every refund writes charge.refunded with the wire charge", async () => {
    const charge = await seed()
    const first = await refundOk({ charge, amount: 5_000 })
    await refundOk({ charge })
    const events = (await refundEvents()).data.filter(
      (e) => (e.data.object as { id?: string }).id === charge
    )
    expect(events).toHaveLength(2)
    // Newest first: the completing refund, then the partial one.
    const [last, partial] = events.map((e) =>
      Schema.decodeUnknownSync(Charge.Charge)(e.data.object)
    )
    expect(partial).toMatchObject({
      id: charge,
      object: "charge",
      amount: 10_000,
      convenienceFee: 320,
      amountRefunded: first.totalAmount,
      refunded: false,
      billingMode: "direct",
      feeStructure: { percentage: 2.9, flatFee: 0.3 },
      feeBreakdown: { percentage: 290, flatFee: 30 },
      adjustment: 0,
      customer: "cus_1",
      metadata: { order: "42" }
    })
    expect(last).toMatchObject({ amountRefunded: 10_320, refunded: true })
    expect(events.every((e) => e.livemode === false && e.type === "charge.refunded")).toBe(true)
  })

  it("retrieve answers the refund in its own account and mode only", async () => {
    const charge = await seed()
    const created = await refundOk({ charge, amount: 1_234 })
    const reply = await get(`/v1/refunds/${created.id}`)
    expect(reply.status).toBe(200)
    expect(reply.body).toStrictEqual(created)
    for (const [path, key] of [
      [`/v1/refunds/${created.id}`, LIVE_SECRET],
      [`/v1/refunds/${created.id}`, OTHER_SECRET],
      ["/v1/refunds/re_nosuchrefund", SECRET]
    ] as const) {
      const missing = await get(path, key)
      expect(missing.status).toBe(404)
      expect(errorOf(missing.body).code).toBe("resource_missing")
    }
  })

  it("list pages newest first with has_more, filtered by charge", async () => {
    const charge = await seed(TEST, { amount: 1_000, convenienceFee: 50 })
    const made: Array<string> = []
    for (let i = 0; i < 5; i++) made.push((await refundOk({ charge, amount: 100 })).id)
    const page = async (query: string) => {
      const reply = await get(`/v1/refunds?charge=${charge}&${query}`)
      expect(reply.status, reply.text).toBe(200)
      return reply.body as WireList
    }
    const all = await page("limit=100")
    expect(all.data.map((r) => r.id).sort()).toEqual([...made].sort())
    const order = all.data.map((r) => r.id)
    const first = await page("limit=2")
    expect(first).toMatchObject({ object: "list", has_more: true, url: "/v1/refunds" })
    expect(first.data.map((r) => r.id)).toEqual(order.slice(0, 2))
    const second = await page(`limit=2&starting_after=${order[1]}`)
    expect([second.data.map((r) => r.id), second.has_more]).toEqual([order.slice(2, 4), true])
    const third = await page(`limit=2&starting_after=${order[3]}`)
    expect([third.data.map((r) => r.id), third.has_more]).toEqual([order.slice(4), false])
    const back = await page(`limit=2&ending_before=${order[4]}`)
    expect([back.data.map((r) => r.id), back.has_more]).toEqual([order.slice(2, 4), true])
    expect(all.data.every((r) => r.charge === charge && r.currency === "usd")).toBe(true)
    // Another account's list does not see them.
    const other = await get(`/v1/refunds?charge=${charge}`, OTHER_SECRET)
    expect((other.body as WireList).data).toEqual([])
  })

  it("list: unknown cursors and bad limits are 400s naming the parameter", async () => {
    for (const [query, param] of [
      ["starting_after=re_nosuchrefund", "starting_after"],
      ["ending_before=re_nosuchrefund", "ending_before"],
      ["limit=0", "limit"],
      ["limit=101", "limit"]
    ] as const) {
      const reply = await get(`/v1/refunds?${query}`)
      expect(reply.status, query).toBe(400)
      expect(errorOf(reply.body).param, query).toBe(param)
    }
  })
})

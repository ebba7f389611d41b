/**
 * The operations of `LevyService` beyond writes (inprocess/LevyService.ts), on the memory store
 * with no HTTP server: every read and list the `/v1` API offers, answered by the workflows the
 * HTTP routes call, and refused as the API refuses — a list's `limit` outside 1 to 100, an
 * unknown field, both cursors at once, a cursor naming no item of the list — with the fields
 * named as the service takes them (`startingAfter`, not `starting_after`).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Cause, type Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import * as LevyService from "../src/inprocess/LevyService.js"
import { LoopbackTargets } from "../src/webhookEndpoints/LoopbackTargets.js"

// Endpoints on this machine, as `levy serve --dev` allows: nothing listens on the discard
// port, so deliveries fail and wait for their retry; the tests only read them.
const runtime = ManagedRuntime.make(
  LevyService.layer.pipe(
    Layer.provide(Layer.succeed(LoopbackTargets, true)),
    Layer.provideMerge(LevyService.store({ store: "memory" }))
  )
)
let levy: LevyService.Service

beforeAll(async () => {
  levy = await runtime.runPromise(LevyService.LevyService)
})
afterAll(() => runtime.dispose())

const run = <A, E>(effect: Effect.Effect<A, E>) => runtime.runPromise(effect)

/** The typed failure of `effect`, which must fail (a success or a defect fails the test). */
const failureOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<E> => {
  const exit = await runtime.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure, got a success")
  const failure = Cause.failureOption(exit.cause)
  if (Option.isNone(failure))
    throw new Error(`expected a typed failure: ${Cause.pretty(exit.cause)}`)
  // A failure of the layer (its configuration) fails the test as any other would.
  return failure.value as E
}

/** A new account: its test-mode tenant, its live-mode tenant and its keys. */
const account = async () => {
  const created = await run(levy.accounts.create("Shop"))
  return {
    test: LevyService.tenant(created.accountId, "test"),
    live: LevyService.tenant(created.accountId, "live"),
    keys: created.keys
  }
}

const order = (source = "tok_visa", customer = "cus_1") =>
  ({
    amount: 10_000,
    currency: "usd",
    region: "US-CA",
    cardType: "credit",
    source,
    customer
  }) as const

const HOOK = "http://127.0.0.1:9/hook"

describe("lists page as the API's do", () => {
  it("charges: newest first, `limit` pages with `hasMore`, the cursors walk both ways", async () => {
    const { test } = await account()
    const made = []
    for (let i = 0; i < 3; i++) made.push(await run(levy.charges.create(test, order())))
    const ids = made.map((c) => c.id).reverse()
    const first = await run(levy.charges.list(test, { limit: 2 }))
    expect(first.data.map((c) => c.id)).toStrictEqual(ids.slice(0, 2))
    expect(first.hasMore).toBe(true)
    const next = await run(levy.charges.list(test, { limit: 2, startingAfter: ids[1] }))
    expect(next.data.map((c) => c.id)).toStrictEqual(ids.slice(2))
    expect(next.hasMore).toBe(false)
    const back = await run(levy.charges.list(test, { limit: 2, endingBefore: ids[2] }))
    expect(back.data.map((c) => c.id)).toStrictEqual(ids.slice(0, 2))
  })

  it("charges: `customer` and `created` filter", async () => {
    const { test } = await account()
    const mine = await run(levy.charges.create(test, order("tok_visa", "cus_mine")))
    await run(levy.charges.create(test, order("tok_visa", "cus_other")))
    const byCustomer = await run(levy.charges.list(test, { customer: "cus_mine" }))
    expect(byCustomer.data.map((c) => c.id)).toStrictEqual([mine.id])
    const later = await run(levy.charges.list(test, { created: { gt: mine.created + 3600 } }))
    expect(later.data).toStrictEqual([])
  })

  it.each([0, 101, 2.5])("refuses limit %s with the API's code, field and words", async (limit) => {
    const { test } = await account()
    const error = await failureOf(levy.charges.list(test, { limit }))
    expect(error._tag).toBe("InvalidInput")
    expect(error).toMatchObject({ code: "parameter_invalid", param: "limit" })
    if (limit !== 2.5) expect(error.message).toContain("limit must be between 1 and 100")
  })

  it("refuses a field a list does not take, naming it", async () => {
    const { test } = await account()
    const error = await failureOf(
      levy.charges.list(test, { starting_after: "ch_1" } as LevyService.ChargeListRequest)
    )
    expect(error).toMatchObject({
      _tag: "InvalidInput",
      code: "parameter_unknown",
      param: "starting_after"
    })
  })

  it("a cursor naming no item of the list is CursorNotFound on that cursor", async () => {
    const { test, live } = await account()
    const charge = await run(levy.charges.create(test, order()))
    expect(await failureOf(levy.charges.list(test, { startingAfter: "ch_nope" }))).toStrictEqual(
      new LevyService.CursorNotFound({ param: "startingAfter", id: "ch_nope" })
    )
    expect(await failureOf(levy.charges.list(test, { endingBefore: "ch_nope" }))).toStrictEqual(
      new LevyService.CursorNotFound({ param: "endingBefore", id: "ch_nope" })
    )
    // A charge of the other mode is not an item of this list.
    expect(await failureOf(levy.charges.list(live, { startingAfter: charge.id }))).toMatchObject({
      _tag: "CursorNotFound",
      param: "startingAfter"
    })
  })

  it("both cursors at once are CursorsConflict", async () => {
    const { test } = await account()
    const error = await failureOf(
      levy.charges.list(test, { startingAfter: "ch_a", endingBefore: "ch_b" })
    )
    expect(error._tag).toBe("CursorsConflict")
  })

  it("every stored list checks its cursor and its limit", async () => {
    const { test } = await account()
    const endpoint = await run(
      levy.webhookEndpoints.create(test, { url: HOOK, enabledEvents: ["*"] })
    )
    const lists: ReadonlyArray<
      (request: LevyService.ListRequest) => Effect.Effect<unknown, unknown>
    > = [
      (r: LevyService.ListRequest) => levy.refunds.list(test, r),
      (r: LevyService.ListRequest) => levy.disputes.list(test, r),
      (r: LevyService.ListRequest) => levy.events.list(test, r),
      (r: LevyService.ListRequest) => levy.webhookEndpoints.list(test, r),
      (r: LevyService.ListRequest) => levy.webhookEndpoints.listDeliveries(test, endpoint.id, r),
      (r: LevyService.ListRequest) => levy.keys.list(test, r)
    ]
    for (const list of lists) {
      expect(await failureOf(list({ startingAfter: "x_nope" }))).toMatchObject({
        _tag: "CursorNotFound",
        param: "startingAfter",
        id: "x_nope"
      })
      expect(await failureOf(list({ limit: 101 }))).toMatchObject({
        _tag: "InvalidInput",
        param: "limit"
      })
    }
  })
})

describe("refunds", () => {
  it("retrieve answers the refund; list by charge, newest first", async () => {
    const { test } = await account()
    const charge = await run(levy.charges.create(test, order()))
    const other = await run(levy.charges.create(test, order()))
    const first = await run(levy.refunds.create(test, { charge: charge.id, amount: 1000 }))
    const second = await run(levy.refunds.create(test, { charge: charge.id, amount: 2000 }))
    await run(levy.refunds.create(test, { charge: other.id, amount: 500 }))
    expect(await run(levy.refunds.retrieve(test, first.id))).toStrictEqual(first)
    const listed = await run(levy.refunds.list(test, { charge: charge.id }))
    expect(listed.data.map((r) => r.id)).toStrictEqual([second.id, first.id])
    expect(listed.data[0]?.currency).toBe("usd")
  })

  it("an unknown refund is RefundNotFound, saying when it is in the other mode", async () => {
    const { test, live } = await account()
    const charge = await run(levy.charges.create(test, order()))
    const refund = await run(levy.refunds.create(test, { charge: charge.id, amount: 1000 }))
    expect(await failureOf(levy.refunds.retrieve(test, "re_nope"))).toMatchObject({
      _tag: "RefundNotFound",
      id: "re_nope",
      inOtherMode: false
    })
    expect(await failureOf(levy.refunds.retrieve(live, refund.id))).toMatchObject({
      _tag: "RefundNotFound",
      inOtherMode: true
    })
  })
})

describe("disputes", () => {
  it("a dispute the processor opened is retrieved and listed by charge and status", async () => {
    const { test } = await account()
    const charge = await run(levy.charges.create(test, order("tok_chargeDispute")))
    const listed = await run(levy.disputes.list(test, { charge: charge.id }))
    expect(listed.data).toHaveLength(1)
    const dispute = listed.data[0]
    if (dispute === undefined) throw new Error("no dispute")
    expect(dispute).toMatchObject({ charge: charge.id, currency: "usd" })
    expect(await run(levy.disputes.retrieve(test, dispute.id))).toStrictEqual(dispute)
    const byStatus = await run(levy.disputes.list(test, { status: dispute.status }))
    expect(byStatus.data.map((d) => d.id)).toStrictEqual([dispute.id])
    const other = dispute.status === "won" ? "lost" : "won"
    expect((await run(levy.disputes.list(test, { status: other }))).data).toStrictEqual([])
  })

  it("an unknown dispute is DisputeNotFound; an unknown status is InvalidInput", async () => {
    const { test } = await account()
    expect(await failureOf(levy.disputes.retrieve(test, "dp_nope"))).toMatchObject({
      _tag: "DisputeNotFound",
      id: "dp_nope"
    })
    const error = await failureOf(
      levy.disputes.list(test, { status: "open" } as unknown as LevyService.DisputeListRequest)
    )
    expect(error).toMatchObject({ _tag: "InvalidInput", param: "status" })
  })
})

describe("events", () => {
  it("a charge's event is listed by type and retrieved", async () => {
    const { test } = await account()
    const charge = await run(levy.charges.create(test, order()))
    const listed = await run(levy.events.list(test, { type: "charge.succeeded" }))
    expect(listed.data).toHaveLength(1)
    const event = listed.data[0]
    if (event === undefined) throw new Error("no event")
    expect(event.data.object).toMatchObject({ id: charge.id })
    expect(await run(levy.events.retrieve(test, event.id))).toStrictEqual(event)
    expect((await run(levy.events.list(test, { type: "charge.failed" }))).data).toStrictEqual([])
  })

  it("an unknown event is EventNotFound; an unknown type is InvalidInput", async () => {
    const { test } = await account()
    expect(await failureOf(levy.events.retrieve(test, "evt_nope"))).toMatchObject({
      _tag: "EventNotFound",
      id: "evt_nope",
      inOtherMode: false
    })
    const error = await failureOf(
      levy.events.list(test, { type: "charge.made" } as unknown as LevyService.EventListRequest)
    )
    expect(error).toMatchObject({ _tag: "InvalidInput", param: "type" })
  })

  it("resend queues a delivery to the subscribed endpoint; another is EndpointNotSubscribed", async () => {
    const { test } = await account()
    await run(levy.charges.create(test, order()))
    const endpoint = await run(
      levy.webhookEndpoints.create(test, { url: HOOK, enabledEvents: ["charge.succeeded"] })
    )
    const event = (await run(levy.events.list(test, { type: "charge.succeeded" }))).data[0]
    if (event === undefined) throw new Error("no event")
    expect(await run(levy.events.resend(test, event.id, { endpoint: endpoint.id }))).toStrictEqual(
      event
    )
    const after = await run(levy.webhookEndpoints.listDeliveries(test, endpoint.id))
    expect(after.data.length).toBeGreaterThan(0)
    expect(after.data[0]).toMatchObject({ event: event.id, eventType: "charge.succeeded" })
    expect(
      await failureOf(levy.events.resend(test, event.id, { endpoint: "we_nope" }))
    ).toMatchObject({ _tag: "EndpointNotSubscribed", endpoint: "we_nope" })
    expect(await failureOf(levy.events.resend(test, "evt_nope"))).toMatchObject({
      _tag: "EventNotFound"
    })
  })

  it("resend under a key answers the first result; another endpoint under it is refused", async () => {
    const { test } = await account()
    await run(levy.charges.create(test, order()))
    const endpoint = await run(
      levy.webhookEndpoints.create(test, { url: HOOK, enabledEvents: ["*"] })
    )
    const event = (await run(levy.events.list(test, { type: "charge.succeeded" }))).data[0]
    if (event === undefined) throw new Error("no event")
    const options = { idempotencyKey: "resend-1" }
    const first = await run(levy.events.resend(test, event.id, { endpoint: endpoint.id }, options))
    const again = await run(levy.events.resend(test, event.id, { endpoint: endpoint.id }, options))
    expect(again).toStrictEqual(first)
    expect(await failureOf(levy.events.resend(test, event.id, {}, options))).toMatchObject({
      _tag: "IdempotencyKeyReused"
    })
  })
})

describe("webhook deliveries", () => {
  it("an endpoint of nobody is WebhookEndpointNotFound", async () => {
    const { test } = await account()
    expect(await failureOf(levy.webhookEndpoints.listDeliveries(test, "we_nope"))).toMatchObject({
      _tag: "WebhookEndpointNotFound",
      id: "we_nope"
    })
  })
})

describe("keys", () => {
  it("lists the keys of the tenant's mode, newest first, never the keys themselves", async () => {
    const { test, live, keys } = await account()
    const listed = await run(levy.keys.list(test))
    expect(listed.data.map((k) => k.livemode)).toStrictEqual([false, false])
    expect(listed.data.map((k) => k.last4).sort()).toStrictEqual(
      [keys.secretDev, keys.publishableDev].map((k) => k.slice(-4)).sort()
    )
    expect(JSON.stringify(listed)).not.toContain(keys.secretDev)
    expect((await run(levy.keys.list(live))).data.every((k) => k.livemode)).toBe(true)
  })

  it("revokes a key; itself, an unknown key and one of the other mode are refused", async () => {
    const { test, live } = await account()
    const [first, second] = (await run(levy.keys.list(test))).data
    if (first === undefined || second === undefined) throw new Error("no keys")
    const liveKey = (await run(levy.keys.list(live))).data[0]
    if (liveKey === undefined) throw new Error("no live key")
    expect(await failureOf(levy.keys.revoke(test, first.id, { acting: first.id }))).toMatchObject({
      _tag: "KeyRevokesItself"
    })
    expect(await failureOf(levy.keys.revoke(test, "key_nope"))).toMatchObject({
      _tag: "ApiKeyNotFound",
      id: "key_nope"
    })
    expect(await failureOf(levy.keys.revoke(test, liveKey.id))).toMatchObject({
      _tag: "ApiKeyNotFound"
    })
    const revoked = await run(levy.keys.revoke(test, second.id, { acting: first.id }))
    expect(revoked).toMatchObject({ id: second.id, revoked: true })
  })
})

describe("regions and rulesets", () => {
  it("lists a country's places by code, paged by code both ways", async () => {
    const all = await run(levy.regions.list({ country: "us", limit: 100 }))
    const codes = all.data.map((r) => r.regionCode)
    expect(codes.length).toBeGreaterThan(3)
    expect(codes).toStrictEqual([...codes].sort())
    expect(all.data.every((r) => r.country === "US")).toBe(true)
    const page = await run(levy.regions.list({ country: "US", limit: 2, startingAfter: codes[0] }))
    expect(page.data.map((r) => r.regionCode)).toStrictEqual(codes.slice(1, 3))
    expect(page.hasMore).toBe(true)
    const back = await run(levy.regions.list({ country: "US", limit: 1, endingBefore: codes[2] }))
    expect(back.data.map((r) => r.regionCode)).toStrictEqual([codes[1]])
  })

  it("refuses a list with both cursors, a bad country or limit", async () => {
    expect(
      (await failureOf(levy.regions.list({ startingAfter: "US", endingBefore: "US-CA" })))._tag
    ).toBe("CursorsConflict")
    expect(await failureOf(levy.regions.list({ country: "USA" }))).toMatchObject({
      _tag: "InvalidInput",
      param: "country"
    })
    expect(await failureOf(levy.regions.list({ limit: 0 }))).toMatchObject({
      _tag: "InvalidInput",
      param: "limit"
    })
  })

  it("retrieves a region's rules; an unknown one is RegionNotFound, a bad date InvalidInput", async () => {
    const region = await run(levy.regions.retrieve("US-CA"))
    expect(region).toMatchObject({ object: "region", regionCode: "US-CA", country: "US" })
    expect(await failureOf(levy.regions.retrieve("ZZ-ZZ"))).toMatchObject({
      _tag: "RegionNotFound",
      code: "ZZ-ZZ"
    })
    expect(await failureOf(levy.regions.retrieve("US-CA", { date: "yesterday" }))).toMatchObject({
      _tag: "InvalidInput",
      param: "date"
    })
  })

  it("checks a fee's compliance; an unknown place is refused as a charge refuses it", async () => {
    const { test } = await account()
    const check = { region: "US-CA", percentage: 3, flatFee: 0, cardType: "credit" } as const
    const verdict = await run(levy.regions.checkCompliance(test, check))
    expect(verdict).toMatchObject({ region: "US-CA" })
    expect(typeof verdict.compliant).toBe("boolean")
    expect(
      await failureOf(levy.regions.checkCompliance(test, { ...check, region: "ZZ-ZZ" }))
    ).toMatchObject({ _tag: "FeeNotCompliant", reasonCode: "unknown_region" })
    expect(
      await failureOf(
        levy.regions.checkCompliance(test, {
          ...check,
          cardType: "gold"
        } as unknown as typeof check)
      )
    ).toMatchObject({ _tag: "InvalidInput", param: "cardType" })
  })

  it("lists the ruleset's versions oldest first and retrieves one; an unknown is RulesetNotFound", async () => {
    const versions = await run(levy.rulesets.list())
    expect(versions.length).toBeGreaterThan(0)
    const last = versions.at(-1)
    if (last === undefined) throw new Error("no version")
    expect(await run(levy.rulesets.retrieve(last.version))).toStrictEqual(last)
    expect(await failureOf(levy.rulesets.retrieve("0.0.0-nope"))).toMatchObject({
      _tag: "RulesetNotFound",
      version: "0.0.0-nope"
    })
  })
})

/**
 * The crash-safe money path (docs/design.md §4, docs/processors.md "How recovery works") over
 * real HTTP, on the memory store and on PostgreSQL, with a scripted processor: an answer lost
 * after the processor took the money is a 503 that leaves the charge pending; the retry with
 * the same Idempotency-Key resumes it (one payment, one charge, one event); the recovery
 * sweeper settles what nobody retried (by lookup, or by repeating the call under the same key)
 * and stores the response the retry then replays; refunds the same, found by `lookupRefund`
 * rather than refunded again; past the processor's key window with no lookup, a pending record
 * is held for manual review instead of repeated; two sweepers at once settle each record once;
 * an open dispute blocks refunds; a separate charge whose fee fails unwinds.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as ChargePhases from "@levy/engine/charges/ChargePhases.js"
import * as Recovery from "@levy/engine/recovery/Recovery.js"
import {
  ChargeRepository,
  EventRepository,
  type Ids,
  type Storage,
  type StoredCharge,
  type StoredRefund,
  Tenant
} from "@levy/storage"
import { Duration, Effect, Logger } from "effect"
import * as Scripted from "./ScriptedProcessor.js"
import { call, type Reply, STORES, startWithStore } from "./support.js"

const TEST = Tenant.make("acct_1", false)
/** The sweeper's clock: past every lease a request set. */
const later = () => Date.now() + ChargePhases.LEASE_MS + 1_000

interface Wire {
  readonly id: string
  readonly status: string
  readonly [field: string]: unknown
}
const errorOf = (reply: Reply) => (reply.body as { error: Record<string, unknown> }).error

describe.each(STORES)("recovery on the %s store", (_name, makeStore) => {
  const scripted = Scripted.make()
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    server = await startWithStore(makeStore(), { processors: scripted.layer })
  }, 60_000)
  afterAll(() => server.close())

  const reset = () =>
    Object.assign(scripted.script, {
      loseAnswers: 0,
      down: false,
      lookupFinds: true,
      idempotency: scripted.simulator.idempotency,
      declineFee: false,
      refuseRefunds: false
    })
  /** Makes the processor one that cannot be asked (Adyen) and whose keys already expired. */
  const expireKeysWithoutLookup = () => {
    scripted.script.idempotency = {
      keyWindow: Duration.zero,
      lookupCharges: false,
      lookupRefunds: false
    }
  }
  const post = (path: string, body: unknown, key?: string) =>
    call(server.url, "POST", path, {
      body,
      ...(key === undefined ? {} : { headers: { "idempotency-key": key } })
    })
  const inStore = <A>(effect: Effect.Effect<A, unknown, Storage.Repositories | Ids>) =>
    server.store.runPromise(effect as Effect.Effect<A, never, Storage.Repositories | Ids>)
  const byKey = (key: string) =>
    inStore(
      Effect.flatMap(ChargeRepository, (charges) => charges.findByIdempotencyKey(TEST, key))
    ).then((found) => (found._tag === "Some" ? found.value : undefined))
  const chargesWithKey = (key: string) =>
    inStore(Effect.flatMap(ChargeRepository, (charges) => charges.list(TEST, { limit: 100 }))).then(
      (page) => page.data.filter((c) => (c as StoredCharge).idempotencyKey === key)
    )
  const eventsOf = (id: string) =>
    inStore(Effect.flatMap(EventRepository, (events) => events.list(TEST, { limit: 100 }))).then(
      (page) =>
        page.data
          .filter((e) => {
            const object = e.data.object as { id?: string; charge?: string }
            return object.id === id || object.charge === id
          })
          .map((e) => e.type)
          .sort()
    )
  const sweep = (now = later()) =>
    inStore(Recovery.sweepOnce({ now }).pipe(Effect.provide(scripted.layer)))
  const refundByKey = (key: string) =>
    inStore(
      Effect.flatMap(ChargeRepository, (charges) => charges.findRefundByIdempotencyKey(TEST, key))
    ).then((found) => (found._tag === "Some" ? found.value : undefined))
  /** How often the processor was asked to make the refund under `record`'s key. */
  const refundCalls = (record: StoredRefund | undefined) =>
    scripted.refundKeys.filter((k) => k === record?.processorKey).length
  /** A sweep, with the lines it logged at error level. */
  const sweepLogged = async (now = later()) => {
    const errors: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel.label === "ERROR") errors.push(JSON.stringify(message))
    })
    const swept = await inStore(
      Recovery.sweepOnce({ now }).pipe(
        Effect.provide(scripted.layer),
        Effect.provide(Logger.replace(Logger.defaultLogger, logger))
      )
    )
    return { swept, errors }
  }

  it("an answer lost after the processor charged: 503, pending; the retry resumes it, one payment", async () => {
    reset()
    const before = scripted.simulator.payments()
    scripted.script.loseAnswers = 1
    const body = { amount: 5000, currency: "usd" }
    const lost = await post("/v1/charges", body, "lost-1")
    expect(lost.status).toBe(503)
    expect(errorOf(lost)).toMatchObject({ type: "api_error" })
    expect(String(errorOf(lost).message)).toMatch(/same Idempotency-Key/)
    const pending = await byKey("lost-1")
    expect(pending?.status).toBe("pending")
    expect(scripted.simulator.payments()).toBe(before + 1)

    const retried = await post("/v1/charges", body, "lost-1")
    expect(retried.status).toBe(200)
    expect(retried.body).toMatchObject({ id: pending?.id, status: "succeeded", totalAmount: 5175 })
    const replayed = await post("/v1/charges", body, "lost-1")
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    expect(replayed.body).toEqual(retried.body)
    expect(scripted.simulator.payments()).toBe(before + 1)
    expect(new Set(scripted.chargeKeys.filter((k) => k.includes(pending?.id ?? "?")))).toEqual(
      new Set([pending?.processorKey])
    )
    expect(await chargesWithKey("lost-1")).toHaveLength(1)
    expect(await eventsOf(pending?.id ?? "")).toEqual(["charge.succeeded"])
  })

  it("a retry with another body under the key of a pending charge is refused", async () => {
    reset()
    scripted.script.loseAnswers = 1
    await post("/v1/charges", { amount: 5000, currency: "usd" }, "lost-2")
    const other = await post("/v1/charges", { amount: 6000, currency: "usd" }, "lost-2")
    expect(other.status).toBe(400)
    expect(errorOf(other)).toMatchObject({ code: "idempotency_key_reused" })
    expect((await byKey("lost-2"))?.status).toBe("pending")
  })

  it("the sweeper settles a pending charge the processor has (lookup) and the retry replays it", async () => {
    reset()
    scripted.script.loseAnswers = 1
    const body = { amount: 7000, currency: "usd" }
    expect((await post("/v1/charges", body, "swept-1")).status).toBe(503)
    const pending = await byKey("swept-1")
    // Not before its lease expires: a live request may still hold it.
    await sweep(Date.now())
    expect((await byKey("swept-1"))?.status).toBe("pending")
    const keysBefore = scripted.chargeKeys.length
    await sweep()
    const settled = await byKey("swept-1")
    expect(settled?.status).toBe("succeeded")
    // Found by lookup: no second call to charge.
    expect(scripted.chargeKeys.length).toBe(keysBefore)
    const retry = await post("/v1/charges", body, "swept-1")
    expect(retry.status).toBe(200)
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
    expect((retry.body as Wire).id).toBe(pending?.id)
    expect(await eventsOf(pending?.id ?? "")).toEqual(["charge.succeeded"])
  })

  it("the sweeper repeats the call under the same key when lookup finds nothing", async () => {
    reset()
    scripted.script.down = true
    const body = { amount: 8000, currency: "usd" }
    expect((await post("/v1/charges", body, "swept-2")).status).toBe(503)
    const pending = await byKey("swept-2")
    expect(pending?.status).toBe("pending")
    const before = scripted.simulator.payments()
    // Still down: left for the next round.
    await sweep()
    expect((await byKey("swept-2"))?.status).toBe("pending")
    scripted.script.down = false
    scripted.script.lookupFinds = false
    await sweep(later() + ChargePhases.LEASE_MS)
    expect((await byKey("swept-2"))?.status).toBe("succeeded")
    expect(scripted.simulator.payments()).toBe(before + 1)
    expect(scripted.chargeKeys.filter((k) => k === pending?.processorKey).length).toBe(2)
    const retry = await post("/v1/charges", body, "swept-2")
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
    expect((retry.body as Wire).status).toBe("succeeded")
  })

  it("two sweepers at once settle each pending charge once", async () => {
    reset()
    const keys = Array.from({ length: 6 }, (_, i) => `twice-${i}`)
    for (const key of keys) {
      scripted.script.loseAnswers = 1
      expect((await post("/v1/charges", { amount: 3000, currency: "usd" }, key)).status).toBe(503)
    }
    const now = later()
    const [a, b] = await Promise.all([sweep(now), sweep(now)])
    expect((a?.charges ?? 0) + (b?.charges ?? 0)).toBeGreaterThanOrEqual(keys.length)
    for (const key of keys) {
      const charge = await byKey(key)
      expect(charge?.status).toBe("succeeded")
      expect(await eventsOf(charge?.id ?? "")).toEqual(["charge.succeeded"])
    }
  })

  it("a refund whose answer was lost: 503, pending and reserved; the retry resumes it", async () => {
    reset()
    const charge = (await post("/v1/charges", { amount: 10000, currency: "usd" })).body as Wire
    const before = scripted.simulator.refunds()
    scripted.script.loseAnswers = 1
    const lost = await post("/v1/refunds", { charge: charge.id, amount: 4000 }, "refund-1")
    expect(lost.status).toBe(503)
    const reserved = await call(server.url, "GET", `/v1/charges/${charge.id}`)
    expect((reserved.body as Wire).amountRefunded).toBe(4128)
    const retried = await post("/v1/refunds", { charge: charge.id, amount: 4000 }, "refund-1")
    expect(retried.status).toBe(200)
    expect(retried.body).toMatchObject({ status: "succeeded", amount: 4000, convenienceFee: 128 })
    expect(scripted.simulator.refunds()).toBe(before + 1)
    // The retry found the refund by its key and did not ask for it again.
    const refund = await refundByKey("refund-1")
    expect(scripted.refundLookups).toContain(refund?.processorKey)
    expect(refundCalls(refund)).toBe(1)
    expect((await eventsOf(charge.id)).filter((t) => t === "charge.refunded")).toHaveLength(1)
    // The sweeper finds nothing left to do for it.
    await sweep()
    expect(scripted.simulator.refunds()).toBe(before + 1)
  })

  it("the sweeper settles a pending refund and the retry replays it", async () => {
    reset()
    const charge = (await post("/v1/charges", { amount: 10000, currency: "usd" })).body as Wire
    scripted.script.loseAnswers = 1
    expect((await post("/v1/refunds", { charge: charge.id }, "refund-2")).status).toBe(503)
    const pending = await refundByKey("refund-2")
    expect(pending?.status).toBe("pending")
    await sweep()
    // Settled from lookupRefund: one refund at the processor, no repeated call.
    expect((await refundByKey("refund-2"))?.status).toBe("succeeded")
    expect(scripted.refundLookups).toContain(pending?.processorKey)
    expect(refundCalls(pending)).toBe(1)
    const retry = await post("/v1/refunds", { charge: charge.id }, "refund-2")
    expect(retry.status).toBe(200)
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
    expect(retry.body).toMatchObject({ status: "succeeded", totalAmount: 10320 })
    const after = await call(server.url, "GET", `/v1/charges/${charge.id}`)
    expect(after.body).toMatchObject({ amountRefunded: 10320, refunded: true })
  })

  it("past the key window with no lookup, a pending refund is held for review: not repeated, logged, not retried", async () => {
    reset()
    const charge = (await post("/v1/charges", { amount: 10000, currency: "usd" })).body as Wire
    scripted.script.loseAnswers = 1
    expect((await post("/v1/refunds", { charge: charge.id }, "refund-old")).status).toBe(503)
    const pending = await refundByKey("refund-old")
    expireKeysWithoutLookup()
    const { swept, errors } = await sweepLogged()
    expect(swept.refunds).toBe(0)
    const held = await refundByKey("refund-old")
    expect(held?.status).toBe("pending")
    expect(held !== undefined && Recovery.isHeldForReview(held)).toBe(true)
    expect(refundCalls(pending)).toBe(1)
    const line = errors.find((e) => e.includes("needs manual review"))
    expect(line).toBeDefined()
    for (const what of [TEST.accountId, pending?.id, pending?.processorKey, "dashboard"]) {
      expect(line).toContain(what)
    }
    // Never taken again, however late.
    const next = await sweepLogged(later() + 7 * 24 * 60 * 60 * 1000)
    expect(next.errors.filter((e) => e.includes(pending?.id ?? "?"))).toEqual([])
    expect(refundCalls(pending)).toBe(1)
    // A client's retry is refused the same way: a 503, no call; still pending and reserved.
    const retry = await post("/v1/refunds", { charge: charge.id }, "refund-old")
    expect(retry.status).toBe(503)
    expect(refundCalls(pending)).toBe(1)
    expect((await refundByKey("refund-old"))?.status).toBe("pending")
    const after = await call(server.url, "GET", `/v1/charges/${charge.id}`)
    expect((after.body as Wire).amountRefunded).toBe(10320)
  })

  it("past the key window with no lookup, a pending charge is held for review too", async () => {
    reset()
    scripted.script.loseAnswers = 1
    expect(
      (await post("/v1/charges", { amount: 6000, currency: "usd" }, "old-charge")).status
    ).toBe(503)
    const pending = await byKey("old-charge")
    expireKeysWithoutLookup()
    const { errors } = await sweepLogged()
    const held = await byKey("old-charge")
    expect(held?.status).toBe("pending")
    expect(held !== undefined && Recovery.isHeldForReview(held)).toBe(true)
    expect(scripted.chargeKeys.filter((k) => k === pending?.processorKey)).toHaveLength(1)
    expect(
      errors.some((e) => e.includes("needs manual review") && e.includes(pending?.id ?? "?"))
    ).toBe(true)
    expect(await eventsOf(pending?.id ?? "")).toEqual([])
  })

  it("past the key window with a lookup, a pending refund is settled from the processor's answer", async () => {
    reset()
    const charge = (await post("/v1/charges", { amount: 10000, currency: "usd" })).body as Wire
    scripted.script.loseAnswers = 1
    expect((await post("/v1/refunds", { charge: charge.id }, "refund-old-2")).status).toBe(503)
    const pending = await refundByKey("refund-old-2")
    scripted.script.idempotency = { ...scripted.simulator.idempotency, keyWindow: Duration.zero }
    const { errors } = await sweepLogged()
    const settled = await refundByKey("refund-old-2")
    expect(settled?.status).toBe("succeeded")
    expect(settled !== undefined && Recovery.isHeldForReview(settled)).toBe(false)
    expect(refundCalls(pending)).toBe(1)
    expect(errors).toEqual([])
    expect((await eventsOf(charge.id)).filter((t) => t === "charge.refunded")).toHaveLength(1)
  })

  it("a refund the processor refuses fails and releases the reservation", async () => {
    reset()
    const charge = (await post("/v1/charges", { amount: 10000, currency: "usd" })).body as Wire
    scripted.script.refuseRefunds = true
    const refused = await post("/v1/refunds", { charge: charge.id }, "refund-3")
    expect(refused.status).toBe(400)
    expect(errorOf(refused)).toMatchObject({ code: "refund_failed", param: "charge" })
    expect(String(errorOf(refused).message)).toMatch(/too old/)
    // The failure is stored with the refund: replayed from it, byte for byte, never tried again.
    const again = await post("/v1/refunds", { charge: charge.id }, "refund-3")
    expect([again.status, again.text]).toEqual([400, refused.text])
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    const after = await call(server.url, "GET", `/v1/charges/${charge.id}`)
    expect(after.body).toMatchObject({ amountRefunded: 0, refunded: false })
    const listed = await call(server.url, "GET", `/v1/refunds?charge=${charge.id}`)
    expect((listed.body as { data: ReadonlyArray<Wire> }).data.map((r) => r.status)).toEqual([
      "failed"
    ])
    reset()
    expect((await post("/v1/refunds", { charge: charge.id })).status).toBe(200)
  })

  it("a charge with an open dispute cannot be refunded: 400 charge_disputed", async () => {
    reset()
    const charge = (
      await post("/v1/charges", { amount: 2000, currency: "usd", source: "tok_chargeDispute" })
    ).body as Wire
    const before = scripted.refundKeys.length
    const refused = await post("/v1/refunds", { charge: charge.id })
    expect(refused.status).toBe(400)
    expect(errorOf(refused)).toMatchObject({ code: "charge_disputed", param: "charge" })
    expect(scripted.refundKeys.length).toBe(before)
  })

  it("separate billing: a declined fee part refunds the base under <key>:unwind and fails the charge", async () => {
    reset()
    await call(server.url, "POST", "/v1/fee-configs", { body: { billingMode: "separate" } })
    scripted.script.declineFee = true
    const reply = await post("/v1/charges", { amount: 10000, currency: "usd" }, "separate-1")
    await call(server.url, "POST", "/v1/fee-configs", { body: { billingMode: "direct" } })
    expect(reply.status).toBe(402)
    expect(errorOf(reply)).toMatchObject({
      code: "card_declined",
      declineCode: "insufficient_funds"
    })
    const charge = await byKey("separate-1")
    expect(charge).toMatchObject({ status: "failed", failureCode: "card_declined" })
    expect(charge?.details).toMatchObject({ unwind: { status: "refunded" } })
    expect(scripted.chargeKeys).toContain(`${charge?.processorKey}:fee`)
    expect(scripted.refundKeys).toContain(`${charge?.processorKey}:unwind`)
    expect(await eventsOf(charge?.id ?? "")).toEqual(["charge.failed"])
  })
})

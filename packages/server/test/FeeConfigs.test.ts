/**
 * The fee configuration over real HTTP (docs/design.md §6): the default, test-mode updates that
 * apply at once and change the next estimate, live-mode raises held for another secret key,
 * validation naming the field, and accounts kept apart.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { EventRepository, Tenant } from "@levy/storage"
import { Effect } from "effect"
import { call, KEYS, LIVE_SECRET, PUBLISHABLE, SECRET, STORES, startWithStore } from "./support.js"

/** A second live secret key of acct_1 (the approver), and keys of another account. */
const LIVE_SECRET_2 = "sk_prod_service_approver0004"
const OTHER_SECRET = "sk_dev_service_otheraccount5"
const OTHER_LIVE = "sk_prod_service_otheraccount6"

describe.each(STORES)("on the %s store", (_name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>

  /** The `fee_config.updated` events of a tenant, newest first (read from the server's store). */
  const feeEvents = (accountId: string, livemode: boolean) =>
    server.store.runPromise(
      Effect.flatMap(EventRepository, (events) =>
        events.list(Tenant.make(accountId, livemode), { limit: 100, type: "fee_config.updated" })
      )
    )

  beforeAll(async () => {
    server = await startWithStore(makeStore(), {
      keys: [
        ...KEYS,
        { secret: LIVE_SECRET_2, accountId: "acct_1", keyId: "key_sk_prod_2" },
        { secret: OTHER_SECRET, accountId: "acct_2", keyId: "key_other_dev" },
        { secret: OTHER_LIVE, accountId: "acct_2", keyId: "key_other_prod" }
      ]
    })
  }, 60_000)
  afterAll(() => server.close())

  interface FeeConfigBody {
    readonly object: string
    readonly livemode: boolean
    readonly percentage: number
    readonly flatFee: number
    readonly minFee: number | null
    readonly maxFee: number | null
    readonly regionCodes: ReadonlyArray<string>
    readonly regions: Record<string, { maxPercentage: number; requiresDisclosure: boolean }>
    readonly updated?: boolean
    readonly pendingChange?: { id: string; changes: Record<string, unknown>; requestedAt: number }
  }

  const get = (key: string) => call(server.url, "GET", "/v1/fee-configs", { key })
  const update = (body: unknown, key: string) =>
    call(server.url, "POST", "/v1/fee-configs", { body, key })
  const approve = (key: string, id: string | undefined) =>
    call(server.url, "POST", "/v1/fee-configs/pending/approve", { key, body: { id } })
  /** The id of the live change pending now. */
  const pendingId = async () =>
    ((await get(LIVE_SECRET)).body as FeeConfigBody).pendingChange?.id ?? "fcc_none"
  const cancel = (key: string) =>
    call(server.url, "POST", "/v1/fee-configs/pending/cancel", { key })
  const fee = async (key: string) => {
    const reply = await call(server.url, "POST", "/v1/estimates", {
      body: { amount: 10000, currency: "usd" },
      key
    })
    expect(reply.status).toBe(200)
    return (reply.body as { convenienceFee: number }).convenienceFee
  }
  const errorOf = (body: unknown) => (body as { error: Record<string, unknown> }).error

  describe("fee configs, test mode", () => {
    it("GET answers the specification's default for a new account", async () => {
      const reply = await get(OTHER_SECRET)
      expect(reply.status).toBe(200)
      expect(reply.body).toStrictEqual({
        object: "fee_config",
        livemode: false,
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
        defaultRegion: null,
        nonCompliant: "adjust",
        allowUncertain: false,
        requireRegion: false,
        requireEstimate: false,
        currencyFees: {},
        regionCodes: [],
        regions: {}
      })
    })

    it("POST applies at once (updated: true) and changes the next estimate", async () => {
      expect(await fee(SECRET)).toBe(320)
      const reply = await update({ percentage: 2, flatFee: 0.25, regionCodes: ["US-CO"] }, SECRET)
      expect(reply.status).toBe(200)
      const body = reply.body as FeeConfigBody
      expect(body).toMatchObject({ percentage: 2, flatFee: 0.25, updated: true, livemode: false })
      expect(body.pendingChange).toBeUndefined()
      expect(body.regions["US-CO"]).toMatchObject({ maxPercentage: 2 })
      expect(typeof body.regions["US-CO"]?.requiresDisclosure).toBe("boolean")
      expect(await fee(SECRET)).toBe(225)
      // The publishable key of the same account and mode sees the same configuration.
      expect(await fee(PUBLISHABLE)).toBe(225)
      expect((await get(SECRET)).body).toMatchObject({ percentage: 2, flatFee: 0.25 })
      expect((await get(SECRET)).body).not.toHaveProperty("updated")
      // The change wrote its event, with the configuration as applied.
      const events = await feeEvents("acct_1", false)
      expect(events.data).toHaveLength(1)
      expect(events.data[0]?.id).toMatch(/^evt_/)
      expect(events.data[0]?.data).toMatchObject({
        object: { object: "fee_config", percentage: 2, flatFee: 0.25 }
      })
    })

    it("a raise in test mode also applies at once", async () => {
      const reply = await update({ percentage: 2.5 }, SECRET)
      expect(reply.body).toMatchObject({ percentage: 2.5, updated: true })
      expect(await fee(SECRET)).toBe(275)
    })

    it("another account's configuration is never visible", async () => {
      expect((await get(OTHER_SECRET)).body).toMatchObject({ percentage: 2.9, flatFee: 0.3 })
      expect(await fee(OTHER_SECRET)).toBe(320)
      // Nor is the same account's test configuration in live mode.
      expect((await get(LIVE_SECRET)).body).toMatchObject({ livemode: true, percentage: 2.9 })
    })

    it("an unknown field → 400 parameter_unknown naming it; nothing changes", async () => {
      const reply = await update({ percentage: 1, surcharge: 3 }, SECRET)
      expect(reply.status).toBe(400)
      expect(errorOf(reply.body)).toMatchObject({
        type: "invalid_request_error",
        code: "parameter_unknown",
        param: "surcharge"
      })
      expect((await get(SECRET)).body).toMatchObject({ percentage: 2.5 })
    })

    it("an invalid whole → 400 naming the field (FeeSchedule.make over the current config)", async () => {
      const limits = await update({ minFee: 500, maxFee: 100 }, SECRET)
      expect(limits.status).toBe(400)
      expect(errorOf(limits.body)).toMatchObject({ code: "parameter_invalid", param: "minFee" })
      const amounts = await update({ maxAmount: 10 }, SECRET)
      expect(amounts.status).toBe(400)
      expect(errorOf(amounts.body)).toMatchObject({ code: "parameter_invalid", param: "maxAmount" })
      const decimals = await update({ percentage: 2.12345 }, SECRET)
      expect(decimals.status).toBe(400)
      expect(errorOf(decimals.body)).toMatchObject({ param: "percentage" })
    })

    it("a fee not compliant in defaultRegion → 400; a compliant one is accepted", async () => {
      const refused = await update({ defaultRegion: "US-CO", percentage: 3 }, SECRET)
      expect(refused.status).toBe(400)
      expect(errorOf(refused.body)).toMatchObject({
        code: "percentage_over_limit",
        param: "percentage"
      })
      expect((await get(SECRET)).body).toMatchObject({ defaultRegion: null, percentage: 2.5 })
      const accepted = await update({ defaultRegion: "US-CO", percentage: 1.5, flatFee: 0 }, SECRET)
      expect(accepted.status).toBe(200)
      // The estimate now uses the default region when the request names none.
      const reply = await call(server.url, "POST", "/v1/estimates", {
        body: { amount: 10000, currency: "usd", cardType: "credit" }
      })
      expect(reply.body).toMatchObject({ region: "US-CO", convenienceFee: 150, compliant: true })
    })

    it("defaultRegion judges the whole fee: a flat fee over the cap on small amounts is refused", async () => {
      // US-NY caps the fee at 3 % of the amount (the networks' cap): a flat part counts.
      const before = (await get(SECRET)).body
      const flatOnly = await update({ defaultRegion: "US-NY", percentage: 0, flatFee: 5 }, SECRET)
      expect(flatOnly.status).toBe(400)
      expect(errorOf(flatOnly.body)).toMatchObject({ param: "minAmount" })
      // 5.00 is 3 % of 166.67: the least amount at which it is compliant.
      expect(String(errorOf(flatOnly.body).message)).toContain("at least 16667")
      const atCap = await update({ defaultRegion: "US-NY", percentage: 3, flatFee: 0.25 }, SECRET)
      expect(atCap.status).toBe(400)
      expect(String(errorOf(atCap.body).message)).toContain("every amount")
      expect((await get(SECRET)).body).toEqual(before)
      // The rate at the cap with no flat fee is compliant (rounding is not held against it).
      const rate = await update({ defaultRegion: "US-NY", percentage: 3, flatFee: 0 }, SECRET)
      expect(rate.status).toBe(200)
      // A flat fee with amounts large enough for it.
      const large = await update({ percentage: 0, flatFee: 5, minAmount: 16667 }, SECRET)
      expect(large.status).toBe(200)
      const back = await update(
        { defaultRegion: null, percentage: 2.5, flatFee: 0.3, minAmount: 50 },
        SECRET
      )
      expect(back.status).toBe(200)
    })

    it("nothing pending in test mode: approve and cancel are 404s", async () => {
      const a = await approve(SECRET, "fcc_none")
      expect(a.status).toBe(404)
      expect(errorOf(a.body)).toMatchObject({ code: "resource_missing" })
      expect((await cancel(SECRET)).status).toBe(404)
    })

    it("a publishable key may not read or change the configuration", async () => {
      expect((await get(PUBLISHABLE)).status).toBe(403)
      expect((await update({ percentage: 1 }, PUBLISHABLE)).status).toBe(403)
    })
  })

  describe("fee configs, live mode", () => {
    it("a held raise retried with its Idempotency-Key is replayed, not refused as a second change", async () => {
      const headers = { "idempotency-key": `hold-${_name}` }
      const request = { body: { flatFee: 0.4 }, key: LIVE_SECRET, headers }
      const first = await call(server.url, "POST", "/v1/fee-configs", request)
      const retry = await call(server.url, "POST", "/v1/fee-configs", request)
      expect(first.status).toBe(200)
      expect(retry.status).toBe(200)
      expect(retry.headers.get("idempotent-replayed")).toBe("true")
      expect(retry.body).toStrictEqual(first.body)
      const cancelHeaders = { "idempotency-key": `cancel-${_name}` }
      const cancel = () =>
        call(server.url, "POST", "/v1/fee-configs/pending/cancel", {
          key: LIVE_SECRET,
          headers: cancelHeaders
        })
      expect((await cancel()).status).toBe(200)
      const again = await cancel()
      expect(again.status).toBe(200)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
    })

    it("a raise is held; the same key may not approve it; another secret key applies it", async () => {
      const held = await update({ percentage: 3.5 }, LIVE_SECRET)
      expect(held.status).toBe(200)
      const body = held.body as FeeConfigBody
      expect(body).toMatchObject({ livemode: true, updated: false, percentage: 2.9 })
      expect(body.pendingChange?.id).toMatch(/^fcc_/)
      expect(body.pendingChange?.changes).toStrictEqual({ percentage: 3.5 })
      expect(typeof body.pendingChange?.requestedAt).toBe("number")
      // Not in force yet, and visible on GET.
      expect(await fee(LIVE_SECRET)).toBe(320)
      expect((await get(LIVE_SECRET)).body).toMatchObject({
        percentage: 2.9,
        pendingChange: { id: body.pendingChange?.id }
      })
      // A second change while one is pending is refused.
      const second = await update({ flatFee: 1 }, LIVE_SECRET_2)
      expect(second.status).toBe(400)
      expect(errorOf(second.body)).toMatchObject({ code: "fee_config_change_pending" })

      const same = await approve(LIVE_SECRET, body.pendingChange?.id)
      expect(same.status).toBe(403)
      expect(errorOf(same.body)).toMatchObject({ code: "approval_requires_another_key" })
      expect(await fee(LIVE_SECRET)).toBe(320)

      const approved = await approve(LIVE_SECRET_2, body.pendingChange?.id)
      expect(approved.status).toBe(200)
      expect(approved.body).toMatchObject({ percentage: 3.5, updated: true })
      expect(approved.body).not.toHaveProperty("pendingChange")
      expect(await fee(LIVE_SECRET)).toBe(380)
      expect((await approve(LIVE_SECRET_2, body.pendingChange?.id)).status).toBe(404)
      // Held: no event; approved: one.
      const events = await feeEvents("acct_1", true)
      expect(
        events.data.map((e) => (e.data.object as { percentage: number }).percentage)
      ).toStrictEqual([3.5])
    })

    it("a change that lowers the fee applies at once", async () => {
      const reply = await update({ percentage: 3, maxFee: 1000 }, LIVE_SECRET)
      expect(reply.body).toMatchObject({ percentage: 3, maxFee: 1000, updated: true })
      expect(reply.body).not.toHaveProperty("pendingChange")
      expect(await fee(LIVE_SECRET)).toBe(330)
    })

    it("gross_up, rounding up and allowUncertain raise the fee: held for a second key", async () => {
      // Each applied at once with one live key while only the rate and the
      // fee limits were compared.
      for (const change of [{ model: "gross_up" }, { rounding: "up" }, { allowUncertain: true }]) {
        const held = await update(change, LIVE_SECRET)
        expect(held.status).toBe(200)
        expect(held.body).toMatchObject({ updated: false, pendingChange: { changes: change } })
        expect((await cancel(LIVE_SECRET)).status).toBe(200)
      }
      expect(await fee(LIVE_SECRET)).toBe(330)
    })

    it("a merchant category that a rule exempts is a raise; one that only bans is not", async () => {
      // A single live key stating a Texas government code (9311) would collect credit-card fees
      // Texas bars for every other merchant; stating a taxi's code (4121) only takes fees away
      // (British Columbia's ban), so it applies at once.
      const exempt = await update({ merchantCategoryCode: "9311" }, LIVE_SECRET)
      expect(exempt.body).toMatchObject({
        updated: false,
        merchantCategoryCode: null,
        pendingChange: { changes: { merchantCategoryCode: "9311" } }
      })
      expect((await cancel(LIVE_SECRET)).status).toBe(200)
      const banned = await update({ merchantCategoryCode: "4121" }, LIVE_SECRET)
      expect(banned.body).toMatchObject({ updated: true, merchantCategoryCode: "4121" })
      const cleared = await update({ merchantCategoryCode: null }, LIVE_SECRET)
      expect(cleared.body).toMatchObject({ updated: false })
      expect(
        (await approve(LIVE_SECRET_2, (cleared.body as FeeConfigBody).pendingChange?.id)).body
      ).toMatchObject({
        merchantCategoryCode: null
      })
    })

    it("raising or removing a fee limit is a raise; cancel drops it", async () => {
      const removeCap = await update({ maxFee: null }, LIVE_SECRET)
      expect(removeCap.body).toMatchObject({ updated: false, maxFee: 1000 })
      const cancelled = await cancel(LIVE_SECRET_2)
      expect(cancelled.status).toBe(200)
      expect(cancelled.body).toMatchObject({ maxFee: 1000 })
      expect(cancelled.body).not.toHaveProperty("pendingChange")
      expect((await get(LIVE_SECRET)).body).not.toHaveProperty("pendingChange")
      expect((await approve(LIVE_SECRET_2, "fcc_none")).status).toBe(404)
      expect((await cancel(LIVE_SECRET)).status).toBe(404)

      const minFee = await update({ minFee: 50 }, LIVE_SECRET)
      expect(minFee.body).toMatchObject({ updated: false, minFee: null })
      expect((await cancel(LIVE_SECRET)).status).toBe(200)
      const flat = await update({ flatFee: 0.31 }, LIVE_SECRET)
      expect(flat.body).toMatchObject({ updated: false, flatFee: 0.3 })
      expect((await cancel(LIVE_SECRET)).status).toBe(200)
      expect(await fee(LIVE_SECRET)).toBe(330)
    })

    it("an approval names its change: a change swapped in after the approver looked is not applied", async () => {
      // The approver reads a modest pending change; its requester cancels it
      // and asks for a large one before the approval lands. Approving "whatever is pending"
      // applied the large one; and the requester approving its own swap passed the check made
      // on the change read before.
      const modest = await update({ percentage: 3.1 }, LIVE_SECRET_2)
      const seen = (modest.body as FeeConfigBody).pendingChange?.id
      expect((await cancel(LIVE_SECRET)).status).toBe(200)
      const large = await update({ percentage: 9 }, LIVE_SECRET)
      const swapped = (large.body as FeeConfigBody).pendingChange?.id
      expect(swapped).not.toBe(seen)
      for (const key of [LIVE_SECRET_2, LIVE_SECRET]) {
        const late = await approve(key, seen)
        expect(late.status).toBe(404)
        expect(errorOf(late.body)).toMatchObject({ code: "resource_missing", param: "id" })
      }
      const own = await approve(LIVE_SECRET, swapped)
      expect(own.status).toBe(403)
      expect(errorOf(own.body)).toMatchObject({ code: "approval_requires_another_key" })
      expect(await fee(LIVE_SECRET)).toBe(330)
      expect((await get(LIVE_SECRET)).body).toMatchObject({ percentage: 3 })
      // Without an id the approval is refused before anything runs.
      const bare = await call(server.url, "POST", "/v1/fee-configs/pending/approve", {
        key: LIVE_SECRET_2
      })
      expect(bare.status).toBe(400)
      expect((await cancel(LIVE_SECRET)).status).toBe(200)
    })

    it("concurrent approvals by the requester and another key: only the other key's applies", async () => {
      const held = await update({ percentage: 3.2 }, LIVE_SECRET)
      const id = (held.body as FeeConfigBody).pendingChange?.id
      const replies = await Promise.all([
        approve(LIVE_SECRET, id),
        approve(LIVE_SECRET_2, id),
        approve(LIVE_SECRET, id)
      ])
      const statuses = replies.map((r) => r.status)
      // The other key's applies; the requester's are refused (403), or find nothing pending (404).
      expect(statuses[1]).toBe(200)
      expect([statuses[0], statuses[2]].every((s) => s === 403 || s === 404)).toBe(true)
      const events = await feeEvents("acct_1", true)
      expect(events.data[0]?.data.object).toMatchObject({ percentage: 3.2 })
      expect((await update({ percentage: 3 }, LIVE_SECRET)).body).toMatchObject({ updated: true })
    })

    it("another account's pending change cannot be seen, approved or cancelled", async () => {
      const held = await update({ percentage: 4 }, LIVE_SECRET)
      expect(held.body).toMatchObject({ updated: false })
      expect((await get(OTHER_LIVE)).body).not.toHaveProperty("pendingChange")
      expect((await approve(OTHER_LIVE, await pendingId())).status).toBe(404)
      expect((await cancel(OTHER_LIVE)).status).toBe(404)
      expect((await get(LIVE_SECRET)).body).toHaveProperty("pendingChange")
      expect((await cancel(LIVE_SECRET)).status).toBe(200)
    })
  })
})

/**
 * Every method of the Promise facade against the real server (memory store): the calls
 * reach the right endpoints and come back typed from the schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Headers } from "@levy/api"
import { Levy } from "../src/index.js"
import { KEYS, LIVE_SECRET, memoryStore, SECRET, startWithStore } from "./support.js"

/** A second live secret key: approves what LIVE_SECRET asked for. */
const APPROVER = "sk_prod_service_approver0009"

describe("new Levy(apiKey): every method", () => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  let levy: Levy
  let live: Levy
  let approver: Levy
  beforeAll(async () => {
    server = await startWithStore(memoryStore(), {
      keys: [...KEYS, { secret: APPROVER, accountId: "acct_1", keyId: "key_approver" }]
    })
    levy = new Levy(SECRET, { baseUrl: server.url })
    live = new Levy(LIVE_SECRET, { baseUrl: server.url })
    approver = new Levy(APPROVER, { baseUrl: server.url })
  })
  afterAll(() => server.close())

  it("estimates.create: the specification's example (10000 at 2.9% + $0.30)", async () => {
    const estimate = await levy.estimates.create({ amount: 10000, currency: "usd" })
    expect(estimate).toMatchObject({
      object: "estimate",
      baseAmount: 10000,
      convenienceFee: 320,
      totalAmount: 10320
    })
  })

  it("charges.create, retrieve and list", async () => {
    const charge = await levy.charges.create({
      amount: 5000,
      currency: "usd",
      source: "tok_visa",
      customer: "cus_facade",
      metadata: { order: "42" }
    })
    expect(charge).toMatchObject({
      object: "charge",
      status: "succeeded",
      totalAmount: 5000 + charge.convenienceFee
    })
    expect(await levy.charges.retrieve(charge.id)).toEqual(charge)
    const page = await levy.charges.list({ customer: "cus_facade" })
    expect(page.data.map((c) => c.id)).toEqual([charge.id])
    expect(page).toMatchObject({ object: "list", has_more: false, url: "/v1/charges" })
  })

  it('charges.update: a new description, metadata merged, a key set to "" removed', async () => {
    const charge = await levy.charges.create({
      amount: 5000,
      currency: "usd",
      metadata: { order: "42", gift: "yes" }
    })
    const updated = await levy.charges.update(charge.id, {
      description: "Order 42",
      metadata: { shipping: "express", gift: "" }
    })
    expect(updated).toMatchObject({
      id: charge.id,
      description: "Order 42",
      metadata: { order: "42", shipping: "express" },
      disputed: false
    })
    expect(await levy.charges.retrieve(charge.id)).toEqual(updated)
  })

  it("refunds.create, retrieve and list", async () => {
    const charge = await levy.charges.create({ amount: 10000, currency: "usd" })
    const refund = await levy.refunds.create({ charge: charge.id, amount: 5000 })
    expect(refund).toMatchObject({
      object: "refund",
      charge: charge.id,
      amount: 5000,
      convenienceFee: 160
    })
    expect(await levy.refunds.retrieve(refund.id)).toEqual(refund)
    const page = await levy.refunds.list({ charge: charge.id })
    expect(page.data.map((r) => r.id)).toEqual([refund.id])
  })

  it("disputes.retrieve and list (tok_chargeDispute opens one)", async () => {
    const charge = await levy.charges.create({
      amount: 7000,
      currency: "usd",
      source: "tok_chargeDispute"
    })
    const page = await levy.disputes.list({ charge: charge.id })
    const [dispute] = page.data
    expect(dispute).toMatchObject({
      object: "dispute",
      charge: charge.id,
      status: "needs_response"
    })
    expect(await levy.disputes.retrieve(dispute?.id ?? "")).toEqual(dispute)
  })

  it("feeConfigs.retrieve and update (test mode applies at once)", async () => {
    expect(await levy.feeConfigs.retrieve()).toMatchObject({
      object: "fee_config",
      percentage: 2.9
    })
    const updated = await levy.feeConfigs.update({ flatFee: 0.25 })
    expect(updated).toMatchObject({ updated: true, flatFee: 0.25 })
    expect((await levy.feeConfigs.retrieve()).flatFee).toBe(0.25)
    await levy.feeConfigs.update({ flatFee: 0.3 })
  })

  it("feeConfigs.approvePending and cancelPending (a live raise waits for a second key)", async () => {
    const held = await live.feeConfigs.update({ percentage: 3.1 })
    expect(held.updated).toBe(false)
    expect(held.pendingChange).toBeDefined()
    const cancelled = await live.feeConfigs.cancelPending()
    expect(cancelled.pendingChange).toBeUndefined()
    const again = await live.feeConfigs.update({ percentage: 3.1 })
    const approved = await approver.feeConfigs.approvePending(again.pendingChange?.id ?? "")
    expect(approved).toMatchObject({ percentage: 3.1, updated: true })
  })

  it("regions.retrieve, list and checkCompliance", async () => {
    const region = await levy.regions.retrieve("US-CA")
    expect(region.regionCode).toBe("US-CA")
    const page = await levy.regions.list({ country: "US", limit: 5 })
    expect(page.data).toHaveLength(5)
    expect(page.has_more).toBe(true)
    const next = await page.nextPage()
    expect((next?.data[0]?.regionCode ?? "") > (page.data[4]?.regionCode ?? "~")).toBe(true)
    const check = await levy.regions.checkCompliance({
      region: "US-CT",
      percentage: 2.9,
      flatFee: 0.3,
      cardType: "credit"
    })
    expect(check).toMatchObject({ compliant: false, region: "US-CT" })
  })

  it("events.retrieve, list and resend", async () => {
    const charge = await levy.charges.create({ amount: 6000, currency: "usd" })
    const page = await levy.events.list({ type: "charge.succeeded", limit: 1 })
    const [event] = page.data
    expect(event).toMatchObject({ type: "charge.succeeded", data: { object: { id: charge.id } } })
    expect(await levy.events.retrieve(event?.id ?? "")).toEqual(event)
    expect((await levy.events.resend(event?.id ?? "")).id).toBe(event?.id)
  })

  it("webhookEndpoints: create, list, retrieve, update, rollSecret, listDeliveries, del", async () => {
    const created = await levy.webhookEndpoints.create({
      url: "http://127.0.0.1:9/hook",
      enabledEvents: ["charge.succeeded"]
    })
    expect(created.secret).toMatch(/^whsec_dev_/)
    expect((await levy.webhookEndpoints.list()).data.map((e) => e.id)).toContain(created.id)
    const fetched = await levy.webhookEndpoints.retrieve(created.id)
    expect(fetched.secret).toBeUndefined()
    const updated = await levy.webhookEndpoints.update(created.id, { description: "orders" })
    expect(updated.description).toBe("orders")
    const rolled = await levy.webhookEndpoints.rollSecret(created.id)
    expect(rolled.secret).toMatch(/^whsec_dev_/)
    expect(rolled.secret).not.toBe(created.secret)
    const deliveries = await levy.webhookEndpoints.listDeliveries(created.id)
    expect(deliveries).toMatchObject({ object: "list" })
    expect(await levy.webhookEndpoints.del(created.id)).toMatchObject({
      id: created.id,
      deleted: true
    })
  })

  it("sends the apiVersion as Levy-Version (an unknown one is the server's 400)", async () => {
    const wrong = new Levy(SECRET, { baseUrl: server.url, apiVersion: "1999-01" })
    await expect(wrong.feeConfigs.retrieve()).rejects.toMatchObject({
      statusCode: 400,
      param: "Levy-Version"
    })
    expect(Headers.API_VERSION).toBe("2025-01")
  })
})

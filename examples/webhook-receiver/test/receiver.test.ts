/**
 * The webhook receiver example, run as a test: deliveries signed the way the server signs
 * them (`WebhookSignature.sign`) are applied once each; a missing, malformed, foreign or
 * stale signature, or a body changed after signing, is a 400 that changes nothing.
 */
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { WebhookSignature } from "@levy/api"
import { Ledger } from "../src/Ledger.js"
import { createReceiver } from "../src/receiver.js"

const SECRET = "whsec_dev_examplereceiver0001"

const charge = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  object: "charge",
  status: "succeeded",
  amount: 10000,
  totalAmount: 10320,
  amountRefunded: 0,
  ...fields
})
const event = (id: string, type: string, object: unknown) =>
  JSON.stringify({
    id,
    object: "event",
    type,
    data: { object },
    created: 1_700_000_000,
    livemode: false
  })

describe("webhook-receiver example", () => {
  const ledger = new Ledger()
  const server = createReceiver(SECRET, ledger)
  let url = ""
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const deliver = async (body: string, signature?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json" }
    if (signature !== undefined) headers["service-signature"] = signature
    const res = await fetch(url, { method: "POST", headers, body })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }
  const signed = async (body: string, secrets: ReadonlyArray<string> = [SECRET]) =>
    deliver(body, await WebhookSignature.sign(secrets, Date.now() / 1000, body))

  it("applies every event type once, even when delivered twice", async () => {
    const bodies = [
      event("evt_1", "charge.succeeded", charge("ch_1")),
      event(
        "evt_2",
        "charge.failed",
        charge("ch_2", { status: "failed", failureCode: "card_declined" })
      ),
      event("evt_3", "charge.refunded", charge("ch_1", { amountRefunded: 2500 })),
      event("evt_4", "dispute.created", { id: "dp_1", object: "dispute", charge: "ch_1" }),
      event("evt_5", "fee_config.updated", { object: "fee_config", percentage: 3, flatFee: 0.25 })
    ]
    for (const body of bodies)
      expect(await signed(body)).toMatchObject({ status: 200, body: { duplicate: false } })
    for (const body of bodies)
      expect(await signed(body)).toMatchObject({ status: 200, body: { duplicate: true } })
    expect(ledger.processed.size).toBe(5)
    expect(ledger.orders.get("ch_1")).toMatchObject({
      status: "paid",
      refunded: 2500,
      disputed: true
    })
    expect(ledger.orders.get("ch_2")).toMatchObject({
      status: "failed",
      failureCode: "card_declined"
    })
    expect(ledger.feeConfig).toEqual({ percentage: 3, flatFee: 0.25 })
  })

  it("an older refund event arriving late does not lower the refunded total", async () => {
    await signed(event("evt_6", "charge.refunded", charge("ch_3", { amountRefunded: 5000 })))
    await signed(event("evt_7", "charge.refunded", charge("ch_3", { amountRefunded: 1000 })))
    expect(ledger.orders.get("ch_3")?.refunded).toBe(5000)
  })

  it("accepts a delivery signed with the old and the new secret while a secret rolls", async () => {
    const body = event("evt_8", "charge.succeeded", charge("ch_4"))
    expect((await signed(body, ["whsec_dev_newsecret", SECRET])).status).toBe(200)
  })

  it("refuses what it cannot trust with a 400, changing nothing", async () => {
    const body = event("evt_bad", "charge.succeeded", charge("ch_bad"))
    const now = Date.now() / 1000
    const cases = [
      [await deliver(body), "missing_header"],
      [await deliver(body, "v1=abc"), "bad_format"],
      [
        await deliver(body, await WebhookSignature.sign(["whsec_dev_someoneelse"], now, body)),
        "no_matching_signature"
      ],
      [
        await deliver(body.replace("10320", "1"), await WebhookSignature.sign([SECRET], now, body)),
        "no_matching_signature"
      ],
      [
        await deliver(body, await WebhookSignature.sign([SECRET], now - 3600, body)),
        "timestamp_outside_tolerance"
      ]
    ] as const
    for (const [reply, reason] of cases)
      expect(reply).toEqual({ status: 400, body: { error: reason } })
    expect(ledger.processed.has("evt_bad")).toBe(false)
    expect(ledger.orders.has("ch_bad")).toBe(false)
  })
})

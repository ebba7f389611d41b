/**
 * The webhook signature against an independent HMAC (node:crypto, written from the header
 * format `t=<s>,v1=<hex HMAC-SHA256("<t>.<body>")>`), and every way a delivery is refused.
 */
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  SIGNATURE_HEADER,
  sign,
  verifyWebhook,
  WebhookVerificationError
} from "../src/WebhookSignature.js"

const SECRET = "whsec_dev_0123456789abcdef"
const OTHER = "whsec_dev_fedcba9876543210"
const BODY = JSON.stringify({
  id: "evt_1",
  object: "event",
  type: "charge.succeeded",
  data: { object: { id: "ch_1" } },
  created: 1_700_000_000,
  livemode: false
})
const NOW = 1_700_000_000

const hmac = (secret: string, t: number, body: string) =>
  createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")

const reasonOf = async (promise: Promise<unknown>) => {
  try {
    await promise
    return "accepted"
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookVerificationError)
    return (e as WebhookVerificationError).reason
  }
}

describe("WebhookSignature", () => {
  it("signs as t=<s>,v1=<hex HMAC-SHA256 of t.body>, one v1 per secret, current first", async () => {
    const header = await sign([SECRET, OTHER], NOW, BODY)
    expect(header).toBe(`t=${NOW},v1=${hmac(SECRET, NOW, BODY)},v1=${hmac(OTHER, NOW, BODY)}`)
  })

  it("accepts a genuine delivery (string or bytes) and returns the event", async () => {
    const header = `t=${NOW},v1=${hmac(SECRET, NOW, BODY)}`
    const event = await verifyWebhook(BODY, header, SECRET, 300, NOW + 10)
    expect(event.id).toBe("evt_1")
    const fromBytes = await verifyWebhook(new TextEncoder().encode(BODY), header, SECRET, 300, NOW)
    expect(fromBytes.type).toBe("charge.succeeded")
  })

  it("accepts either v1 while a secret rolls", async () => {
    const header = await sign([OTHER, SECRET], NOW, BODY)
    expect((await verifyWebhook(BODY, header, SECRET, 300, NOW)).id).toBe("evt_1")
    expect((await verifyWebhook(BODY, header, OTHER, 300, NOW)).id).toBe("evt_1")
  })

  it("rejects a missing or malformed header", async () => {
    expect(await reasonOf(verifyWebhook(BODY, undefined, SECRET, 300, NOW))).toBe("missing_header")
    expect(await reasonOf(verifyWebhook(BODY, "", SECRET, 300, NOW))).toBe("missing_header")
    for (const bad of ["garbage", `v1=${hmac(SECRET, NOW, BODY)}`, `t=${NOW}`, `t=abc,v1=00`]) {
      expect(await reasonOf(verifyWebhook(BODY, bad, SECRET, 300, NOW))).toBe("bad_format")
    }
  })

  it("rejects a tampered body, a wrong secret and a moved timestamp", async () => {
    const header = `t=${NOW},v1=${hmac(SECRET, NOW, BODY)}`
    const tampered = BODY.replace("ch_1", "ch_2")
    expect(await reasonOf(verifyWebhook(tampered, header, SECRET, 300, NOW))).toBe(
      "no_matching_signature"
    )
    expect(await reasonOf(verifyWebhook(BODY, header, OTHER, 300, NOW))).toBe(
      "no_matching_signature"
    )
    const moved = `t=${NOW + 1},v1=${hmac(SECRET, NOW, BODY)}`
    expect(await reasonOf(verifyWebhook(BODY, moved, SECRET, 300, NOW))).toBe(
      "no_matching_signature"
    )
  })

  it("rejects a genuine signature outside the tolerance (a replay)", async () => {
    const header = `t=${NOW},v1=${hmac(SECRET, NOW, BODY)}`
    expect(await reasonOf(verifyWebhook(BODY, header, SECRET, 300, NOW + 301))).toBe(
      "timestamp_outside_tolerance"
    )
    expect(await reasonOf(verifyWebhook(BODY, header, SECRET, 300, NOW - 301))).toBe(
      "timestamp_outside_tolerance"
    )
    expect(await reasonOf(verifyWebhook(BODY, header, SECRET, 300, NOW + 300))).toBe("accepted")
  })

  it("names the header it reads", () => {
    expect(SIGNATURE_HEADER).toBe("service-signature")
  })
})

/**
 * The dispatcher's node:crypto signer writes the header `WebhookSignature.sign` (Web Crypto,
 * what the docs and the client's `verifyWebhook` follow) writes, byte for byte, and the
 * client verifies it.
 */
import { describe, expect, it } from "@effect/vitest"
import { WebhookSignature } from "@levy/api"
import fc from "fast-check"
import * as Signer from "../src/webhookDeliveries/Signer.js"

describe("Signer.sign", () => {
  it("equals WebhookSignature.sign for any secrets, time and body", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: "grapheme", minLength: 1 }), { minLength: 1, maxLength: 2 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.string({ unit: "grapheme" }),
        async (secrets, timestamp, body) => {
          expect(Signer.sign(secrets, timestamp, body)).toBe(
            await WebhookSignature.sign(secrets, timestamp, body)
          )
        }
      )
    )
  })

  it("is verified by the client's verifier with either secret while one is rolled", async () => {
    const body = JSON.stringify({ id: "evt_1", object: "event", data: { object: { n: "é€" } } })
    const now = Math.floor(Date.now() / 1000)
    const header = Signer.sign(["whsec_new", "whsec_old"], now, body)
    for (const secret of ["whsec_new", "whsec_old"]) {
      const event = await WebhookSignature.verifyWebhook(body, header, secret)
      expect(event.id).toBe("evt_1")
    }
    await expect(WebhookSignature.verifyWebhook(body, header, "whsec_other")).rejects.toThrow()
  })
})

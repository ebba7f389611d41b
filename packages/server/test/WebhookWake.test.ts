/**
 * Every write that records an event wakes webhook delivery in its process: a charge is settled
 * outside `Transactions.run` (ChargeRepository.settleCharge), yet its `charge.succeeded` is
 * delivered. The dispatcher polls once when it starts (before the charge exists) and then only
 * after `POLL_MS`, longer than this file's tests may run (vitest's testTimeout): no poll can
 * happen while the test runs, so a delivery at all is the wake's doing. Nothing here is timed;
 * the wait is only a guard against hanging.
 */

import { LoopbackTargets } from "@levy/engine/webhookEndpoints/LoopbackTargets.js"
import { Ids, Storage } from "@levy/storage"
import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Mount from "../src/Mount.js"
import { eventually, type Receiver, receiver } from "./WebhooksSupport.js"

// Longer than any test may run (testTimeout, vitest.config.ts): the dispatcher never polls again.
const POLL_MS = 60 * 60_000

describe("webhook delivery is woken by every write", () => {
  let levy: Mount.MountedLevy
  let hooks: Receiver
  let key: string

  const post = async (path: string, body: unknown) => {
    const response = await levy.fetch(
      new Request(`http://levy.test${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    )
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  beforeAll(async () => {
    hooks = await receiver()
    levy = await Mount.make({
      // The receiver listens on loopback, allowed in test mode on a development server.
      store: Storage.layerMemory.pipe(
        Layer.provideMerge(Ids.layer),
        Layer.merge(Layer.succeed(LoopbackTargets, true))
      ),
      webhooks: { pollIntervalMs: POLL_MS }
    })
    key = (await levy.createAccount("wake")).keys.secretDev
    const endpoint = await post("/v1/webhook-endpoints", {
      url: `${hooks.url}/hooks`,
      enabledEvents: ["charge.succeeded"]
    })
    expect(endpoint.status).toBe(200)
  })
  afterAll(async () => {
    await levy?.close()
    await hooks?.close()
  })

  it("delivers a charge's event with no poll in between", async () => {
    const charge = await post("/v1/charges", { amount: 1000, currency: "usd" })
    expect(charge.status).toBe(200)
    await eventually("the charge's event", () => hooks.received.length > 0)
    const delivered = JSON.parse(hooks.received[0]!.body) as {
      type: string
      data: { object: { id: string } }
    }
    expect(delivered.type).toBe("charge.succeeded")
    expect(delivered.data.object.id).toBe(charge.body.id)
    expect(hooks.received).toHaveLength(1)
  })
})

/**
 * Each app over real HTTP (127.0.0.1, an ephemeral port), Levy mounted on a memory store
 * with a test-mode limit of 6 requests a minute: the app's own routes still answer, and
 * through /levy the same black-box checks pass for all three — an estimate, a charge whose
 * Idempotency-Key is replayed, a 401 and a 429 in the API's error shape.
 */
import { Mount, type MountedLevy } from "@levy/server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { frameworks, type Listening, listen } from "../src/listen.js"

const LIMIT = 6

describe.each(frameworks)("Levy mounted in %s", (framework) => {
  let levy: MountedLevy
  let app: Listening
  let key: string
  const levyUrl = (path: string) => `${app.url}/levy${path}`
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(levyUrl(path), {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })

  beforeAll(async () => {
    levy = await Mount.make({
      store: { store: "memory" },
      rateLimits: { test: LIMIT }
    })
    key = (await levy.createAccount(`${framework} shop`)).keys.secretDev
    app = await listen(framework, levy)
  })
  afterAll(async () => {
    await app?.close()
    await levy?.close()
  })

  it("keeps the app's own routes, body parsing included", async () => {
    const health = await fetch(`${app.url}/health`)
    expect(await health.json()).toEqual({ status: "ok", framework })
    const order = await fetch(`${app.url}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sku: "tee", quantity: 2 })
    })
    expect(order.status).toBe(201)
    expect(await order.json()).toEqual({ received: { sku: "tee", quantity: 2 } })
  })

  it("quotes an estimate (request 1 of the key's limit)", async () => {
    const response = await post("/v1/estimates", {
      amount: 10000,
      currency: "usd",
      region: "US-FL",
      cardType: "credit"
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("request-id")).toMatch(/^req_/)
    expect(response.headers.get("x-ratelimit-limit")).toBe(String(LIMIT))
    expect(await response.json()).toMatchObject({
      object: "estimate",
      baseAmount: 10000,
      // 2.9 % + 0.30 is over the networks' 3 % in US-FL: quoted as a charge there collects it.
      convenienceFee: 300,
      totalAmount: 10300,
      compliant: true
    })
  })

  it("charges once for an Idempotency-Key sent twice (requests 2 and 3)", async () => {
    const body = { amount: 10000, currency: "usd", source: "tok_visa" }
    const first = await post("/v1/charges", body, { "idempotency-key": `order-${framework}` })
    expect(first.status).toBe(200)
    const charge = (await first.json()) as { id: string; status: string; totalAmount: number }
    expect(charge).toMatchObject({ status: "succeeded", totalAmount: 10320 })
    expect(first.headers.get("idempotent-replayed")).toBeNull()

    const again = await post("/v1/charges", body, { "idempotency-key": `order-${framework}` })
    expect(again.status).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(await again.json()).toEqual(charge)
  })

  it("answers 401 without a key, and 404 in the API's shape for an unknown path under /levy", async () => {
    const anonymous = await fetch(levyUrl("/v1/charges"))
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toMatchObject({ error: { type: "authentication_error" } })
    const unknown = await fetch(levyUrl("/v1/nope"), {
      headers: { authorization: `Bearer ${key}` }
    })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: { code: "route_not_found" } })
  })

  it("answers 429 with Retry-After once the key's limit is spent (request 4 was the 404)", async () => {
    const statuses: Array<number> = []
    let limited: Response | undefined
    while (limited === undefined && statuses.length < LIMIT) {
      const response = await fetch(levyUrl("/v1/charges?limit=1"), {
        headers: { authorization: `Bearer ${key}` }
      })
      statuses.push(response.status)
      if (response.status === 429) limited = response
      else await response.body?.cancel()
    }
    expect(statuses).toEqual([200, 200, 429])
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect(await limited?.json()).toMatchObject({
      error: { type: "rate_limit_error", code: "rate_limit_exceeded" }
    })
  })
})

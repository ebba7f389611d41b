/**
 * Idempotency records belong to secret keys (docs/design.md §7): a publishable
 * key that sends a secret-key request's Idempotency-Key and body is refused before the stored
 * response is looked at, and its own keyed requests take nothing from the merchant's key space.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { call, PUBLISHABLE, STORES, startWithStore } from "./support.js"

describe.each(STORES)("on the %s store", (name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    server = await startWithStore(makeStore())
  }, 60_000)
  afterAll(() => server.close())

  it("a publishable key replaying a secret key's request gets a 403, not its stored response", async () => {
    const headers = { "idempotency-key": `hook-${name}` }
    const body = { url: "http://localhost:4242/hook", enabledEvents: ["*"] }
    const created = await call(server.url, "POST", "/v1/webhook-endpoints", { body, headers })
    expect(created.status).toBe(200)
    const secret = (created.body as { secret: string }).secret
    expect(secret).toMatch(/^whsec_/)

    const replay = await call(server.url, "POST", "/v1/webhook-endpoints", {
      body,
      headers,
      key: PUBLISHABLE
    })
    expect(replay.status).toBe(403)
    expect(replay.headers.get("idempotent-replayed")).toBeNull()
    expect(replay.text).not.toContain(secret)
    // The secret key still gets its own replay.
    const retry = await call(server.url, "POST", "/v1/webhook-endpoints", { body, headers })
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
  })

  it("a publishable key's Idempotency-Key takes nothing from the secret keys' space", async () => {
    const headers = { "idempotency-key": `squat-${name}` }
    const estimate = { amount: 10000, currency: "usd" }
    for (let i = 0; i < 2; i++) {
      const reply = await call(server.url, "POST", "/v1/estimates", {
        body: estimate,
        headers,
        key: PUBLISHABLE
      })
      expect(reply.status).toBe(200)
      expect(reply.headers.get("idempotent-replayed")).toBeNull()
    }
    // The merchant's backend later uses the same key for a charge: it runs.
    const charge = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 1000, currency: "usd" },
      headers
    })
    expect(charge.status).toBe(200)
    expect(charge.body).toMatchObject({ object: "charge", amount: 1000 })
  })
})

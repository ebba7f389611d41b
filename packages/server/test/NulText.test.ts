/**
 * Text holding NUL (U+0000), which PostgreSQL refuses to store, is the caller's 400 naming the
 * field, and nothing is written (it was a 503 and an error log).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as NulText from "../src/http/NulText.js"
import { call, postgresStore, startWithStore } from "./support.js"

describe("NUL in text over HTTP, on PostgreSQL", () => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    server = await startWithStore(postgresStore())
  }, 60_000)
  afterAll(() => server.close())

  const errorOf = (body: unknown) => (body as { error: Record<string, unknown> }).error

  it.each([
    [
      "POST",
      "/v1/charges",
      { amount: 1000, currency: "usd", metadata: { note: "a\u0000b" } },
      "metadata.note"
    ],
    ["POST", "/v1/charges", { amount: 1000, currency: "usd", customer: "cus\u0000" }, "customer"],
    [
      "POST",
      "/v1/charges",
      { amount: 1000, currency: "usd", metadata: { "k\u0000": "v" } },
      "metadata.k\u0000"
    ],
    [
      "POST",
      "/v1/webhook-endpoints",
      { url: "http://localhost:4242/hook", enabledEvents: ["*"], description: "\u0000" },
      "description"
    ],
    ["POST", "/v1/estimates", { amount: 1000, currency: "usd", region: "US\u0000" }, "region"]
  ] as const)("%s %s with a NUL → 400 naming %s", async (method, path, body, param) => {
    const reply = await call(server.url, method, path, { body })
    expect(reply.status, reply.text).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({ code: "parameter_invalid", param })
  })

  it("a NUL in a query parameter → 400 naming it; nothing was charged above", async () => {
    const reply = await call(server.url, "GET", "/v1/charges?customer=%00")
    expect(reply.status, reply.text).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({ param: "customer" })
    const none = await call(server.url, "GET", "/v1/charges")
    expect((none.body as { data: Array<unknown> }).data).toHaveLength(0)
  })
})

describe("NulText", () => {
  it("finds an escaped NUL, not an escaped backslash before 'u0000'", () => {
    expect(NulText.hasEscapedNul(JSON.stringify({ a: "x\u0000" }))).toBe(true)
    expect(NulText.hasEscapedNul(JSON.stringify({ a: "x\\u0000" }))).toBe(false)
    expect(NulText.hasEscapedNul(JSON.stringify({ a: "x\\\u0000" }))).toBe(true)
    expect(NulText.nulPath({ a: [1, { b: "\u0000" }] })).toBe("a[1].b")
    // Other control characters are stored as they are.
    expect(NulText.checkBody(JSON.stringify({ a: "\u0001\u001f\t" }))).toBeUndefined()
  })
})

/** The nesting limit on JSON bodies: the scan, and the 400 over HTTP on both dispatch paths. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { exceeds, MAX_DEPTH } from "../src/http/JsonDepth.js"
import { call, type Running, start } from "./support.js"

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`

describe("JsonDepth.exceeds", () => {
  it("accepts exactly the limit and refuses one level more", () => {
    expect(exceeds(nested(MAX_DEPTH))).toBe(false)
    expect(exceeds(nested(MAX_DEPTH + 1))).toBe(true)
    expect(exceeds(`{"a":${nested(MAX_DEPTH - 1)}}`)).toBe(false)
  })

  it("ignores brackets inside strings, escaped quotes included", () => {
    const inString = JSON.stringify({ s: `\\"${"[".repeat(500)}` })
    expect(exceeds(inString)).toBe(false)
  })

  it("agrees with the real depth of any JSON value", () => {
    const depthOf = (v: unknown): number =>
      typeof v === "object" && v !== null
        ? 1 + Math.max(0, ...Object.values(v as Record<string, unknown>).map(depthOf))
        : 0
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (value, max) => {
        const text = JSON.stringify(value)
        expect(exceeds(text, max)).toBe(depthOf(value) > max)
      })
    )
  })
})

describe("a body nested thousands deep", () => {
  let server: Running
  beforeAll(async () => {
    server = await start()
  })
  afterAll(() => server.close())

  for (const path of ["/v1/estimates", "/v1/charges", "/v1/refunds"]) {
    it(`is a 400 on ${path}, with or without an Idempotency-Key`, async () => {
      for (const headers of [{}, { "idempotency-key": `deep-${path}` }]) {
        const reply = await call(server.url, "POST", path, { raw: nested(5_000), headers })
        expect(reply.status).toBe(400)
        expect(reply.body).toMatchObject({
          error: { type: "invalid_request_error", code: "body_invalid" }
        })
      }
    })
  }
})

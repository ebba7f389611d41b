/**
 * Decode errors over HTTP as a person reads them: what was wrong, what is
 * allowed, no schema internals and no echo of long input. The wording is made in one place
 * (@levy/api DecodeMessage.ts; its property test covers every request schema); these are the
 * issue's own examples, sent as an integrator sends them.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { withLevy } from "./InProcess.js"
import { call, type Running, start } from "./support.js"

let server: Running

beforeAll(async () => {
  server = await start()
})
afterAll(async () => {
  await server.close()
})

const errorOf = (body: unknown) =>
  (body as { error: { code: string; message: string; param?: string } }).error

describe("decode errors a person reads", () => {
  it("a refund of amount 0: must be an integer greater than 0", async () => {
    const reply = await call(server.url, "POST", "/v1/refunds", {
      body: { charge: "ch_anything", amount: 0 }
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toStrictEqual({
      type: "invalid_request_error",
      code: "parameter_invalid",
      param: "amount",
      message: "Invalid amount: must be an integer greater than 0 (got 0)"
    })
  })

  it('metadata "x": an object of key-value pairs, not the schema\'s type syntax', async () => {
    const reply = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 1000, currency: "usd", metadata: "x" }
    })
    expect(reply.status).toBe(400)
    const error = errorOf(reply.body)
    expect(error.param).toBe("metadata")
    expect(error.message).toMatch(/^Invalid metadata: must be an object of key-value pairs/)
    expect(error.message).not.toContain("readonly")
    expect(error.message).not.toContain("Expected")
  })

  it("a null body: the parameters must be an object, no schema name", async () => {
    const reply = await call(server.url, "POST", "/v1/estimates", { raw: "null" })
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({
      code: "parameter_invalid",
      message: "Invalid request: the parameters must be an object (got null)"
    })
    expect(reply.text).not.toContain("EstimateRequest")
  })

  it("a 6,000-character description is cut in the answer, not echoed whole", async () => {
    const description = "d".repeat(6000)
    const reply = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 1000, currency: "usd", description }
    })
    expect(reply.status).toBe(400)
    const error = errorOf(reply.body)
    expect(error.param).toBe("description")
    expect(error.message).toMatch(
      /^Invalid description: must be a string of at most \d+ characters/
    )
    expect(error.message).toContain("(6000 characters)")
    expect(reply.text.length).toBeLessThan(400)
  })

  it("a query parameter and a header are worded the same way", async () => {
    const list = await call(server.url, "GET", "/v1/charges?limit=abc")
    expect(list.status).toBe(400)
    expect(errorOf(list.body).param).toBe("limit")
    expect(errorOf(list.body).message).not.toContain("Expected")
    const key = await call(server.url, "POST", "/v1/estimates", {
      body: { amount: 1000, currency: "usd" },
      headers: { "idempotency-key": "k".repeat(300) }
    })
    expect(key.status).toBe(400)
    expect(errorOf(key.body).message.length).toBeLessThan(300)
  })
})

describe("in-process, the same words", () => {
  it("LevyService refuses a refund of amount 0 with the HTTP message", () =>
    withLevy(async ({ levy, tenant, failureOf }) => {
      const refused = await failureOf(
        levy.refunds.create(tenant, { charge: "ch_anything", amount: 0 })
      )
      expect(refused).toMatchObject({
        _tag: "InvalidInput",
        param: "amount",
        message: "Invalid amount: must be an integer greater than 0 (got 0)"
      })
    }))
})

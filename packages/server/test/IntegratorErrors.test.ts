/**
 * Errors that tell the integrator the fix: an Authorization header that is not `Bearer <key>`
 * (Basic auth, a bare key), a test-mode id read with a live key, and a query parameter a list
 * does not take.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { call, LIVE_SECRET, type Running, SECRET, start } from "./support.js"

let server: Running

beforeAll(async () => {
  server = await start()
})
afterAll(async () => {
  await server.close()
})

const errorOf = (body: unknown) => (body as { error: Record<string, unknown> }).error

describe("the Authorization header", () => {
  const withHeader = (authorization: string) =>
    call(server.url, "GET", "/v1/charges", { key: null, headers: { authorization } })

  it("Basic auth (curl -u) is a 401 that names the Bearer form", async () => {
    const reply = await withHeader(`Basic ${Buffer.from(`${SECRET}:`).toString("base64")}`)
    expect(reply.status).toBe(401)
    expect(errorOf(reply.body)).toMatchObject({ type: "authentication_error" })
    expect(errorOf(reply.body).message).toContain("Basic authentication is not accepted")
    expect(errorOf(reply.body).message).toContain("Authorization: Bearer <key>")
  })

  it("a key without `Bearer ` is a 401 saying to add it", async () => {
    const reply = await withHeader(SECRET)
    expect(reply.status).toBe(401)
    expect(errorOf(reply.body).message).toContain('add "Bearer " before it')
  })

  it("another scheme is named; the right form still works", async () => {
    const reply = await withHeader(`Token ${SECRET}`)
    expect(reply.status).toBe(401)
    expect(errorOf(reply.body).message).toContain("'Token' is not accepted")
    expect((await withHeader(`Bearer ${SECRET}`)).status).toBe(200)
  })
})

describe("ids of the other mode", () => {
  it("a test-mode charge read with a live key: 404 saying it exists in test mode", async () => {
    const made = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 1000, currency: "usd" }
    })
    const id = (made.body as { id: string }).id
    const reply = await call(server.url, "GET", `/v1/charges/${id}`, { key: LIVE_SECRET })
    expect(reply.status).toBe(404)
    expect(errorOf(reply.body)).toMatchObject({ code: "resource_missing", param: "id" })
    expect(errorOf(reply.body).message).toBe(
      `No such charge: '${id}'; a similar object exists in test mode, but a live mode key was used to make this request.`
    )
    // Refunding it with the live key names the charge parameter the same way.
    const refund = await call(server.url, "POST", "/v1/refunds", {
      body: { charge: id },
      key: LIVE_SECRET
    })
    expect(refund.status).toBe(404)
    expect(errorOf(refund.body)).toMatchObject({ param: "charge" })
    expect(errorOf(refund.body).message).toContain("exists in test mode")
    // An id that exists nowhere keeps the plain message.
    const none = await call(server.url, "GET", "/v1/charges/ch_nothere", { key: LIVE_SECRET })
    expect(errorOf(none.body).message).toBe("No such charge: 'ch_nothere'")
  })
})

describe("query parameters", () => {
  it("one a list does not take is a 400 naming it, as an unknown body field is", async () => {
    const reply = await call(server.url, "GET", "/v1/charges?customr=cus_1")
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({ code: "parameter_unknown", param: "customr" })
    for (const path of [
      "/v1/events?typ=charge.succeeded",
      "/v1/regions?countri=US",
      "/v1/refunds?limt=5"
    ]) {
      const refused = await call(server.url, "GET", path)
      expect(refused.status, path).toBe(400)
      expect(errorOf(refused.body).code, path).toBe("parameter_unknown")
    }
    expect((await call(server.url, "GET", "/v1/charges?customer=cus_1&limit=5")).status).toBe(200)
  })
})

/**
 * The HTTP edge and the regions endpoints over real HTTP: the in-process server on an
 * ephemeral port, spoken to with fetch.
 */
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Layer } from "effect"
import * as KeyResolver from "../src/access/KeyResolver.js"
import * as Edge from "../src/http/Edge.js"
import { call, KEYS, LIVE_SECRET, PUBLISHABLE, type Running, SECRET, start } from "./support.js"

let server: Running
const replies: Array<Awaited<ReturnType<typeof call>>> = []

/** Every call of this file, recorded so the header test can look at all of them. */
const req = async (...args: Parameters<typeof call> extends [string, ...infer R] ? R : never) => {
  const reply = await call(server.url, ...args)
  replies.push(reply)
  return reply
}

beforeAll(async () => {
  server = await start()
})
afterAll(async () => {
  await server.close()
})

/** Asserts the spec's error body exactly: only `error`, with type/code/message(/param). */
const expectError = (
  reply: { readonly status: number; readonly body: unknown; readonly text: string },
  status: number,
  error: { readonly type: string; readonly code: string; readonly param?: string }
) => {
  expect(reply.status).toBe(status)
  const body = reply.body as { error: Record<string, unknown> }
  expect(Object.keys(body)).toStrictEqual(["error"])
  expect(body.error).toMatchObject(error)
  expect(typeof body.error.message).toBe("string")
  if (error.param === undefined) expect(body.error).not.toHaveProperty("param")
  expect(Object.keys(body.error).sort()).toStrictEqual(
    ["type", "code", "message", ...(error.param === undefined ? [] : ["param"])].sort()
  )
  expect(reply.text).not.toMatch(/\bat .*\.(ts|js):\d+/)
}

const COMPLIANT = { region: "US-CO", percentage: 1.5, flatFee: 0, cardType: "credit" }

describe("regions", () => {
  it("GET /v1/regions lists places in code order, pages with starting_after", async () => {
    const first = await req("GET", "/v1/regions?limit=3")
    expect(first.status).toBe(200)
    const page = first.body as {
      object: string
      data: Array<{ regionCode: string }>
      has_more: boolean
      url: string
    }
    expect(page.object).toBe("list")
    expect(page.url).toBe("/v1/regions")
    expect(page.data).toHaveLength(3)
    expect(page.has_more).toBe(true)
    const codes = page.data.map((r) => r.regionCode)
    expect([...codes].sort()).toStrictEqual(codes)
    const next = await req("GET", `/v1/regions?limit=3&starting_after=${codes[2]}`)
    const nextCodes = (next.body as typeof page).data.map((r) => r.regionCode)
    expect(nextCodes).toHaveLength(3)
    expect(nextCodes[0]! > codes[2]!).toBe(true)
  })

  it("GET /v1/regions?country=US lists only US places", async () => {
    const reply = await req("GET", "/v1/regions?country=US&limit=100")
    const data = (reply.body as { data: Array<{ country: string; regionCode: string }> }).data
    expect(data.length).toBeGreaterThan(10)
    expect(data.every((r) => r.country === "US")).toBe(true)
    expect(data.map((r) => r.regionCode)).toContain("US-CO")
  })

  it("GET /v1/regions/US-CO answers the region", async () => {
    const reply = await req("GET", "/v1/regions/US-CO")
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ object: "region", regionCode: "US-CO", country: "US" })
  })

  it("GET /v1/regions/XX-NOPE is a 404 resource_missing naming the code", async () => {
    const reply = await req("GET", "/v1/regions/XX-NOPE")
    expectError(reply, 404, {
      type: "invalid_request_error",
      code: "resource_missing",
      param: "code"
    })
  })

  it("a bad limit is a 400 naming it", async () => {
    const reply = await req("GET", "/v1/regions?limit=0")
    expectError(reply, 400, {
      type: "invalid_request_error",
      code: "parameter_invalid",
      param: "limit"
    })
  })
})

describe("check-compliance", () => {
  it("a compliant fee answers compliant: true", async () => {
    const reply = await req("POST", "/v1/regions/check-compliance", { body: COMPLIANT })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ compliant: true, region: "US-CO", reasonCode: null })
  })

  it("US-CO at 2.9 % is not compliant: percentage_over_limit", async () => {
    const reply = await req("POST", "/v1/regions/check-compliance", {
      body: { ...COMPLIANT, percentage: 2.9 }
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      compliant: false,
      region: "US-CO",
      reasonCode: "percentage_over_limit"
    })
  })

  it("a missing field is 400 parameter_missing naming it", async () => {
    const { cardType: _, ...rest } = COMPLIANT
    const reply = await req("POST", "/v1/regions/check-compliance", { body: rest })
    expectError(reply, 400, {
      type: "invalid_request_error",
      code: "parameter_missing",
      param: "cardType"
    })
  })

  it("an unknown field is 400 parameter_unknown naming it", async () => {
    const reply = await req("POST", "/v1/regions/check-compliance", {
      body: { ...COMPLIANT, colour: "red" }
    })
    expectError(reply, 400, {
      type: "invalid_request_error",
      code: "parameter_unknown",
      param: "colour"
    })
  })

  it("malformed JSON is a 400 in the spec's shape", async () => {
    const reply = await req("POST", "/v1/regions/check-compliance", { raw: '{"region": "US-CO",' })
    expectError(reply, 400, { type: "invalid_request_error", code: "body_invalid" })
  })

  it("a body that is not JSON by Content-Type is a 400 naming Content-Type", async () => {
    const reply = await req("POST", "/v1/regions/check-compliance", {
      raw: JSON.stringify(COMPLIANT),
      headers: { "content-type": "text/plain" }
    })
    expectError(reply, 400, {
      type: "invalid_request_error",
      code: "content_type_invalid",
      param: "Content-Type"
    })
  })

  it("a body of 1 MiB + 1 byte is a 413 in the spec's shape", async () => {
    const reply = await req("POST", "/v1/regions/check-compliance", {
      raw: " ".repeat(1024 * 1024 + 1)
    })
    expectError(reply, 413, { type: "invalid_request_error", code: "payload_too_large" })
  })

  it("a streamed body (no Content-Length) over 1 MiB is a 413 while reading, not a reset", async () => {
    // Without the limit this body (spaces only) would reach the JSON decoder: 400.
    type Outcome =
      | { readonly kind: "reset" }
      | { readonly kind: "reply"; status: number; text: string; id: string | undefined }
    const reply = await new Promise<Outcome>((resolve, reject) => {
      const url = new URL(`${server.url}/v1/regions/check-compliance`)
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" }
        },
        (response) => {
          let text = ""
          response.setEncoding("utf8")
          response.on("data", (d: string) => {
            text += d
          })
          response.on("end", () =>
            resolve({
              kind: "reply",
              status: response.statusCode ?? 0,
              text,
              id: response.headers["request-id"] as string | undefined
            })
          )
        }
      )
      request.on("error", (e: NodeJS.ErrnoException) =>
        e.code === "ECONNRESET" || e.code === "EPIPE" ? resolve({ kind: "reset" }) : reject(e)
      )
      const chunk = " ".repeat(64 * 1024)
      let sent = 0
      const pump = () => {
        while (sent <= 1024 * 1024) {
          sent += chunk.length
          if (!request.write(chunk)) return request.once("drain", pump)
        }
        request.end()
      }
      pump()
    })
    expect(reply.kind).toBe("reply")
    if (reply.kind === "reply") {
      expectError({ status: reply.status, body: JSON.parse(reply.text), text: reply.text }, 413, {
        type: "invalid_request_error",
        code: "payload_too_large"
      })
      expect(reply.id).toMatch(/^req_/)
    }
  })

  it("a body of exactly 1 MiB is not refused for its size", async () => {
    const json = JSON.stringify(COMPLIANT)
    const reply = await req("POST", "/v1/regions/check-compliance", {
      raw: json + " ".repeat(1024 * 1024 - json.length)
    })
    expect(reply.status).toBe(200)
  })
})

describe("routing errors", () => {
  it("an unknown path is a 404 in the spec's shape", async () => {
    const reply = await req("GET", "/v1/nothing-here")
    expectError(reply, 404, { type: "invalid_request_error", code: "route_not_found" })
  })

  it("a known path with the wrong method is a 405 with Allow", async () => {
    const reply = await req("DELETE", "/v1/regions/US-CO")
    expectError(reply, 405, { type: "invalid_request_error", code: "method_not_allowed" })
    expect(reply.headers.get("allow")).toBe("GET")
  })

  it("a path under a served resource that no endpoint has is a 404", async () => {
    const reply = await req("GET", "/v1/charges/ch_1/refunds")
    expectError(reply, 404, { type: "invalid_request_error", code: "route_not_found" })
  })
})

describe("GET /favicon.ico", () => {
  it("is an empty 204 without a key, cached, and uses up no rate limit", async () => {
    const server = await start({ edge: { anonymous: 1 } })
    try {
      for (let i = 0; i < 3; i++) {
        const reply = await call(server.url, "GET", "/favicon.ico", { key: null })
        expect(reply.status).toBe(204)
        expect(reply.text).toBe("")
        expect(reply.headers.get("cache-control")).toBe("public, max-age=86400")
        expect(reply.headers.get("request-id")).toMatch(/^req_/)
        expect(reply.headers.get("x-ratelimit-limit")).toBeNull()
      }
      // The one keyless request the address may make is still there.
      const keyless = await call(server.url, "GET", "/v1/regions", { key: null })
      expect(keyless.status).toBe(401)
      const post = await call(server.url, "POST", "/favicon.ico", { key: null, body: {} })
      expect(post.status).toBe(429)
    } finally {
      await server.close()
    }
  })
})

describe("cross-origin callers (browsers with publishable keys)", () => {
  const ORIGIN = "https://shop.example"

  it("a preflight is answered 204 without a key, naming the path's methods and the headers", async () => {
    const reply = await req("OPTIONS", "/v1/estimates", {
      key: null,
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type"
      }
    })
    expect(reply.status).toBe(204)
    expect(reply.headers.get("access-control-allow-origin")).toBe("*")
    expect(reply.headers.get("access-control-allow-methods")).toBe("POST")
    expect(reply.headers.get("access-control-allow-headers")).toContain("authorization")
    expect(reply.headers.get("access-control-allow-headers")).toContain("idempotency-key")
  })

  it("a preflight for an unknown path is not approved", async () => {
    const reply = await req("OPTIONS", "/v1/nope", {
      key: null,
      headers: { origin: ORIGIN, "access-control-request-method": "GET" }
    })
    expect(reply.status).not.toBe(204)
    expect(reply.headers.get("access-control-allow-methods")).toBeNull()
  })

  it("answers to an Origin expose the API's headers; same-origin answers carry none", async () => {
    const cross = await req("POST", "/v1/estimates", {
      key: PUBLISHABLE,
      body: { amount: 10000, currency: "usd" },
      headers: { origin: ORIGIN }
    })
    expect(cross.status).toBe(200)
    expect(cross.headers.get("access-control-allow-origin")).toBe("*")
    expect(cross.headers.get("access-control-expose-headers")).toContain("request-id")
    const same = await req("POST", "/v1/estimates", {
      key: PUBLISHABLE,
      body: { amount: 10000, currency: "usd" }
    })
    expect(same.headers.get("access-control-allow-origin")).toBeNull()
  })
})

describe("authentication", () => {
  it("a missing key is a 401 authentication_error", async () => {
    const reply = await req("GET", "/v1/regions", { key: null })
    expectError(reply, 401, { type: "authentication_error", code: "invalid_api_key" })
  })

  it("an unknown key with a valid prefix is a 401", async () => {
    const reply = await req("GET", "/v1/regions", { key: "sk_dev_service_wrong" })
    expectError(reply, 401, { type: "authentication_error", code: "invalid_api_key" })
  })

  it("a publishable key may retrieve a region and check compliance", async () => {
    const one = await req("GET", "/v1/regions/US-CO", { key: PUBLISHABLE })
    expect(one.status).toBe(200)
    const check = await req("POST", "/v1/regions/check-compliance", {
      key: PUBLISHABLE,
      body: COMPLIANT
    })
    expect(check.status).toBe(200)
  })

  it("a publishable key may not list regions: 403 permission_denied", async () => {
    const reply = await req("GET", "/v1/regions", { key: PUBLISHABLE })
    expectError(reply, 403, { type: "invalid_request_error", code: "permission_denied" })
  })

  it("a live secret key works too", async () => {
    const reply = await req("GET", "/v1/regions/US-CO", { key: LIVE_SECRET })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("x-ratelimit-limit")).toBe("1000")
  })
})

describe("key lookups", () => {
  // The edge looks the bearer key up for the rate limit; its Authorization check takes that
  // answer, found or not, instead of asking the store again.
  it("one lookup per request, for a known key and for an unknown one, on both paths", async () => {
    const asked: Array<string> = []
    const counting = Layer.sync(KeyResolver.KeyResolver, () => {
      const inner = KeyResolver.memory(KEYS)
      return {
        resolve: (secret: string) =>
          Effect.zipRight(
            Effect.sync(() => asked.push(secret)),
            inner.resolve(secret)
          )
      }
    })
    const server = await start({ resolver: counting })
    try {
      const estimate = { amount: 10_000, currency: "usd" }
      const replies = [
        await call(server.url, "GET", "/v1/regions/US-CO"),
        await call(server.url, "GET", "/v1/regions/US-CO", { key: "sk_dev_service_wrong" }),
        await call(server.url, "POST", "/v1/estimates", { body: estimate }),
        await call(server.url, "POST", "/v1/estimates", {
          body: estimate,
          key: "sk_dev_service_wrong"
        })
      ]
      expect(replies.map((r) => r.status)).toStrictEqual([200, 401, 200, 401])
      expect(asked).toStrictEqual([SECRET, "sk_dev_service_wrong", SECRET, "sk_dev_service_wrong"])
    } finally {
      await server.close()
    }
  })
})

describe("Levy-Version", () => {
  it("absent: the server answers with 2025-01", async () => {
    const reply = await req("GET", "/v1/regions/US-CO")
    expect(reply.headers.get("levy-version")).toBe("2025-01")
  })

  it("known: echoed", async () => {
    const reply = await req("GET", "/v1/regions/US-CO", { headers: { "levy-version": "2025-01" } })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("levy-version")).toBe("2025-01")
  })

  it("unknown: 400 naming Levy-Version", async () => {
    const reply = await req("GET", "/v1/regions/US-CO", { headers: { "levy-version": "2024-12" } })
    expectError(reply, 400, {
      type: "invalid_request_error",
      code: "parameter_invalid",
      param: "Levy-Version"
    })
  })
})

describe("headers on every response", () => {
  it("every response of this file had a request-id and the rate-limit headers", async () => {
    const extra = await req("GET", "/v1/regions/US-CO")
    expect(extra.headers.get("x-ratelimit-limit")).toBe("100")
    expect(replies.length).toBeGreaterThan(20)
    expect(new Set(replies.map((r) => r.status)).size).toBeGreaterThanOrEqual(7)
    const ids = new Set<string>()
    for (const reply of replies) {
      const id = reply.headers.get("request-id")
      expect(id).toMatch(/^req_[0-9a-f]{24}$/)
      ids.add(id ?? "")
      expect(reply.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/)
      expect(reply.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/)
      // the window's end, no earlier than the response itself (its Date header, whole seconds)
      expect(Number(reply.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(
        Date.parse(reply.headers.get("date") ?? "") / 1000
      )
    }
    expect(ids.size).toBe(replies.length)
  })
})

describe("path parameters and HEAD", () => {
  it("a malformed percent-escape in a path parameter is a 404 route_not_found", async () => {
    // The platform's router answered this with a 405 that contradicted itself:
    // "/v1/charges/%zz does not accept GET; allowed: GET."
    const reply = await req("GET", "/v1/charges/%zz")
    expectError(reply, 404, { type: "invalid_request_error", code: "route_not_found" })
    expect(reply.headers.get("allow")).toBeNull()
  })

  it("a percent-escaped path parameter is decoded", async () => {
    const reply = await req("GET", "/v1/regions/US%2DCO")
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body).toMatchObject({ regionCode: "US-CO" })
  })

  it("a fragment sent in the request target is not read as part of the query", async () => {
    // fetch drops a fragment; a raw client may send one. `limit=2#x` is the limit 2.
    const url = new URL(server.url)
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: "/v1/regions?limit=2#x",
          method: "GET",
          headers: { authorization: `Bearer ${SECRET}` }
        },
        (response) => {
          response.resume()
          response.on("end", () => resolve(response.statusCode ?? 0))
        }
      )
      request.on("error", reject)
      request.end()
    })
    expect(status).toBe(200)
  })

  it("HEAD is answered as GET, without a body", async () => {
    const reply = await req("HEAD", "/v1/regions/US-CO")
    expect(reply.status).toBe(200)
    expect(reply.text).toBe("")
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/)
    expect(Number(reply.headers.get("content-length"))).toBeGreaterThan(0)
  })
})

describe("request targets that do not start with a single '/'", () => {
  it("'//…' is a 404 route_not_found, never a 500 nor another path's answer", async () => {
    // `//` once reached the URL parser, which throws on a host with no name: a 500. And
    // `//v1/charges` answered as /v1/charges, `//evil.com/v1/charges` as a 405 of /v1/charges.
    const targets = ["//", "//v1/charges", "//evil.com/v1/charges", "//v1/estimates", "///x"]
    for (const target of targets) {
      for (const method of ["GET", "POST"]) {
        const reply = await call(server.url, method, target, {
          ...(method === "POST" ? { body: { amount: 1000, currency: "usd" } } : {})
        })
        expectError(reply, 404, { type: "invalid_request_error", code: "route_not_found" })
      }
    }
  })
})

describe("a database failure that reaches the edge unmapped", () => {
  it("is a 503 in the error shape, logged as unexpected, never a 500", () => {
    // Seen under a PostgreSQL restart (reliability/outage.test.ts): a raw SqlError ("Client has
    // encountered a connection error and is not queryable") became a 500 internal_error.
    for (const _tag of ["SqlError", "StorageError"]) {
      const failure = Edge.failureOf(
        Cause.fail({ _tag, message: "Connection terminated unexpectedly" })
      )
      expect(failure.status, _tag).toBe(503)
      expect(failure.body).toMatchObject({ error: { type: "api_error" } })
      expect(failure.unexpected, _tag).toBe(true)
    }
  })
})

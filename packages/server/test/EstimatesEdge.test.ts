/**
 * `POST /v1/estimates`, the hottest endpoint, through the one edge (http/Edge.ts): every case
 * the fast lane used to be compared on, each with the answer the platform's router gave
 * (status, error type, code and field), and the headers every answer carries. The edge now
 * decodes with the contract's schemas itself (http/Contract.ts), so these pin that it words
 * what it refuses as the router did.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { FeeConfigRepository, Tenant } from "@levy/storage"
import { Context, Layer } from "effect"
import { call, memoryStore, PUBLISHABLE, type Reply, type Running, start } from "./support.js"

const MAX_BODY = 4096
let server: Running
beforeAll(async () => {
  server = await start({ maxBodyBytes: MAX_BODY })
})
afterAll(() => server.close())

const VALID = { amount: 10_000, currency: "usd", region: "US-NY", cardType: "credit" }

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`

/** The headers every answer carries, whatever it is. */
const expectEdgeHeaders = (reply: Reply) => {
  expect(reply.headers.get("request-id")).toMatch(/^req_[0-9a-f]{24}$/)
  expect(reply.headers.get("content-type")).toMatch(/^application\/json/)
}

const cases: ReadonlyArray<{
  readonly name: string
  readonly path?: string
  readonly init: Parameters<typeof call>[3]
  readonly status: number
  readonly error?: { readonly type: string; readonly code?: string; readonly param?: string }
}> = [
  { name: "a valid estimate", init: { body: VALID }, status: 200 },
  { name: "a publishable key", init: { body: VALID, key: PUBLISHABLE }, status: 200 },
  {
    name: "the current Levy-Version",
    init: { body: VALID, headers: { "levy-version": "2025-01" } },
    status: 200
  },
  { name: "a query string", path: "/v1/estimates?source=test", init: { body: VALID }, status: 200 },
  {
    name: "JSON with a charset",
    init: { body: VALID, headers: { "content-type": "application/json; charset=utf-8" } },
    status: 200
  },
  {
    name: "an unknown field",
    init: { body: { ...VALID, surprise: 1 } },
    status: 400,
    error: { type: "invalid_request_error", code: "parameter_unknown", param: "surprise" }
  },
  {
    name: "amount missing",
    init: { body: { currency: "usd" } },
    status: 400,
    error: { type: "invalid_request_error", code: "parameter_missing", param: "amount" }
  },
  {
    name: "a wrongly typed amount",
    init: { body: { ...VALID, amount: "100" } },
    status: 400,
    error: { type: "invalid_request_error", code: "parameter_invalid", param: "amount" }
  },
  {
    name: "an amount the engine refuses",
    init: { body: { ...VALID, amount: 49 } },
    status: 400,
    error: { type: "invalid_request_error", param: "amount" }
  },
  {
    name: "malformed JSON",
    init: { raw: "{not json" },
    status: 400,
    error: { type: "invalid_request_error", code: "body_invalid" }
  },
  {
    name: "JSON that is not an object",
    init: { raw: "[1,2]" },
    status: 400,
    error: { type: "invalid_request_error" }
  },
  {
    name: "JSON nested too deep",
    init: { raw: nested(100) },
    status: 400,
    error: { type: "invalid_request_error", code: "body_invalid" }
  },
  {
    name: "JSON nested too deep with an unknown key (depth is checked first)",
    init: { raw: nested(100), key: "sk_dev_service_nope" },
    status: 400,
    error: { type: "invalid_request_error", code: "body_invalid" }
  },
  {
    name: "an empty JSON body",
    init: { raw: "", headers: { "content-type": "application/json" } },
    status: 400,
    error: { type: "invalid_request_error" }
  },
  {
    name: "an unknown API key",
    init: { body: VALID, key: "sk_dev_service_nope" },
    status: 401,
    error: { type: "authentication_error" }
  },
  {
    name: "a key of no known kind",
    init: { body: VALID, key: "nope" },
    status: 401,
    error: { type: "authentication_error" }
  },
  {
    name: "no API key",
    init: { body: VALID, key: null },
    status: 401,
    error: { type: "authentication_error" }
  },
  {
    name: "an unknown Levy-Version",
    init: { body: VALID, headers: { "levy-version": "1999-01" } },
    status: 400,
    error: { type: "invalid_request_error", param: "Levy-Version" }
  },
  {
    name: "an Idempotency-Key over 255 characters",
    init: { body: VALID, headers: { "idempotency-key": "k".repeat(256) } },
    status: 400,
    error: { type: "invalid_request_error", param: "Idempotency-Key" }
  },
  {
    name: "a body over the limit",
    init: { raw: JSON.stringify({ ...VALID, description: "x".repeat(MAX_BODY) }) },
    status: 413,
    error: { type: "invalid_request_error" }
  },
  {
    name: "a body that is not JSON",
    init: { raw: "amount=1", headers: { "content-type": "text/plain" } },
    status: 400,
    error: { type: "invalid_request_error", code: "content_type_invalid", param: "Content-Type" }
  }
]

describe("POST /v1/estimates through the edge", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const reply = await call(server.url, "POST", c.path ?? "/v1/estimates", c.init)
      expect(reply.status, reply.text).toBe(c.status)
      expectEdgeHeaders(reply)
      if (c.error === undefined) {
        expect(reply.body).toMatchObject({ object: "estimate", region: "US-NY", compliant: true })
        expect(reply.headers.get("levy-version")).toBe("2025-01")
      } else {
        expect(reply.body).toMatchObject({ error: c.error })
      }
    })
  }

  it("answers a cross-origin caller with the CORS headers", async () => {
    const reply = await call(server.url, "POST", "/v1/estimates", {
      body: VALID,
      headers: { origin: "https://shop.example" }
    })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("access-control-allow-origin")).toBe("*")
    expect(reply.headers.get("access-control-expose-headers")).toContain("request-id")
  })
})

describe("a failure inside the handler", () => {
  // A stored configuration the engine refuses is the server's fault: a 500 in the error
  // shape, with the cause logged, and no detail for the client.
  const broken = () =>
    memoryStore().pipe(
      Layer.tap((context) =>
        Context.get(context, FeeConfigRepository).initialize(
          Tenant.make("acct_1", false),
          { percentage: -1, flatFee: 0.3 },
          0
        )
      ),
      Layer.orDie
    )

  it("is a 500 without detail", async () => {
    const failing = await start({ storage: broken() })
    try {
      const reply = await call(failing.url, "POST", "/v1/estimates", { body: VALID })
      expect(reply.status).toBe(500)
      expectEdgeHeaders(reply)
      expect(reply.body).toStrictEqual({
        error: {
          type: "api_error",
          code: expect.any(String),
          message: "An internal error occurred; please retry."
        }
      })
    } finally {
      await failing.close()
    }
  })
})

describe("the rate limit on estimates", () => {
  it("counts every request and answers 429 with Retry-After", async () => {
    const limited = await start({ edge: { test: 2 } })
    try {
      const statuses: Array<number> = []
      let last: Reply | undefined
      for (let i = 0; i < 3; i++) {
        last = await call(limited.url, "POST", "/v1/estimates", { body: VALID })
        statuses.push(last.status)
      }
      expect(statuses).toStrictEqual([200, 200, 429])
      expect(last?.headers.get("retry-after")).toMatch(/^\d+$/)
      expect(last?.headers.get("x-ratelimit-remaining")).toBe("0")
      expect(last?.body).toMatchObject({ error: { type: "rate_limit_error" } })
    } finally {
      await limited.close()
    }
  })
})

describe("an empty body with an Idempotency-Key", () => {
  // The claim reads the (empty) body first; the handler must not then wait for an "end"
  // that has already passed (it hung until the client gave up).
  it("answers a 400 in the error shape, without hanging", async () => {
    const reply = await call(server.url, "POST", "/v1/estimates", {
      raw: "",
      headers: { "idempotency-key": "empty-body", "content-type": "application/json" }
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ error: { type: "invalid_request_error" } })
  })
})

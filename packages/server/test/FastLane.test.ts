/**
 * `POST /v1/estimates` takes the fast lane (http/FastLane.ts) in front of the edge. Every
 * answer — status, headers, body — must be the one the edge and the router give: each case
 * is sent to a server with the lane and to one without it (same limits, same keys, fresh
 * stores), and the answers compared; per-request values (request id, date, reset time) are
 * only checked present.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { FeeConfigRepository, Tenant } from "@levy/storage"
import { Context, Layer } from "effect"
import * as FastLane from "../src/http/FastLane.js"
import { call, memoryStore, PUBLISHABLE, type Reply, type Running, start } from "./support.js"

const MAX_BODY = 4096
let lane: Running
let edge: Running
beforeAll(async () => {
  ;[lane, edge] = await Promise.all([
    start({ maxBodyBytes: MAX_BODY }),
    start({ maxBodyBytes: MAX_BODY, fastLane: false })
  ])
})
afterAll(() => Promise.all([lane.close(), edge.close()]))

const VALID = { amount: 10_000, currency: "usd", region: "US-NY", cardType: "credit" }

/** What must agree between the two servers: the per-request headers are only checked present. */
const comparable = (reply: Reply) => {
  const headers: Record<string, string> = {}
  reply.headers.forEach((value, name) => {
    if (name === "date" || name === "request-id" || name === "x-ratelimit-reset") return
    headers[name] = value
  })
  expect(reply.headers.get("request-id")).toMatch(/^req_[0-9a-f]{24}$/)
  expect(reply.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/)
  return { status: reply.status, headers, body: reply.body ?? reply.text }
}

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`

const cases: ReadonlyArray<{
  readonly name: string
  readonly status: number
  readonly path?: string
  readonly init: Parameters<typeof call>[3]
}> = [
  { name: "a valid estimate", status: 200, init: { body: VALID } },
  { name: "a publishable key", status: 200, init: { body: VALID, key: PUBLISHABLE } },
  {
    name: "a cross-origin caller",
    status: 200,
    init: { body: VALID, headers: { origin: "https://shop.example" } }
  },
  {
    name: "the current Levy-Version",
    status: 200,
    init: { body: VALID, headers: { "levy-version": "2025-01" } }
  },
  { name: "a query string", status: 200, path: "/v1/estimates?source=test", init: { body: VALID } },
  {
    name: "JSON with a charset",
    status: 200,
    init: { body: VALID, headers: { "content-type": "application/json; charset=utf-8" } }
  },
  { name: "an unknown field", status: 400, init: { body: { ...VALID, surprise: 1 } } },
  { name: "amount missing", status: 400, init: { body: { currency: "usd" } } },
  { name: "a wrongly typed amount", status: 400, init: { body: { ...VALID, amount: "100" } } },
  { name: "an amount the engine refuses", status: 400, init: { body: { ...VALID, amount: 49 } } },
  { name: "malformed JSON", status: 400, init: { raw: "{not json" } },
  { name: "JSON that is not an object", status: 400, init: { raw: "[1,2]" } },
  { name: "JSON nested too deep", status: 400, init: { raw: nested(100) } },
  {
    name: "JSON nested too deep with an unknown key (depth is checked first)",
    status: 400,
    init: { raw: nested(100), key: "sk_dev_service_nope" }
  },
  {
    name: "an empty JSON body",
    status: 400,
    init: { raw: "", headers: { "content-type": "application/json" } }
  },
  { name: "an unknown API key", status: 401, init: { body: VALID, key: "sk_dev_service_nope" } },
  { name: "a key of no known kind", status: 401, init: { body: VALID, key: "nope" } },
  // Not the lane's, compared all the same: the edge must still answer them.
  { name: "no API key", status: 401, init: { body: VALID, key: null } },
  {
    name: "an unknown Levy-Version",
    status: 400,
    init: { body: VALID, headers: { "levy-version": "1999-01" } }
  },
  {
    name: "an Idempotency-Key over 255 characters",
    status: 400,
    init: { body: VALID, headers: { "idempotency-key": "k".repeat(256) } }
  },
  {
    name: "a body over the limit",
    status: 413,
    init: { raw: JSON.stringify({ ...VALID, description: "x".repeat(MAX_BODY) }) }
  },
  {
    name: "a body that is not JSON",
    status: 400,
    init: { raw: "amount=1", headers: { "content-type": "text/plain" } }
  }
]

describe("POST /v1/estimates: the fast lane and the edge answer alike", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const path = c.path ?? "/v1/estimates"
      const [fast, routed] = await Promise.all([
        call(lane.url, "POST", path, c.init),
        call(edge.url, "POST", path, c.init)
      ])
      expect(fast.status).toBe(c.status)
      expect(comparable(fast)).toStrictEqual(comparable(routed))
    })
  }
})

describe("a failure inside the handler", () => {
  // A stored configuration the engine refuses is the server's fault: a 500 in the error
  // shape, with the cause logged, on both paths.
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

  it("is a 500 without detail, alike on both paths", async () => {
    const [a, b] = await Promise.all([
      start({ storage: broken() }),
      start({ storage: broken(), fastLane: false })
    ])
    try {
      const [fast, routed] = await Promise.all([
        call(a.url, "POST", "/v1/estimates", { body: VALID }),
        call(b.url, "POST", "/v1/estimates", { body: VALID })
      ])
      expect(fast.status).toBe(500)
      expect(fast.body).toStrictEqual({
        error: {
          type: "api_error",
          code: expect.any(String),
          message: "An internal error occurred; please retry."
        }
      })
      expect(comparable(fast)).toStrictEqual(comparable(routed))
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })
})

describe("the rate limit on the fast lane", () => {
  it("counts as the edge does, and answers 429 with Retry-After alike", async () => {
    const [a, b] = await Promise.all([
      start({ edge: { test: 2 } }),
      start({ edge: { test: 2 }, fastLane: false })
    ])
    try {
      for (const expected of [200, 200, 429]) {
        const [fast, routed] = await Promise.all([
          call(a.url, "POST", "/v1/estimates", { body: VALID }),
          call(b.url, "POST", "/v1/estimates", { body: VALID })
        ])
        expect(fast.status).toBe(expected)
        expect(comparable(fast)).toStrictEqual(comparable(routed))
      }
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })
})

describe("FastLane.takes", () => {
  const base = {
    method: "POST",
    url: "/v1/estimates",
    headers: {
      "content-type": "application/json",
      "content-length": "20",
      authorization: "Bearer sk_dev_service_secret0001"
    }
  }
  const takes = (change: {
    readonly method?: string
    readonly url?: string
    readonly headers?: Record<string, string | undefined>
  }) =>
    FastLane.takes({ ...base, ...change, headers: { ...base.headers, ...change.headers } }, 1024)

  it("takes the plain case", () => {
    expect(takes({})).toBe(true)
    expect(takes({ url: "/v1/estimates?a=1" })).toBe(true)
    expect(takes({ headers: { "levy-version": "2025-01" } })).toBe(true)
    expect(takes({ headers: { "content-type": "Application/JSON; charset=utf-8" } })).toBe(true)
  })

  it("leaves anything else to the edge", () => {
    expect(takes({ method: "GET" })).toBe(false)
    expect(takes({ url: "/v1/estimates/" })).toBe(false)
    expect(takes({ url: "/v1/estimatesx" })).toBe(false)
    expect(takes({ headers: { "content-type": "text/plain" } })).toBe(false)
    expect(takes({ headers: { "content-type": "application/vnd.levy+json" } })).toBe(false)
    expect(takes({ headers: { "content-type": undefined } })).toBe(false)
    expect(takes({ headers: { "content-length": undefined } })).toBe(false)
    expect(takes({ headers: { "content-length": "1025" } })).toBe(false)
    expect(takes({ headers: { "transfer-encoding": "chunked" } })).toBe(false)
    expect(takes({ headers: { "idempotency-key": "k1" } })).toBe(false)
    expect(takes({ headers: { "levy-version": "1999-01" } })).toBe(false)
    expect(takes({ headers: { authorization: undefined } })).toBe(false)
    expect(takes({ headers: { authorization: "Basic abc" } })).toBe(false)
    expect(takes({ headers: { authorization: "Bearer  sk_dev_service_secret0001" } })).toBe(false)
  })
})

describe("an empty body with an Idempotency-Key", () => {
  // The claim reads the (empty) body first; the handler must not then wait for an "end"
  // that has already passed (it hung until the client gave up).
  it("answers a 400 in the error shape, without hanging", async () => {
    const reply = await call(lane.url, "POST", "/v1/estimates", {
      raw: "",
      headers: { "idempotency-key": "empty-body", "content-type": "application/json" }
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ error: { type: "invalid_request_error" } })
  })
})

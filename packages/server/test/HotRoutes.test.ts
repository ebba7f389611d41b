/**
 * The edge dispatches `POST /v1/estimates` itself (http/HotRoutes.ts); `/v1/estimates/`
 * (trailing slash) reaches the same endpoint through the HttpApi router. Every answer —
 * status, headers, body — must be the same on both paths, for successes and for each kind
 * of failure the endpoint has.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { EstimateHandler } from "../src/estimates/EstimatesLive.js"
import * as HotRoutes from "../src/http/HotRoutes.js"
import * as KeyResolver from "../src/KeyResolver.js"
import { call, KEYS, PUBLISHABLE, type Reply, type Running, start } from "./support.js"

let server: Running
beforeAll(async () => {
  server = await start({ maxBodyBytes: 4096 })
})
afterAll(() => server.close())

const VALID = { amount: 10_000, currency: "usd", region: "US-NY", cardType: "credit" }

/** What must agree between the two paths: the per-request headers are only checked present. */
const comparable = (reply: Reply) => {
  const headers: Record<string, string> = {}
  reply.headers.forEach((value, name) => {
    if (name === "date" || name === "request-id" || name.startsWith("x-ratelimit-")) return
    headers[name] = value
  })
  expect(reply.headers.get("request-id")).toMatch(/^req_[0-9a-f]{24}$/)
  expect(reply.headers.get("x-ratelimit-limit")).not.toBeNull()
  return { status: reply.status, headers, body: reply.body ?? reply.text }
}

const cases: ReadonlyArray<{
  readonly name: string
  readonly status: number
  readonly init: Parameters<typeof call>[3]
}> = [
  { name: "a valid estimate", status: 200, init: { body: VALID } },
  { name: "an unknown field", status: 400, init: { body: { ...VALID, surprise: 1 } } },
  { name: "amount missing", status: 400, init: { body: { currency: "usd" } } },
  { name: "an amount the engine refuses", status: 400, init: { body: { ...VALID, amount: 49 } } },
  { name: "malformed JSON", status: 400, init: { raw: "{not json" } },
  {
    name: "an empty JSON body",
    status: 400,
    init: { raw: "", headers: { "content-type": "application/json" } }
  },
  { name: "no API key", status: 401, init: { body: VALID, key: null } },
  { name: "an unknown API key", status: 401, init: { body: VALID, key: "sk_dev_service_nope" } },
  {
    name: "an Idempotency-Key over 255 characters",
    status: 400,
    init: { body: VALID, headers: { "idempotency-key": "k".repeat(256) } }
  },
  {
    name: "JSON with a charset",
    status: 200,
    init: { body: VALID, headers: { "content-type": "application/json; charset=utf-8" } }
  },
  {
    name: "a body over the limit (no Content-Length check: it is the JSON that is long)",
    status: 413,
    init: { raw: JSON.stringify({ ...VALID, description: "x".repeat(5000) }) }
  }
]

describe("POST /v1/estimates: direct dispatch and the router answer alike", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const direct = await call(server.url, "POST", "/v1/estimates", c.init)
      const routed = await call(server.url, "POST", "/v1/estimates/", c.init)
      expect(direct.status).toBe(c.status)
      expect(comparable(direct)).toStrictEqual(comparable(routed))
    })
  }

  // Not compared with the router: its path (trailing slash) is not one publishable keys may call.
  it("a publishable key may estimate directly", async () => {
    const direct = await call(server.url, "POST", "/v1/estimates", {
      body: VALID,
      key: PUBLISHABLE
    })
    expect(direct.status).toBe(200)
    expect((direct.body as { object: string }).object).toBe("estimate")
  })

  it("a query string still reaches the endpoint directly, with the same answer", async () => {
    const direct = await call(server.url, "POST", "/v1/estimates?source=test", { body: VALID })
    const routed = await call(server.url, "POST", "/v1/estimates/", { body: VALID })
    expect(direct.status).toBe(200)
    expect(comparable(direct)).toStrictEqual(comparable(routed))
  })
})

describe("HotRoutes.dispatch", () => {
  const viaRouter = Effect.succeed(HttpServerResponse.text("router"))
  const edge = { key: Option.none(), maxBodyBytes: 1024 }
  const request = (url: string, method: string, contentType?: string) =>
    HttpServerRequest.fromWeb(
      new Request(`http://levy.invalid${url}`, {
        method,
        ...(contentType === undefined ? {} : { headers: { "content-type": contentType } })
      })
    )

  it.effect("takes POST /v1/estimates with a JSON body; leaves anything else to the router", () =>
    Effect.gen(function* () {
      const hot = yield* HotRoutes.make
      const routed = (r: HttpServerRequest.HttpServerRequest) =>
        hot.dispatch(r, edge, viaRouter) === viaRouter
      expect(routed(request("/v1/estimates", "POST", "application/json"))).toBe(false)
      expect(routed(request("/v1/estimates?a=1", "POST"))).toBe(false)
      expect(routed(request("/v1/estimates/", "POST", "application/json"))).toBe(true)
      expect(routed(request("/v1/estimates", "GET"))).toBe(true)
      expect(routed(request("/v1/estimates", "POST", "text/plain"))).toBe(true)
      expect(routed(request("/v1/estimatesx", "POST", "application/json"))).toBe(true)
    }).pipe(
      Effect.provide(
        Layer.mergeAll(
          KeyResolver.layerMemory(KEYS),
          Layer.succeed(EstimateHandler, () => Effect.dieMessage("not called"))
        )
      )
    )
  )
})

describe("an empty body with an Idempotency-Key", () => {
  // The claim reads the (empty) body first; the hot route must not then wait for an "end"
  // that has already passed (it hung until the client gave up).
  it("answers a 400 in the error shape on both paths, without hanging", async () => {
    for (const path of ["/v1/estimates", "/v1/estimates/"]) {
      const reply = await call(server.url, "POST", path, {
        raw: "",
        headers: { "idempotency-key": `empty-${path}`, "content-type": "application/json" }
      })
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ error: { type: "invalid_request_error" } })
    }
  })
})

/**
 * Rate limits per key (docs/design.md §9) over real HTTP with a small injected limit, and the
 * limiter's counting for limits that do not divide the window: on the memory store, and on
 * the real Redis at 127.0.0.1:6379 (REDIS_URL overrides), shared between two server
 * processes' worth of servers.
 */
import { randomBytes } from "node:crypto"
import { Socket } from "node:net"
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Either, type Layer } from "effect"
import * as RateLimitStore from "../src/http/RateLimitStore.js"
import { call, LIVE_SECRET, PUBLISHABLE, type Running, SECRET, start, WINDOW } from "./support.js"

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"

const reachable = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = new Socket()
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once("error", () => done(false))
    socket.connect(Number(port || 6379), hostname, () => done(true))
  })

const redisUp = await reachable(REDIS_URL)
if (!redisUp) {
  if (process.env.CI === "true") throw new Error(`Redis at ${REDIS_URL} is unreachable and CI=true`)
  console.warn(`\n!!! SKIPPING the Redis rate-limit tests: no Redis at ${REDIS_URL} !!!\n`)
}

const LIMIT = 3
const running: Array<Running> = []
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()))
})

const serve = async (limiter: Layer.Layer<RateLimiter.RateLimiter>) => {
  const server = await start({
    edge: { test: LIMIT, live: LIMIT + 2, anonymous: LIMIT, window: WINDOW },
    limiter
  })
  running.push(server)
  return server
}

const suite = (name: string, makeLimiter: () => Layer.Layer<RateLimiter.RateLimiter>) => {
  it(`${name}: limit + 1 requests give exactly one 429, the last, with Retry-After`, async () => {
    const server = await serve(makeLimiter())
    const replies = []
    for (let i = 0; i <= LIMIT; i++)
      replies.push(await call(server.url, "GET", "/v1/regions/US-CO"))
    expect(replies.map((r) => r.status)).toStrictEqual([200, 200, 200, 429])
    expect(replies.map((r) => r.headers.get("x-ratelimit-remaining"))).toStrictEqual([
      "2",
      "1",
      "0",
      "0"
    ])
    for (const r of replies) expect(r.headers.get("x-ratelimit-limit")).toBe(String(LIMIT))
    expect(replies.slice(0, LIMIT).every((r) => r.headers.get("retry-after") === null)).toBe(true)
    const limited = replies[LIMIT]!
    const retryAfter = Number(limited.headers.get("retry-after"))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(600)
    expect(limited.headers.get("request-id")).toMatch(/^req_/)
    expect(limited.body).toStrictEqual({
      error: {
        type: "rate_limit_error",
        code: "rate_limit_exceeded",
        message: (limited.body as { error: { message: string } }).error.message
      }
    })
    // Another key of the same server has its own budget; the live key its larger limit.
    const other = await call(server.url, "GET", "/v1/regions/US-CO", { key: PUBLISHABLE })
    expect(other.status).toBe(200)
    const live = await call(server.url, "GET", "/v1/regions/US-CO", { key: LIVE_SECRET })
    expect(live.headers.get("x-ratelimit-limit")).toBe(String(LIMIT + 2))
    expect(live.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT + 1))
  })

  it(`${name}: limit + 1 concurrent requests still give exactly one 429`, async () => {
    const server = await serve(makeLimiter())
    const replies = await Promise.all(
      Array.from({ length: LIMIT + 1 }, () => call(server.url, "GET", "/v1/regions/US-CO"))
    )
    expect(replies.filter((r) => r.status === 429)).toHaveLength(1)
    expect(replies.filter((r) => r.status === 200)).toHaveLength(LIMIT)
    expect(replies.map((r) => r.headers.get("x-ratelimit-remaining")).sort()).toStrictEqual([
      "0",
      "0",
      "1",
      "2"
    ])
  })

  // Redis keeps whole milliseconds: a per-request share of the window like 60,000 / 7 or
  // 60,000 / 1,000,000 used to fail every request (a 503).
  it.effect(
    `${name}: limits that do not divide the window, and very large ones, count exactly`,
    () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter.RateLimiter
        const take = (key: string, limit: number) =>
          Effect.either(
            limiter.consume({
              key,
              limit,
              window: Duration.minutes(1),
              algorithm: "fixed-window",
              onExceeded: "fail"
            })
          )
        const outcome = (
          e: Either.Either<RateLimiter.ConsumeResult, RateLimiter.RateLimiterError>
        ) => (Either.isRight(e) ? e.right.remaining : e.left.reason)
        const seven = yield* Effect.forEach(Array.from({ length: 8 }), () => take("seven", 7))
        expect(seven.map(outcome)).toStrictEqual([6, 5, 4, 3, 2, 1, 0, "Exceeded"])
        // Seven requests at 60,000 / 7 ms each: the window ends a minute on.
        const last = seven[6]!
        const resetMs = Either.isRight(last) ? Duration.toMillis(last.right.resetAfter) : Number.NaN
        expect(resetMs).toBeGreaterThan(59_000)
        expect(resetMs).toBeLessThanOrEqual(60_000)
        // A million a minute drains 0.06 ms per request: whether the next one still finds
        // it counted depends on timing, but each is taken: none refused, no store failure.
        const big = yield* Effect.forEach(Array.from({ length: 3 }), () => take("big", 1_000_000))
        for (const remaining of big.map(outcome)) {
          expect(remaining).toBeGreaterThanOrEqual(999_997)
          expect(remaining).toBeLessThanOrEqual(999_999)
        }
      }).pipe(Effect.provide(makeLimiter()))
  )

  it(`${name}: requests without a valid key are limited too (per address)`, async () => {
    const server = await serve(makeLimiter())
    const statuses = []
    for (let i = 0; i <= LIMIT; i++) {
      statuses.push(
        (await call(server.url, "GET", "/v1/regions", { key: "sk_dev_service_nope" })).status
      )
    }
    expect(statuses).toStrictEqual([401, 401, 401, 429])
  })
}

describe("rate limits, memory store", () => {
  suite("memory", () => RateLimitStore.layerMemory)

  it("memory: each server has its own store", async () => {
    const a = await serve(RateLimitStore.layerMemory)
    const b = await serve(RateLimitStore.layerMemory)
    for (let i = 0; i < LIMIT; i++) await call(a.url, "GET", "/v1/regions/US-CO")
    expect((await call(a.url, "GET", "/v1/regions/US-CO")).status).toBe(429)
    expect((await call(b.url, "GET", "/v1/regions/US-CO")).status).toBe(200)
  })
})

describe.skipIf(!redisUp)("rate limits, real Redis store", () => {
  // A fresh key prefix per test: runs never see each other's counters.
  const fresh = () => `levy:test:${randomBytes(6).toString("hex")}:`
  suite("redis", () => RateLimitStore.layerRedis(REDIS_URL, fresh()))

  it("redis: two servers on one Redis share one limit", async () => {
    const prefix = fresh()
    const a = await serve(RateLimitStore.layerRedis(REDIS_URL, prefix))
    const b = await serve(RateLimitStore.layerRedis(REDIS_URL, prefix))
    const statuses = [
      (await call(a.url, "GET", "/v1/regions/US-CO")).status,
      (await call(b.url, "GET", "/v1/regions/US-CO")).status,
      (await call(a.url, "GET", "/v1/regions/US-CO")).status,
      (await call(b.url, "GET", "/v1/regions/US-CO")).status
    ]
    expect(statuses).toStrictEqual([200, 200, 200, 429])
  })

  it("redis: an unreachable Redis is a 503 in the spec's shape, with a request-id", async () => {
    const server = await serve(RateLimitStore.layerRedis("redis://127.0.0.1:1", fresh()))
    const reply = await call(server.url, "GET", "/v1/regions/US-CO", { key: SECRET })
    expect(reply.status).toBe(503)
    expect(reply.body).toMatchObject({ error: { type: "api_error", code: "service_unavailable" } })
    expect(reply.headers.get("request-id")).toMatch(/^req_/)
  }, 20_000)
})

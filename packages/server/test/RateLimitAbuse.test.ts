/**
 * Rate limits under abuse (docs/design.md §9, and the Redis outage
 * choice): made-up keys cost no key lookup once their address is over its limit; a public
 * (publishable) key's budget is per client address, so one client cannot stop a merchant's
 * checkout for everyone; a forwarded address counts only from a configured proxy; and an
 * operator may let estimates go on while Redis is down, writes never.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as KeyResolver from "../src/access/KeyResolver.js"
import * as ClientAddress from "../src/http/ClientAddress.js"
import * as RateLimitStore from "../src/http/RateLimitStore.js"
import {
  call,
  KEYS,
  LIVE_SECRET,
  PUBLISHABLE,
  type Running,
  SECRET,
  start,
  WINDOW
} from "./support.js"

const LIMIT = 3
const running: Array<Running> = []
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()))
})

const serve = async (options: Parameters<typeof start>[0] = {}) => {
  const server = await start({
    edge: { test: LIMIT, live: LIMIT, anonymous: LIMIT, window: WINDOW },
    ...options
  })
  running.push(server)
  return server
}

const estimate = (url: string, key: string, headers: Record<string, string> = {}) =>
  call(url, "POST", "/v1/estimates", { body: { amount: 1000, currency: "usd" }, key, headers })

describe("made-up keys (item 13)", () => {
  it("over its address's limit, a random well-formed key costs no lookup", async () => {
    let lookups = 0
    const inner = KeyResolver.memory(KEYS)
    const counting = Layer.succeed(KeyResolver.KeyResolver, {
      resolve: (secret) =>
        Effect.suspend(() => {
          lookups++
          return inner.resolve(secret)
        })
    })
    const server = await serve({ resolver: counting })
    const statuses: Array<number> = []
    for (let i = 0; i < LIMIT + 5; i++) {
      const made = `sk_dev_service_${i}${"x".repeat(24)}`
      statuses.push((await estimate(server.url, made)).status)
    }
    expect(statuses).toStrictEqual([401, 401, 401, 429, 429, 429, 429, 429])
    expect(lookups).toBe(LIMIT)
  })
})

describe("publishable keys and client addresses (item 8)", () => {
  const PROXY = ["127.0.0.1", "::1", "::ffff:127.0.0.1"]

  it("one client spending a publishable key's budget leaves other clients theirs", async () => {
    const server = await serve({ trustedProxies: PROXY })
    const from = (client: string) => ({ "x-forwarded-for": client })
    for (let i = 0; i < LIMIT; i++) {
      expect((await estimate(server.url, PUBLISHABLE, from("203.0.113.7"))).status).toBe(200)
    }
    expect((await estimate(server.url, PUBLISHABLE, from("203.0.113.7"))).status).toBe(429)
    // Another shopper, the same public key: still served.
    expect((await estimate(server.url, PUBLISHABLE, from("198.51.100.9"))).status).toBe(200)
  })

  it("without a configured proxy, X-Forwarded-For is ignored: no escaping one's bucket", async () => {
    const server = await serve()
    for (let i = 0; i < LIMIT; i++) {
      expect(
        (await estimate(server.url, PUBLISHABLE, { "x-forwarded-for": `10.0.0.${i}` })).status
      ).toBe(200)
    }
    const spoofed = await estimate(server.url, PUBLISHABLE, { "x-forwarded-for": "10.0.0.99" })
    expect(spoofed.status).toBe(429)
  })

  it("anonymous requests behind a proxy are counted per client, not all as the proxy", async () => {
    const server = await serve({ trustedProxies: PROXY })
    const anon = (client: string) =>
      call(server.url, "GET", "/v1/regions", { key: null, headers: { "x-forwarded-for": client } })
    for (let i = 0; i < LIMIT; i++) expect((await anon("203.0.113.1")).status).toBe(401)
    expect((await anon("203.0.113.1")).status).toBe(429)
    expect((await anon("203.0.113.2")).status).toBe(401)
  })

  it("ClientAddress: the nearest untrusted hop, only through trusted proxies", () => {
    const trusted = ClientAddress.proxies(["10.0.0.0/8", "2001:db8::1"])
    expect(ClientAddress.of("10.1.1.1", "1.2.3.4, 10.2.2.2", trusted)).toBe("1.2.3.4")
    expect(ClientAddress.of("2001:db8::1", "5.6.7.8", trusted)).toBe("5.6.7.8")
    // A client's own X-Forwarded-For entries before the proxy's hop are not believed.
    expect(ClientAddress.of("10.1.1.1", "9.9.9.9, 1.2.3.4", trusted)).toBe("1.2.3.4")
    expect(ClientAddress.of("8.8.8.8", "1.2.3.4", trusted)).toBe("8.8.8.8")
    expect(ClientAddress.of("10.1.1.1", "not-an-ip", trusted)).toBe("10.1.1.1")
    expect(ClientAddress.of("10.1.1.1", "1.2.3.4", undefined)).toBe("10.1.1.1")
    expect(ClientAddress.isProxyEntry("10.0.0.0/8")).toBe(true)
    expect(ClientAddress.isProxyEntry("10.0.0.0/33")).toBe(false)
    expect(ClientAddress.isProxyEntry("proxy.internal")).toBe(false)
  })
})

describe("what a 429 says", () => {
  const messageOf = (reply: { body: unknown }) =>
    (reply.body as { error: { message: string } }).error.message
  const exhaust = async (send: () => Promise<{ status: number; body: unknown }>) => {
    for (let i = 0; i < LIMIT; i++) await send()
    const reply = await send()
    expect(reply.status).toBe(429)
    return messageOf(reply)
  }

  it("a test key's names its limit and the setting that raises it on a server one runs oneself", async () => {
    const server = await serve()
    const message = await exhaust(() => estimate(server.url, SECRET))
    expect(message).toContain(
      `requests with this test-mode API key: the limit is ${LIMIT} per 10 minutes`
    )
    expect(message).toContain("LEVY_RATE_LIMIT_TEST")
  })

  it("a live key's and an address's name their limit, and no setting", async () => {
    const server = await serve()
    const live = await exhaust(() => estimate(server.url, LIVE_SECRET))
    expect(live).toContain("requests with this live-mode API key")
    expect(live).not.toContain("LEVY_RATE_LIMIT")
    const anonymous = await exhaust(() => call(server.url, "GET", "/v1/regions", { key: null }))
    expect(anonymous).toContain("requests without a valid API key from this address")
  })
})

describe("IPv6 clients per /64 (second review, item 11)", () => {
  const PROXY = ["127.0.0.1", "::1", "::ffff:127.0.0.1"]
  // Every address of one /64: what a single subscriber's line is given.
  const inOne64 = (i: number) => `2001:db8:aa:bb:${i.toString(16)}::${i + 1}`

  it("anonymous requests: a new address in the same /64 is the same bucket; another /64 is not", async () => {
    const server = await serve({ trustedProxies: PROXY })
    const anon = (client: string) =>
      call(server.url, "GET", "/v1/regions", { key: null, headers: { "x-forwarded-for": client } })
    const statuses: Array<number> = []
    for (let i = 0; i < LIMIT + 3; i++) statuses.push((await anon(inOne64(i))).status)
    expect(statuses).toStrictEqual([401, 401, 401, 429, 429, 429])
    expect((await anon("2001:db8:aa:bc::1")).status).toBe(401)
  })

  it("a publishable key: one /64 spends one client's budget, whatever addresses it rotates through", async () => {
    const server = await serve({ trustedProxies: PROXY })
    const statuses: Array<number> = []
    for (let i = 0; i < LIMIT + 2; i++) {
      statuses.push(
        (await estimate(server.url, PUBLISHABLE, { "x-forwarded-for": inOne64(i) })).status
      )
    }
    expect(statuses).toStrictEqual([200, 200, 200, 429, 429])
    const other = await estimate(server.url, PUBLISHABLE, { "x-forwarded-for": "2001:db8:ab::1" })
    expect(other.status).toBe(200)
  })

  it("limitKey: IPv4 as itself, IPv4-mapped IPv6 as its IPv4, IPv6 by its /64", () => {
    expect(ClientAddress.limitKey("203.0.113.7")).toBe("203.0.113.7")
    expect(ClientAddress.limitKey("::ffff:203.0.113.7")).toBe("203.0.113.7")
    expect(ClientAddress.limitKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64")
    expect(ClientAddress.limitKey("2001:0db8:0001:0002::9")).toBe("2001:db8:1:2::/64")
    expect(ClientAddress.limitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64")
    expect(ClientAddress.limitKey(undefined)).toBe("unknown")
  })
})

describe("Redis down (the limiter's store unavailable)", () => {
  const down = () => RateLimitStore.layerRedis("redis://127.0.0.1:1", "levy:test:down:")

  it("fails closed by default: estimates and writes are 503s", async () => {
    const server = await serve({ limiter: down() })
    expect((await estimate(server.url, PUBLISHABLE)).status).toBe(503)
    const charge = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 1000, currency: "usd" }
    })
    expect(charge.status).toBe(503)
  }, 30_000)

  it("failOpenEstimates: estimates go on (no rate-limit headers), writes still fail closed", async () => {
    const server = await serve({
      limiter: down(),
      edge: {
        test: LIMIT,
        live: LIMIT,
        anonymous: LIMIT,
        window: WINDOW,
        failOpenEstimates: true
      }
    })
    const reply = await estimate(server.url, PUBLISHABLE)
    expect(reply.status, reply.text).toBe(200)
    expect(reply.headers.get("x-ratelimit-remaining")).toBeNull()
    const charge = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 1000, currency: "usd" }
    })
    expect(charge.status).toBe(503)
  }, 30_000)
})

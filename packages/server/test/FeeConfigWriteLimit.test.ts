/**
 * The fee-configuration write limit (docs/design.md §9; second review, item 5): one key
 * looping small live-mode lowerings, each costing a fee-raise decision, is stopped at the
 * account's write limit with a 429 that says which limit it is, while the account's other
 * requests and other accounts go on; the approve and cancel of a held change count too; the
 * count is kept in the limiter's store, so two server processes on one Redis share it.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as RateLimitStore from "../src/http/RateLimitStore.js"
import { call, KEYS, LIVE_SECRET, type Running, SECRET, start, WINDOW } from "./support.js"

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
const WRITES = 3
const LIVE_2 = "sk_prod_service_secret0102"
const OTHER_LIVE = "sk_prod_service_secret0103"
const keys = [
  ...KEYS,
  { secret: LIVE_2, accountId: "acct_1", keyId: "key_sk_prod_2" },
  { secret: OTHER_LIVE, accountId: "acct_2", keyId: "key_other_prod" }
]

const running: Array<Running> = []
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()))
})

const serve = async (options: Parameters<typeof start>[0] = {}) => {
  const server = await start({
    keys,
    edge: { feeConfigWrites: WRITES, window: WINDOW },
    ...options
  })
  running.push(server)
  return server
}

const lower = (url: string, percentage: number, key = LIVE_SECRET) =>
  call(url, "POST", "/v1/fee-configs", { body: { percentage }, key })

describe("fee configuration writes have their own limit", () => {
  it("a loop of live lowerings from one key is stopped at the limit; estimates and other accounts go on", async () => {
    const server = await serve()
    const statuses: Array<number> = []
    for (const percentage of [2.8, 2.7, 2.6, 2.5, 2.4]) {
      statuses.push((await lower(server.url, percentage)).status)
    }
    expect(statuses).toStrictEqual([200, 200, 200, 429, 429])

    const refused = await lower(server.url, 1)
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({
      error: { type: "rate_limit_error", code: "rate_limit_exceeded" }
    })
    const message = (refused.body as { error: { message: string } }).error.message
    expect(message).toContain("fee configuration changes for this account in live mode")
    expect(message).toContain(`${WRITES} per 10 minutes`)
    expect(message).toContain("LEVY_RATE_LIMIT_FEE_CONFIG_WRITES")
    expect(refused.headers.get("retry-after")).not.toBeNull()
    expect(refused.headers.get("x-ratelimit-limit")).toBe(String(WRITES))
    // Nothing changed: the last change let through is in force.
    const config = await call(server.url, "GET", "/v1/fee-configs", { key: LIVE_SECRET })
    expect(config.body).toMatchObject({ percentage: 2.6 })

    // Another key of the same account and mode shares the account's budget...
    expect((await lower(server.url, 1, LIVE_2)).status).toBe(429)
    // ...but the account's other requests, its test mode and other accounts do not.
    const estimate = await call(server.url, "POST", "/v1/estimates", {
      body: { amount: 10_000, currency: "usd" },
      key: LIVE_SECRET
    })
    expect(estimate.status).toBe(200)
    expect(estimate.headers.get("x-ratelimit-limit")).toBe("1000")
    expect((await lower(server.url, 2, SECRET)).status).toBe(200)
    expect((await lower(server.url, 2, OTHER_LIVE)).status).toBe(200)
  })

  it("approving and cancelling a held change count against the same limit", async () => {
    const server = await serve()
    const raise = await lower(server.url, 3.5)
    expect(raise.body).toMatchObject({ updated: false })
    expect(
      (await call(server.url, "POST", "/v1/fee-configs/pending/cancel", { key: LIVE_SECRET }))
        .status
    ).toBe(200)
    const again = await lower(server.url, 3.5)
    expect(again.body).toMatchObject({ updated: false })
    const id = (again.body as { pendingChange: { id: string } }).pendingChange.id
    const approve = await call(server.url, "POST", "/v1/fee-configs/pending/approve", {
      key: LIVE_2,
      body: { id }
    })
    expect(approve.status).toBe(429)
    // Reading the configuration is not a change.
    expect((await call(server.url, "GET", "/v1/fee-configs", { key: LIVE_SECRET })).status).toBe(
      200
    )
  })

  it("two server processes on one Redis share the account's limit", async () => {
    const prefix = `levy:test:feewrites:${Date.now()}:`
    const a = await serve({ limiter: RateLimitStore.layerRedis(REDIS_URL, prefix) })
    const b = await serve({ limiter: RateLimitStore.layerRedis(REDIS_URL, prefix) })
    const statuses = [
      (await lower(a.url, 2.8)).status,
      (await lower(b.url, 2.7)).status,
      (await lower(a.url, 2.6)).status,
      (await lower(b.url, 2.5)).status
    ]
    expect(statuses).toStrictEqual([200, 200, 200, 429])
  })
})

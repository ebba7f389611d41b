/**
 * `levy listen` shares the key's rate limit with the integrator: the pacing rule, and a real
 * listener against a server allowing 8 requests a minute, after which the integrator's own
 * calls still get through.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Pace from "../src/cli/Pace.js"
import { levy, type Proc, waitFor } from "./levyProcess.js"
import { call, type Running, SECRET, start } from "./support.js"

describe("Pace.delayMs", () => {
  const now = 1_000_000
  const state = (remaining: number, limit = 100) => ({ limit, remaining, resetAtMs: now + 60_000 })

  it("spreads the listener's quarter of the limit over what is left of the window", () => {
    // 100 a minute: 75 are kept for the integrator; 99 left means 24 polls over 60 s.
    expect(Pace.delayMs(state(99), now)).toBe(2_500)
    expect(Pace.delayMs(state(76), now)).toBe(60_000)
  })

  it("waits for the reset once the share is spent, whoever spent it", () => {
    expect(Pace.delayMs(state(75), now)).toBe(60_000)
    expect(Pace.delayMs(state(0), now)).toBe(60_000)
  })

  it("never polls faster than twice a second, even under a generous limit", () => {
    expect(Pace.delayMs(state(9_999, 10_000), now)).toBe(Pace.MIN_INTERVAL_MS)
    expect(Pace.delayMs(undefined, now)).toBe(Pace.MIN_INTERVAL_MS)
  })

  it("reads the server's x-ratelimit headers", () => {
    const headers = new Headers({
      "x-ratelimit-limit": "100",
      "x-ratelimit-remaining": "42",
      "x-ratelimit-reset": "1700000060"
    })
    expect(Pace.fromHeaders(headers)).toStrictEqual({
      limit: 100,
      remaining: 42,
      resetAtMs: 1_700_000_060_000
    })
    expect(Pace.fromHeaders(new Headers())).toBeUndefined()
  })
})

describe("levy listen against a small rate limit", () => {
  let server: Running
  let proc: Proc | undefined

  beforeAll(async () => {
    server = await start({ edge: { test: 8 } })
  })
  afterAll(async () => {
    if (proc?.child.exitCode === null) proc.child.kill("SIGKILL")
    await server.close()
  })

  it("leaves the integrator's calls within the limit while it listens", async () => {
    proc = levy([
      "listen",
      "--forward-to",
      "http://127.0.0.1:9/hooks",
      "--api-base",
      server.url,
      "--api-key",
      SECRET
    ])
    await waitFor(proc, /Ready!/)
    // Polling twice a second, it would have spent the 8 of this minute in these 3 s.
    await new Promise((r) => setTimeout(r, 3_000))
    const statuses: Array<number> = []
    for (let i = 0; i < 6; i++) {
      statuses.push((await call(server.url, "GET", "/v1/charges?limit=1", { key: SECRET })).status)
    }
    expect(statuses).toStrictEqual([200, 200, 200, 200, 200, 200])
    expect(proc.stderr).not.toContain("429")
    proc.child.kill("SIGTERM")
    await proc.exited
  }, 150_000)
})

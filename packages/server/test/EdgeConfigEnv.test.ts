/** The edge's limits and the server's client timeouts from the environment (`levy serve`). */
import { ConfigProvider, Duration, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import * as Timeouts from "../src/cli/Timeouts.js"
import { defaults } from "../src/http/EdgeConfig.js"
import * as EdgeConfigEnv from "../src/http/EdgeConfigEnv.js"
import { defaultTimeouts } from "../src/Server.js"

const withEnv = <A, E>(effect: Effect.Effect<A, E>, env: Record<string, string>) =>
  Effect.runSyncExit(
    Effect.withConfigProvider(effect, ConfigProvider.fromMap(new Map(Object.entries(env))))
  )

describe("edge limits from the environment", () => {
  it("are production's when nothing is set", () => {
    expect(withEnv(EdgeConfigEnv.fromEnv, {})).toEqual(Exit.succeed(defaults))
  })

  it("take each setting that is given", () => {
    const exit = withEnv(EdgeConfigEnv.fromEnv, {
      LEVY_RATE_LIMIT_TEST: "5",
      LEVY_RATE_LIMIT_FEE_CONFIG_WRITES: "2",
      LEVY_RATE_LIMIT_WINDOW_MS: "2500",
      LEVY_MAX_BODY_BYTES: "100"
    })
    expect(Exit.isSuccess(exit)).toBe(true)
    if (!Exit.isSuccess(exit)) return
    expect(exit.value.rateLimits.test).toBe(5)
    expect(exit.value.rateLimits.live).toBe(defaults.rateLimits.live)
    expect(exit.value.rateLimits.feeConfigWrites).toBe(2)
    expect(defaults.rateLimits.feeConfigWrites).toBe(6)
    expect(Duration.toMillis(exit.value.rateLimits.window)).toBe(2500)
    expect(exit.value.maxBodyBytes).toBe(100)
  })

  it("take the trusted proxies and the fail-open choice; refuse what is not one", () => {
    const exit = withEnv(EdgeConfigEnv.fromEnv, {
      LEVY_TRUSTED_PROXIES: "10.0.0.0/8, 192.168.1.5,::1",
      LEVY_RATE_LIMIT_FAIL_OPEN: "estimates"
    })
    expect(Exit.isSuccess(exit) && exit.value.trustedProxies).toStrictEqual([
      "10.0.0.0/8",
      "192.168.1.5",
      "::1"
    ])
    expect(Exit.isSuccess(exit) && exit.value.rateLimits.failOpenEstimates).toBe(true)
    expect(
      Exit.isFailure(withEnv(EdgeConfigEnv.fromEnv, { LEVY_TRUSTED_PROXIES: "lb.internal" }))
    ).toBe(true)
    expect(
      Exit.isFailure(withEnv(EdgeConfigEnv.fromEnv, { LEVY_RATE_LIMIT_FAIL_OPEN: "all" }))
    ).toBe(true)
  })

  it("refuse a value that is not a positive integer", () => {
    expect(Exit.isFailure(withEnv(EdgeConfigEnv.fromEnv, { LEVY_RATE_LIMIT_LIVE: "0" }))).toBe(true)
    expect(Exit.isFailure(withEnv(EdgeConfigEnv.fromEnv, { LEVY_RATE_LIMIT_TEST: "ten" }))).toBe(
      true
    )
  })
})

describe("client timeouts from the environment", () => {
  it("default to 10 s for headers and 30 s per request", () => {
    expect(withEnv(Timeouts.fromEnv, {})).toEqual(Exit.succeed(defaultTimeouts))
  })

  it("keep the request timeout at least the headers timeout (node requires it)", () => {
    const exit = withEnv(Timeouts.fromEnv, {
      LEVY_HEADERS_TIMEOUT_MS: "2000",
      LEVY_REQUEST_TIMEOUT_MS: "500"
    })
    expect(exit).toEqual(Exit.succeed({ headersMs: 2000, requestMs: 2000, checkIntervalMs: 1000 }))
  })
})

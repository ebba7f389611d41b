/** The retry schedule as a pure function: backoff, jitter bounds, Retry-After, the give-up horizon. */

import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { DEFAULT_RETRY } from "../src/webhookDeliveries/DispatcherConfig.js"
import * as DispatcherEnv from "../src/webhookDeliveries/DispatcherEnv.js"
import { baseDelayMs, next, parseRetryAfter } from "../src/webhookDeliveries/RetryPolicy.js"

const MIN = 60_000
const HOUR = 60 * MIN
const NOW = 1_800_000_000_000

const failed = (attempts: number, fields: Partial<Parameters<typeof next>[1]> = {}) =>
  next(DEFAULT_RETRY, {
    attempts,
    statusCode: 500,
    retryAfter: null,
    nowMs: NOW,
    createdMs: NOW,
    random: 0.5,
    ...fields
  })

describe("webhook retry policy", () => {
  it("doubles from 1 minute up to 12 hours", () => {
    expect([1, 2, 3, 4, 10, 11, 30].map((n) => baseDelayMs(DEFAULT_RETRY, n))).toEqual([
      MIN,
      2 * MIN,
      4 * MIN,
      8 * MIN,
      512 * MIN,
      12 * HOUR,
      12 * HOUR
    ])
  })

  it("jitters within ±20 %", () => {
    expect(failed(3, { random: 0 })).toEqual({ retryAtMs: NOW + 0.8 * 4 * MIN })
    expect(failed(3, { random: 0.5 })).toEqual({ retryAtMs: NOW + 4 * MIN })
    expect(failed(3, { random: 0.999_999 })).toEqual({
      retryAtMs: NOW + Math.round(4 * MIN * (1 + 0.2 * (2 * 0.999_999 - 1)))
    })
  })

  it("gives up once the next attempt would fall after 3 days", () => {
    expect(failed(11, { createdMs: NOW - 60 * HOUR })).toEqual({ retryAtMs: NOW + 12 * HOUR })
    expect(failed(11, { createdMs: NOW - 61 * HOUR })).toBe("failed")
  })

  it("honours Retry-After (seconds or a date) on 429 and 503 only", () => {
    expect(failed(1, { statusCode: 429, retryAfter: "120" })).toEqual({
      retryAtMs: NOW + 120_000
    })
    const date = new Date(NOW + 30 * MIN).toUTCString()
    expect(failed(1, { statusCode: 503, retryAfter: date })).toEqual({
      retryAtMs: NOW + 30 * MIN
    })
    // Elsewhere, or unparsable: the backoff.
    expect(failed(1, { statusCode: 500, retryAfter: "120" })).toEqual({ retryAtMs: NOW + MIN })
    expect(failed(1, { statusCode: 503, retryAfter: "soon" })).toEqual({ retryAtMs: NOW + MIN })
  })

  it("Retry-After only lengthens the wait: a receiver cannot make Levy retry sooner than its backoff", () => {
    // The second security review, item 6: `503` with `Retry-After: 0` was retried at once,
    // one POST per poll (140 in 30 s for one event).
    expect(failed(1, { statusCode: 503, retryAfter: "0" })).toEqual({ retryAtMs: NOW + MIN })
    expect(failed(3, { statusCode: 429, retryAfter: "30" })).toEqual({ retryAtMs: NOW + 4 * MIN })
    const past = new Date(NOW - HOUR).toUTCString()
    expect(failed(5, { statusCode: 503, retryAfter: past })).toEqual({ retryAtMs: NOW + 16 * MIN })
    // Longer than the backoff: kept, but never past the horizon (one last attempt there).
    expect(failed(1, { statusCode: 503, retryAfter: String(4 * 24 * 3600) })).toEqual({
      retryAtMs: NOW + 72 * HOUR
    })
    expect(
      failed(2, { statusCode: 429, retryAfter: String(3600), createdMs: NOW - 71.5 * HOUR })
    ).toEqual({ retryAtMs: NOW + 0.5 * HOUR })
    // A backoff already past the horizon still gives up, whatever was asked.
    expect(failed(11, { statusCode: 503, retryAfter: "60", createdMs: NOW - 61 * HOUR })).toBe(
      "failed"
    )
  })

  it("a delivery is failed after its maximum number of attempts, whatever the schedule leaves", () => {
    expect(DEFAULT_RETRY.maxAttempts).toBe(20)
    const fast = { ...DEFAULT_RETRY, initialDelayMs: 1, maxDelayMs: 1, maxAttempts: 3 }
    const attempt = (attempts: number) =>
      next(fast, {
        attempts,
        statusCode: 500,
        retryAfter: null,
        nowMs: NOW,
        createdMs: NOW,
        random: 0.5
      })
    expect(attempt(2)).toEqual({ retryAtMs: NOW + 1 })
    expect(attempt(3)).toBe("failed")
    expect(failed(19)).toEqual({ retryAtMs: NOW + 12 * HOUR })
    expect(failed(20)).toBe("failed")
  })

  it("the default schedule ends by its 3-day horizon before the attempt cap, whatever the jitter", () => {
    // Each failure waits as little as the jitter allows: the most attempts 3 days can hold.
    let attempts = 1
    let nowMs = NOW
    for (;;) {
      const after = next(DEFAULT_RETRY, {
        attempts,
        statusCode: 500,
        retryAfter: null,
        nowMs,
        createdMs: NOW,
        random: 0
      })
      if (after === "failed") break
      nowMs = after.retryAtMs
      attempts++
    }
    expect(attempts).toBe(17)
    expect(attempts).toBeLessThan(DEFAULT_RETRY.maxAttempts)
  })

  it("parses Retry-After", () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined()
    expect(parseRetryAfter(" 5 ", NOW)).toBe(5000)
    expect(parseRetryAfter(new Date(NOW - 1000).toUTCString(), NOW)).toBe(0)
    expect(parseRetryAfter("-3", NOW)).toBeUndefined()
  })

  it("LEVY_WEBHOOK_MAX_ATTEMPTS sets the cap; anything but a positive integer is refused", () => {
    const read = (value: string) =>
      Effect.runSync(
        Effect.either(DispatcherEnv.fromEnv).pipe(
          Effect.withConfigProvider(
            ConfigProvider.fromMap(new Map([["LEVY_WEBHOOK_MAX_ATTEMPTS", value]]))
          )
        )
      )
    const five = read("5")
    expect(Either.isRight(five) && five.right.retry).toEqual({ ...DEFAULT_RETRY, maxAttempts: 5 })
    expect(Either.isLeft(read("0"))).toBe(true)
    expect(Either.isLeft(read("many"))).toBe(true)
  })
})

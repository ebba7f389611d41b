/** Which responses are retried and how long the client waits. */
import { describe, expect, it } from "@effect/vitest"
import { RetryPolicy } from "../src/index.js"

describe("RetryPolicy", () => {
  it("retries 409, 429 and 5xx only", () => {
    expect(
      [400, 401, 402, 403, 404, 409, 429, 500, 503].filter(RetryPolicy.retryableStatus)
    ).toEqual([409, 429, 500, 503])
  })

  it("backoff doubles per attempt, within its jitter, up to the cap", () => {
    expect(RetryPolicy.backoffMillis(0, () => 0)).toBe(250)
    expect(RetryPolicy.backoffMillis(0, () => 1)).toBe(500)
    expect(RetryPolicy.backoffMillis(1, () => 1)).toBe(1000)
    expect(RetryPolicy.backoffMillis(20, () => 1)).toBe(RetryPolicy.MAX_DELAY_MS)
  })

  it("Retry-After in seconds or as an HTTP date", () => {
    expect(RetryPolicy.retryAfterMillis("2")).toBe(2000)
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(RetryPolicy.retryAfterMillis("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5000)
    expect(RetryPolicy.retryAfterMillis("soon")).toBeUndefined()
    expect(RetryPolicy.retryAfterMillis(undefined)).toBeUndefined()
  })

  it("the server's Retry-After sets the wait; a very long one is not waited for", () => {
    expect(RetryPolicy.delayFor(429, "3", 0)).toBe(3000)
    expect(RetryPolicy.delayFor(429, "600", 0)).toBeUndefined()
    expect(RetryPolicy.delayFor(400, "1", 0)).toBeUndefined()
    expect(RetryPolicy.delayFor(503, undefined, 0)).toBeGreaterThanOrEqual(250)
  })
})

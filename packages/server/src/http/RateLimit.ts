/**
 * The rate limit of one request (docs/design.md §9): per API key, or per client address without a
 * valid key. Counts the request against its bucket and fills the `x-ratelimit-*` headers (and
 * `retry-after` when over the limit) into the response headers being built. The edge and the
 * fast lane (FastLane.ts) both count through here, so both answer alike.
 */
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import { ApiError } from "@levy/api"
import { Duration, Effect, Option } from "effect"
import type { ResolvedKey } from "../KeyResolver.js"
import type { EdgeOptions } from "./EdgeConfig.js"

const exceeded = new ApiError.RateLimitError({
  message: "Too many requests with this API key; retry after the Retry-After seconds."
})

const unavailable = new ApiError.ServiceUnavailableError({
  message: "The service is temporarily unavailable; please retry."
})

/** Seconds since the epoch (rounded up) when `after` has passed. */
const resetAt = (after: Duration.Duration) =>
  String(Math.ceil((Date.now() + Duration.toMillis(after)) / 1000))

/** Counts one request by `key` (else from `remoteAddress`); 429 over the limit, 503 if the store is down. */
export const consume = (
  limiter: RateLimiter.RateLimiter,
  rateLimits: EdgeOptions["rateLimits"],
  key: Option.Option<ResolvedKey>,
  remoteAddress: string | undefined,
  headers: Record<string, string>
): Effect.Effect<void, ApiError.RateLimitError | ApiError.ServiceUnavailableError> => {
  const [bucket, limit] = Option.isNone(key)
    ? [`addr:${remoteAddress ?? "unknown"}`, rateLimits.anonymous]
    : [`key:${key.value.accountId}:${key.value.keyId}`, rateLimits[key.value.mode]]
  headers["x-ratelimit-limit"] = String(limit)
  return limiter
    .consume({
      key: bucket,
      limit,
      window: rateLimits.window,
      algorithm: "fixed-window",
      onExceeded: "fail"
    })
    .pipe(
      Effect.matchEffect({
        onSuccess: (result) => {
          headers["x-ratelimit-remaining"] = String(Math.max(0, result.remaining))
          headers["x-ratelimit-reset"] = resetAt(result.resetAfter)
          return Effect.void
        },
        onFailure: (
          e
        ): Effect.Effect<never, ApiError.RateLimitError | ApiError.ServiceUnavailableError> => {
          if (e.reason === "Exceeded") {
            headers["x-ratelimit-remaining"] = "0"
            headers["x-ratelimit-reset"] = resetAt(e.retryAfter)
            headers["retry-after"] = String(
              Math.max(1, Math.ceil(Duration.toMillis(e.retryAfter) / 1000))
            )
            return Effect.fail(exceeded)
          }
          return Effect.zipRight(
            Effect.logWarning("rate limit store unavailable", e.message),
            Effect.fail(unavailable)
          )
        }
      })
    )
}

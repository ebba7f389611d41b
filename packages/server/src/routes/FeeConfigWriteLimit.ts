/**
 * The limit of fee configuration changes over the API (docs/design.md §9): `POST
 * /v1/fee-configs` and its approve and cancel count per account and mode, at
 * `rateLimits.feeConfigWrites` per window, in the limiter's store (shared by every server
 * process, as the key's limit is). A live change costs a fee-raise decision of a few hundred
 * milliseconds of CPU; the key's own limit would let one key spend that a thousand times a
 * minute and slow every other account's requests. The in-process service (`LevyService`) is
 * the embedding app's own code and is not counted.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { type ApiError, CurrentKey } from "@levy/api"
import { Effect } from "effect"
import { EdgeConfig } from "../http/EdgeConfig.js"
import * as RateLimit from "../http/RateLimit.js"
import * as ResponseHeaders from "../http/ResponseHeaders.js"

/** Counts one change by the request's key: 429 over the limit, 503 if the store is down. */
export const count: Effect.Effect<
  void,
  ApiError.RateLimitError | ApiError.ServiceUnavailableError,
  RateLimiter.RateLimiter | CurrentKey.CurrentKey
> = Effect.gen(function* () {
  const limiter = yield* RateLimiter.RateLimiter
  const { rateLimits } = yield* EdgeConfig
  const key = yield* CurrentKey.CurrentKey
  const headers = yield* ResponseHeaders.current
  // The key's own headers stay on a change that is let through; a 429 says which limit it is.
  const own: Record<string, string> = {}
  yield* RateLimit.consumeBucket(
    limiter,
    rateLimits.window,
    {
      bucket: `fee-config-writes:${key.accountId}:${key.mode}`,
      limit: rateLimits.feeConfigWrites,
      failOpen: false,
      exceeded: RateLimit.exceededError(
        `fee configuration changes for this account in ${key.mode} mode (POST /v1/fee-configs, its approve and cancel)`,
        rateLimits.feeConfigWrites,
        rateLimits.window,
        "LEVY_RATE_LIMIT_FEE_CONFIG_WRITES"
      )
    },
    own
  ).pipe(Effect.tapError(() => Effect.sync(() => Object.assign(headers, own))))
})

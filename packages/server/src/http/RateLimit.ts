/**
 * The rate limit of one request (docs/design.md §9): per secret key, per publishable key and
 * client address, or per client address without a valid key. Counts the request against its bucket and fills the `x-ratelimit-*` headers (and
 * `retry-after` when over the limit) into the response headers being built. The edge (Edge.ts) and
 * the processors' webhook route count through here.
 */
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import { ApiError } from "@levy/api"
import { Duration, Effect, Option } from "effect"
import type { KeyResolverService, ResolvedKey } from "../access/KeyResolver.js"
import * as ClientAddress from "./ClientAddress.js"
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

/** What a request is counted by: its key (none without a valid one) and client address. */
export interface Client {
  readonly key: Option.Option<ResolvedKey>
  readonly address: string | undefined
  /**
   * Whether the request may go on unlimited while the limiter's store is down: estimates,
   * when the operator chose `failOpenEstimates`. Every other request fails closed (503).
   */
  readonly failOpen: boolean
}

/** The bucket of requests counted by client address (an IPv6 client's by its /64). */
export const addressBucket = (address: string | undefined): string =>
  `addr:${ClientAddress.limitKey(address)}`

/**
 * The bucket and limit of a client: a secret key's own; a publishable key's per client address
 * too (it is public: anyone could otherwise spend a merchant's checkout budget); without a
 * valid key, the address's.
 */
const bucketOf = (rateLimits: EdgeOptions["rateLimits"], client: Client) => {
  if (Option.isNone(client.key)) {
    return [addressBucket(client.address), rateLimits.anonymous] as const
  }
  const key = client.key.value
  const base = `key:${key.accountId}:${key.keyId}`
  return [
    key.kind === "publishable" ? `${base}:${ClientAddress.limitKey(client.address)}` : base,
    rateLimits[key.mode]
  ] as const
}

/** Counts one request of `client`; 429 over the limit, 503 if the store is down (unless fail-open). */
export const consume = (
  limiter: RateLimiter.RateLimiter,
  rateLimits: EdgeOptions["rateLimits"],
  client: Client,
  headers: Record<string, string>
): Effect.Effect<void, ApiError.RateLimitError | ApiError.ServiceUnavailableError> => {
  const [bucket, limit] = bucketOf(rateLimits, client)
  return consumeBucket(limiter, rateLimits, { bucket, limit, failOpen: client.failOpen }, headers)
}

/**
 * Counts one request against a named bucket of `limit` per window (the processor-webhook route
 * counts per account: processorWebhooks/ProcessorWebhookRoute.ts), filling the headers.
 */
export const consumeBucket = (
  limiter: RateLimiter.RateLimiter,
  rateLimits: EdgeOptions["rateLimits"],
  { bucket, limit, failOpen }: { bucket: string; limit: number; failOpen: boolean },
  headers: Record<string, string>
): Effect.Effect<void, ApiError.RateLimitError | ApiError.ServiceUnavailableError> => {
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
        ): Effect.Effect<void, ApiError.RateLimitError | ApiError.ServiceUnavailableError> => {
          if (e.reason === "Exceeded") {
            headers["x-ratelimit-remaining"] = "0"
            headers["x-ratelimit-reset"] = resetAt(e.retryAfter)
            headers["retry-after"] = String(
              Math.max(1, Math.ceil(Duration.toMillis(e.retryAfter) / 1000))
            )
            return Effect.fail(exceeded)
          }
          delete headers["x-ratelimit-limit"]
          const logged = Effect.logWarning("rate limit store unavailable", e.message)
          return failOpen ? logged : Effect.zipRight(logged, Effect.fail(unavailable))
        }
      })
    )
}

/** Secrets that resolved to a key in this process, kept at most this many (then forgotten). */
const MAX_KNOWN = 10_000

/**
 * The key of a request and its count, in the order that keeps a flood of made-up keys off the
 * key store: a secret not seen to resolve before is counted against its address's bucket
 * BEFORE it is looked up, so a caller over that limit costs no lookup; a key that resolves is
 * remembered and from then on counted against its own bucket only. (The memory of known
 * secrets is this process's; a restart counts each key's first request against its address.)
 */
export const makeGate = (
  limiter: RateLimiter.RateLimiter,
  rateLimits: EdgeOptions["rateLimits"],
  resolver: KeyResolverService
) => {
  const known = new Set<string>()
  return (
    secret: string | undefined,
    address: string | undefined,
    failOpen: boolean,
    headers: Record<string, string>
  ): Effect.Effect<
    Option.Option<ResolvedKey>,
    ApiError.RateLimitError | ApiError.ServiceUnavailableError
  > => {
    const anonymous: Client = { key: Option.none(), address, failOpen }
    if (secret === undefined) {
      return Effect.as(consume(limiter, rateLimits, anonymous, headers), Option.none())
    }
    const counted = !known.has(secret)
    return (counted ? consume(limiter, rateLimits, anonymous, headers) : Effect.void).pipe(
      Effect.zipRight(resolver.resolve(secret)),
      Effect.tap((key) => {
        if (Option.isNone(key)) {
          known.delete(secret)
          return counted ? Effect.void : consume(limiter, rateLimits, anonymous, headers)
        }
        if (known.size >= MAX_KNOWN) known.clear()
        known.add(secret)
        return consume(limiter, rateLimits, { key, address, failOpen }, headers)
      })
    )
  }
}

/**
 * The rate limit of one request (docs/design.md §9): per secret key, per publishable key and
 * client address, or per client address without a valid key (an IPv6 client per /64).
 * Counts the request against its bucket and fills the `x-ratelimit-*` headers (and
 * `retry-after` when over the limit) into the response headers being built; a 429 names the
 * limit it hit. The edge (Edge.ts), the processors' webhook route and the fee-configuration
 * write limit count through here.
 */
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import { ApiError } from "@levy/api"
import { Duration, Effect, Option } from "effect"
import type { KeyResolverService, ResolvedKey } from "../access/KeyResolver.js"
import * as ClientAddress from "./ClientAddress.js"
import type { EdgeOptions } from "./EdgeConfig.js"

const unavailable = new ApiError.ServiceUnavailableError({
  message: "The service is temporarily unavailable; please retry."
})

/** A window in words: "1 minute", "30 seconds", "1500 ms". */
export const windowText = (window: Duration.Duration): string => {
  const ms = Duration.toMillis(window)
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? "" : "s"}`
  if (ms % 60_000 === 0) return unit(ms / 60_000, "minute")
  if (ms % 1000 === 0) return unit(ms / 1000, "second")
  return `${ms} ms`
}

/**
 * The 429 of a limit: which limit it is (`what`: "requests with this live-mode API key"), its
 * size, and, for a limit an operator may raise while developing, the setting (`setting`).
 */
export const exceededError = (
  what: string,
  limit: number,
  window: Duration.Duration,
  setting?: string
) =>
  new ApiError.RateLimitError({
    message: `Too many ${what}: the limit is ${limit} per ${windowText(window)}. Retry after the Retry-After seconds.${
      setting === undefined
        ? ""
        : ` A server you run yourself takes a higher limit from ${setting} (requests per window; docs/server.md "Limits and versions").`
    }`
  })

/** A bucket to count a request against: its name, its size per window and its 429. */
export interface Bucket {
  readonly bucket: string
  readonly limit: number
  /** Whether the request goes on unlimited while the limiter's store is down. */
  readonly failOpen: boolean
  readonly exceeded: ApiError.RateLimitError
}

/** The 429s of the edge's own limits, made once per server. */
export const edgeErrors = (rateLimits: EdgeOptions["rateLimits"]) => ({
  test: exceededError(
    "requests with this test-mode API key",
    rateLimits.test,
    rateLimits.window,
    "LEVY_RATE_LIMIT_TEST"
  ),
  live: exceededError("requests with this live-mode API key", rateLimits.live, rateLimits.window),
  anonymous: exceededError(
    "requests without a valid API key from this address",
    rateLimits.anonymous,
    rateLimits.window
  )
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
 * The bucket of a client: a secret key's own; a publishable key's per client address too (it
 * is public: anyone could otherwise spend a merchant's checkout budget); without a valid key,
 * the address's.
 */
const bucketOf = (
  rateLimits: EdgeOptions["rateLimits"],
  errors: ReturnType<typeof edgeErrors>,
  client: Client
): Bucket => {
  const failOpen = client.failOpen
  if (Option.isNone(client.key)) {
    const bucket = addressBucket(client.address)
    return { bucket, limit: rateLimits.anonymous, failOpen, exceeded: errors.anonymous }
  }
  const key = client.key.value
  const base = `key:${key.accountId}:${key.keyId}`
  return {
    bucket: key.kind === "publishable" ? `${base}:${ClientAddress.limitKey(client.address)}` : base,
    limit: rateLimits[key.mode],
    failOpen,
    exceeded: errors[key.mode]
  }
}

/**
 * Counts one request against `bucket` (of `window`), filling the headers: 429 over the limit,
 * 503 if the store is down (unless the bucket fails open).
 */
export const consumeBucket = (
  limiter: RateLimiter.RateLimiter,
  window: Duration.Duration,
  { bucket, limit, failOpen, exceeded }: Bucket,
  headers: Record<string, string>
): Effect.Effect<void, ApiError.RateLimitError | ApiError.ServiceUnavailableError> => {
  headers["x-ratelimit-limit"] = String(limit)
  return limiter
    .consume({ key: bucket, limit, window, algorithm: "fixed-window", onExceeded: "fail" })
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
  const errors = edgeErrors(rateLimits)
  const consume = (client: Client, headers: Record<string, string>) =>
    consumeBucket(limiter, rateLimits.window, bucketOf(rateLimits, errors, client), headers)
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
      return Effect.as(consume(anonymous, headers), Option.none())
    }
    const counted = !known.has(secret)
    return (counted ? consume(anonymous, headers) : Effect.void).pipe(
      Effect.zipRight(resolver.resolve(secret)),
      Effect.tap((key) => {
        if (Option.isNone(key)) {
          known.delete(secret)
          return counted ? Effect.void : consume(anonymous, headers)
        }
        if (known.size >= MAX_KNOWN) known.clear()
        known.add(secret)
        return consume({ key, address, failOpen }, headers)
      })
    )
  }
}

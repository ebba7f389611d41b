/**
 * The rate limiter's store on Redis (docs/design.md §9: several server processes share one
 * limit), for the fixed window the edge uses. @effect/experimental's Redis store keeps the
 * window's end as the key's TTL, `window / limit` further per request: Redis takes whole
 * milliseconds only, so any limit that does not divide the window (7 per minute:
 * 8,571.43 ms) or exceeds it in milliseconds (1,000,000 per minute) made every request fail,
 * a 503. Here the exact end is kept in the key (a hash of count and end, in milliseconds
 * with a fraction, against Redis's own clock, so servers' clocks need not agree) and the TTL
 * only rounds it up for cleanup. The counting is the memory store's: the end moves forward by
 * `window / limit` per request taken.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { Duration, Effect, Layer } from "effect"
import { Redis, type RedisOptions } from "ioredis"

const FIXED_WINDOW = `
local key = KEYS[1]
local tokens = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local count = tonumber(redis.call("HGET", key, "count"))
local ends = tonumber(redis.call("HGET", key, "ends"))
if not count or not ends or ends <= now then
  count = 0
  ends = now
end
local next = count + tokens
if limit and next > limit then
  return { next, tostring(ends - now) }
end
ends = ends + refill * tokens
redis.call("HSET", key, "count", next, "ends", string.format("%.3f", ends))
redis.call("PEXPIRE", key, math.ceil(ends - now))
return { next, tostring(ends - now) }
`

interface Client extends Redis {
  readonly levyFixedWindow: (
    key: string,
    tokens: number,
    refillMillis: number,
    limit: number | string
  ) => Promise<[number, string]>
}

const storeError = (message: string, cause?: unknown) =>
  new RateLimiter.RateLimitStoreError({ message, cause })

/** The store over Redis with `options`; `prefix` namespaces its keys. */
export const make = (options: RedisOptions & { readonly prefix?: string }) =>
  Effect.gen(function* () {
    const prefix = `${options.prefix ?? "ratelimiter:"}fw:`
    const redis = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const client = new Redis(options) as Client
        client.defineCommand("levyFixedWindow", { lua: FIXED_WINDOW, numberOfKeys: 1 })
        // While Redis is down each request fails (a 503, logged by the edge); without a
        // listener ioredis would also print every reconnect error to stderr.
        client.on("error", () => undefined)
        return client
      }),
      (redis) => Effect.promise(() => redis.quit().catch(() => "closed"))
    )
    return RateLimiter.RateLimiterStore.of({
      fixedWindow: ({ key, tokens, refillRate, limit }) =>
        Effect.tryPromise({
          try: () =>
            redis.levyFixedWindow(
              `${prefix}${key}`,
              tokens,
              Duration.toMillis(refillRate),
              limit ?? ""
            ),
          catch: (cause) => storeError("Failed to execute the fixed-window command", cause)
        }).pipe(Effect.map(([count, ttl]) => [Number(count), Number(ttl)] as const)),
      // The edge counts in fixed windows only.
      tokenBucket: () => Effect.fail(storeError("This store keeps fixed windows only"))
    })
  })

/** The store as a layer. */
export const layerStore = (
  options: RedisOptions & { readonly prefix?: string }
): Layer.Layer<RateLimiter.RateLimiterStore> =>
  Layer.scoped(RateLimiter.RateLimiterStore, make(options))

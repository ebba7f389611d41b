/**
 * The rate limiter (docs/design.md §9: several server processes share one limit): the memory
 * store by default, the Redis store when `REDIS_URL` is set (or when asked for directly).
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { Config, Effect, Layer, Option } from "effect"
import * as RateLimitMemory from "./RateLimitMemory.js"
import * as RateLimitRedis from "./RateLimitRedis.js"

/** ioredis options from a `redis://[:password@]host[:port][/db]` URL. */
export const redisOptions = (url: string, prefix = "levy:ratelimit:") => {
  const parsed = new URL(url)
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : undefined
  return {
    host: parsed.hostname,
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(db === undefined || Number.isNaN(db) ? {} : { db }),
    ...(parsed.protocol === "rediss:" ? { tls: {} } : {}),
    // Fail a request fast (503) while Redis is down instead of queueing it for seconds.
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    prefix
  }
}

/** The limiter in this process (a synchronous fixed window, see RateLimitMemory). */
export const layerMemory: Layer.Layer<RateLimiter.RateLimiter> = RateLimitMemory.layer

/** The limiter over Redis at `url`; `prefix` namespaces the keys. */
export const layerRedis = (url: string, prefix?: string): Layer.Layer<RateLimiter.RateLimiter> =>
  RateLimiter.layer.pipe(Layer.provide(RateLimitRedis.layerStore(redisOptions(url, prefix))))

/** Redis when `REDIS_URL` is set, else memory. */
export const layerFromEnv: Layer.Layer<RateLimiter.RateLimiter> = Layer.unwrapEffect(
  Config.option(Config.nonEmptyString("REDIS_URL")).pipe(
    Effect.orElseSucceed(() => Option.none<string>()),
    Effect.map(Option.match({ onNone: () => layerMemory, onSome: (url) => layerRedis(url) }))
  )
)

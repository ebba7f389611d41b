/**
 * The in-process rate limiter the edge uses by default: the semantics of @effect/experimental's
 * memory store for `fixed-window` + `onExceeded: "fail"` (the counter's expiry moves forward by
 * `window / limit` per request, as the Redis store's script does, so both stores answer alike),
 * computed in one synchronous step. The generic limiter over the store costs several effects,
 * a clock lookup and a tuple per request on the hottest path of the server; any other
 * algorithm or option is delegated to it unchanged.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { Duration, Effect, Layer } from "effect"

export interface Counter {
  count: number
  expiresAt: number
}

/** How often counters whose window has passed are forgotten. */
export const SWEEP_EVERY_MS = 10_000

/**
 * The limiter; `now` is the clock and `counters` its table (tests of this module may pass a
 * fake clock, and look at the table). A counter whose window has passed is the same as none,
 * so every `SWEEP_EVERY_MS` those are dropped: memory follows the clients of the last window,
 * not every address ever seen.
 */
export const make = (now: () => number = Date.now, table?: Map<string, Counter>) =>
  Effect.gen(function* () {
    const generic = yield* RateLimiter.make.pipe(Effect.provide(RateLimiter.layerStoreMemory))
    // A table per limiter built (the layer below is built once per server).
    const counters = table ?? new Map<string, Counter>()
    let sweptAt = now()

    const sweep = (t: number) => {
      sweptAt = t
      for (const [key, counter] of counters) if (counter.expiresAt <= t) counters.delete(key)
    }

    const fixedWindow = (key: string, limit: number, window: Duration.Duration) => {
      const t = now()
      if (t - sweptAt >= SWEEP_EVERY_MS) sweep(t)
      const windowMillis = Duration.toMillis(window)
      let counter = counters.get(key)
      if (counter === undefined || counter.expiresAt <= t) {
        counter = { count: 0, expiresAt: t }
        counters.set(key, counter)
      }
      if (counter.count + 1 > limit) {
        return Effect.fail(
          new RateLimiter.RateLimitExceeded({
            key,
            retryAfter: Duration.millis(counter.expiresAt - t),
            limit,
            remaining: 0
          })
        )
      }
      counter.count += 1
      counter.expiresAt += windowMillis / limit
      return Effect.succeed<RateLimiter.ConsumeResult>({
        delay: Duration.zero,
        limit,
        remaining: limit - counter.count,
        resetAfter: Duration.millis(counter.expiresAt - t)
      })
    }

    const limiter: RateLimiter.RateLimiter = {
      [RateLimiter.TypeId]: RateLimiter.TypeId,
      consume: (options) => {
        const simple =
          (options.algorithm ?? "fixed-window") === "fixed-window" &&
          (options.onExceeded ?? "fail") === "fail" &&
          (options.tokens ?? 1) === 1 &&
          options.limit >= 1
        return simple
          ? Effect.suspend(() =>
              fixedWindow(options.key, options.limit, Duration.decode(options.window))
            )
          : generic.consume(options)
      }
    }
    return limiter
  })

/** The limiter as a layer. */
export const layer: Layer.Layer<RateLimiter.RateLimiter> = Layer.effect(
  RateLimiter.RateLimiter,
  make()
)

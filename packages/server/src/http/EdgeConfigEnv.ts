/**
 * The edge's limits from the environment, each optional (the defaults are production's):
 * `LEVY_RATE_LIMIT_TEST`, `LEVY_RATE_LIMIT_LIVE`, `LEVY_RATE_LIMIT_ANONYMOUS` (requests per
 * window), `LEVY_RATE_LIMIT_WINDOW_MS`, `LEVY_MAX_BODY_BYTES`. Operators size them; the
 * reliability harness sets a small limit to prove it holds across processes.
 */
import { Config, Duration, Effect, Layer, Option } from "effect"
import { defaults, EdgeConfig, type EdgeOptions } from "./EdgeConfig.js"

/** An optional positive integer setting `name` (absent → none; present but not > 0 → fails). */
export const positive = (name: string) =>
  Config.option(
    Config.integer(name).pipe(Config.validate({ message: "must be > 0", validation: (n) => n > 0 }))
  )

const or = (value: Option.Option<number>, fallback: number) =>
  Option.getOrElse(value, () => fallback)

export const fromEnv = Effect.gen(function* () {
  const test = yield* positive("LEVY_RATE_LIMIT_TEST")
  const live = yield* positive("LEVY_RATE_LIMIT_LIVE")
  const anonymous = yield* positive("LEVY_RATE_LIMIT_ANONYMOUS")
  const windowMs = yield* positive("LEVY_RATE_LIMIT_WINDOW_MS")
  const maxBody = yield* positive("LEVY_MAX_BODY_BYTES")
  const options: EdgeOptions = {
    rateLimits: {
      test: or(test, defaults.rateLimits.test),
      live: or(live, defaults.rateLimits.live),
      anonymous: or(anonymous, defaults.rateLimits.anonymous),
      window: Option.match(windowMs, {
        onNone: () => defaults.rateLimits.window,
        onSome: (ms) => Duration.millis(ms)
      })
    },
    maxBodyBytes: or(maxBody, defaults.maxBodyBytes)
  }
  return options
})

/** `EdgeConfig` from the environment (a bad value fails the start, named). */
export const layer = Layer.effect(EdgeConfig, fromEnv)

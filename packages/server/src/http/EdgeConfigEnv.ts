/**
 * The edge's limits from the environment, each optional (the defaults are production's):
 * `LEVY_RATE_LIMIT_TEST`, `LEVY_RATE_LIMIT_LIVE`, `LEVY_RATE_LIMIT_ANONYMOUS`,
 * `LEVY_RATE_LIMIT_FEE_CONFIG_WRITES` (requests per window), `LEVY_RATE_LIMIT_WINDOW_MS`, `LEVY_MAX_BODY_BYTES`, `LEVY_RATE_LIMIT_FAIL_OPEN`
 * (`estimates`: estimates go on while the limiter's store is down; default `none`),
 * `LEVY_TRUSTED_PROXIES` (comma-separated addresses or CIDR ranges whose `X-Forwarded-For`
 * is believed). Operators size them; the
 * reliability harness sets a small limit to prove it holds across processes.
 */

import { positive } from "@levy/engine/settings/EnvSetting.js"
import { Config, Duration, Effect, Layer, Option } from "effect"
import * as ClientAddress from "./ClientAddress.js"
import { defaults, EdgeConfig, type EdgeOptions } from "./EdgeConfig.js"

const or = (value: Option.Option<number>, fallback: number) =>
  Option.getOrElse(value, () => fallback)

export const fromEnv = Effect.gen(function* () {
  const test = yield* positive("LEVY_RATE_LIMIT_TEST")
  const live = yield* positive("LEVY_RATE_LIMIT_LIVE")
  const anonymous = yield* positive("LEVY_RATE_LIMIT_ANONYMOUS")
  const feeConfigWrites = yield* positive("LEVY_RATE_LIMIT_FEE_CONFIG_WRITES")
  const windowMs = yield* positive("LEVY_RATE_LIMIT_WINDOW_MS")
  const maxBody = yield* positive("LEVY_MAX_BODY_BYTES")
  const failOpen = yield* Config.literal(
    "estimates",
    "none"
  )("LEVY_RATE_LIMIT_FAIL_OPEN").pipe(Config.withDefault("none"))
  const proxies = yield* Config.string("LEVY_TRUSTED_PROXIES").pipe(
    Config.withDefault(""),
    Config.map((text) =>
      text
        .split(",")
        .map((p) => p.trim())
        .filter((p) => p !== "")
    ),
    Config.validate({
      message: "must be comma-separated IP addresses or CIDR ranges",
      validation: (entries) => entries.every(ClientAddress.isProxyEntry)
    })
  )
  const options: EdgeOptions = {
    rateLimits: {
      test: or(test, defaults.rateLimits.test),
      live: or(live, defaults.rateLimits.live),
      anonymous: or(anonymous, defaults.rateLimits.anonymous),
      feeConfigWrites: or(feeConfigWrites, defaults.rateLimits.feeConfigWrites),
      window: Option.match(windowMs, {
        onNone: () => defaults.rateLimits.window,
        onSome: (ms) => Duration.millis(ms)
      }),
      failOpenEstimates: failOpen === "estimates"
    },
    trustedProxies: proxies,
    maxBodyBytes: or(maxBody, defaults.maxBodyBytes)
  }
  return options
})

/** `EdgeConfig` from the environment (a bad value fails the start, named). */
export const layer = Layer.effect(EdgeConfig, fromEnv)

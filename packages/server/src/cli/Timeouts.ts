/**
 * The server's client timeouts from the environment, each optional (defaults:
 * `Server.defaultTimeouts`): `LEVY_HEADERS_TIMEOUT_MS`, `LEVY_REQUEST_TIMEOUT_MS`.
 */

import { positive } from "@levy/engine/settings/EnvSetting.js"
import { type ConfigError, Effect, Option } from "effect"
import { defaultTimeouts, type Timeouts } from "../Server.js"

export const fromEnv: Effect.Effect<Timeouts, ConfigError.ConfigError> = Effect.gen(function* () {
  const headers = yield* positive("LEVY_HEADERS_TIMEOUT_MS")
  const request = yield* positive("LEVY_REQUEST_TIMEOUT_MS")
  const headersMs = Option.getOrElse(headers, () => defaultTimeouts.headersMs)
  const requestMs = Option.getOrElse(request, () => defaultTimeouts.requestMs)
  return {
    headersMs,
    // node requires requestTimeout ≥ headersTimeout.
    requestMs: Math.max(requestMs, headersMs),
    checkIntervalMs: Math.min(defaultTimeouts.checkIntervalMs, headersMs)
  }
})

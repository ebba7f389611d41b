/**
 * Dispatcher settings from the environment, each optional (the defaults are production's):
 * `LEVY_WEBHOOK_POLL_MS`, `LEVY_WEBHOOK_CONCURRENCY`, `LEVY_WEBHOOK_TIMEOUT_MS`,
 * `LEVY_WEBHOOK_LEASE_MS`, `LEVY_WEBHOOK_RETRY_INITIAL_MS`, `LEVY_WEBHOOK_RETRY_MAX_MS`,
 * `LEVY_WEBHOOK_GIVE_UP_MS`, `LEVY_WEBHOOK_MAX_ATTEMPTS`. Operators tune throughput; tests run the schedule in seconds
 * against a real `levy serve`.
 */
import { Effect, Option } from "effect"
import { positive } from "../settings/EnvSetting.js"
import { type DispatcherConfig, defaults } from "./DispatcherConfig.js"

const or = (value: Option.Option<number>, fallback: number) =>
  Option.getOrElse(value, () => fallback)

export const fromEnv = Effect.gen(function* () {
  const poll = yield* positive("LEVY_WEBHOOK_POLL_MS")
  const concurrency = yield* positive("LEVY_WEBHOOK_CONCURRENCY")
  const timeout = yield* positive("LEVY_WEBHOOK_TIMEOUT_MS")
  const lease = yield* positive("LEVY_WEBHOOK_LEASE_MS")
  const initial = yield* positive("LEVY_WEBHOOK_RETRY_INITIAL_MS")
  const max = yield* positive("LEVY_WEBHOOK_RETRY_MAX_MS")
  const giveUp = yield* positive("LEVY_WEBHOOK_GIVE_UP_MS")
  const maxAttempts = yield* positive("LEVY_WEBHOOK_MAX_ATTEMPTS")
  const config: DispatcherConfig = {
    ...defaults,
    pollIntervalMs: or(poll, defaults.pollIntervalMs),
    concurrency: or(concurrency, defaults.concurrency),
    timeoutMs: or(timeout, defaults.timeoutMs),
    leaseMs: or(lease, defaults.leaseMs),
    retry: {
      ...defaults.retry,
      initialDelayMs: or(initial, defaults.retry.initialDelayMs),
      maxDelayMs: or(max, defaults.retry.maxDelayMs),
      giveUpAfterMs: or(giveUp, defaults.retry.giveUpAfterMs),
      maxAttempts: or(maxAttempts, defaults.retry.maxAttempts)
    }
  }
  return config
})

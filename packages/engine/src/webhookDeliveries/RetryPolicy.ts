/**
 * What follows a failed attempt (docs/design.md §8): exponential backoff with jitter until the
 * give-up horizon or the last attempt allowed. A 429 or 503 with `Retry-After` may only
 * lengthen the wait, never shorten it (a receiver answering `Retry-After: 0` would otherwise
 * set Levy's pace: one POST per poll), and never past the horizon.
 */
import type { RetrySchedule } from "./DispatcherConfig.js"

export type Next = "failed" | { readonly retryAtMs: number }

/** The backoff delay after `attempts` failed attempts (≥ 1), before jitter. */
export const baseDelayMs = (schedule: RetrySchedule, attempts: number): number =>
  Math.min(schedule.maxDelayMs, schedule.initialDelayMs * 2 ** Math.max(0, attempts - 1))

/**
 * Seconds to wait from a `Retry-After` value: delta-seconds or an HTTP date; undefined when
 * absent or unparsable (then the backoff applies).
 */
export const parseRetryAfter = (value: string | null, nowMs: number): number | undefined => {
  if (value === null) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  // Every HTTP-date form starts with the day's name; Date.parse alone would take "-3" as a year.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return undefined
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs)
}

export interface FailedAttempt {
  /** Attempts made since the delivery was queued (or resent), this one included. */
  readonly attempts: number
  readonly statusCode: number | null
  readonly retryAfter: string | null
  readonly nowMs: number
  /** When the delivery was created (Unix ms): the horizon counts from there. */
  readonly createdMs: number
  /** A uniform random number in [0, 1), for the jitter. */
  readonly random: number
}

/**
 * When to try again after a failed attempt, or `failed` once the attempts allowed are made or
 * the backoff would fall past the horizon. A longer wait asked for by `Retry-After` is kept,
 * up to the horizon: the last attempt is then made there.
 */
export const next = (schedule: RetrySchedule, a: FailedAttempt): Next => {
  if (a.attempts >= schedule.maxAttempts) return "failed"
  const horizonMs = a.createdMs + schedule.giveUpAfterMs
  const backoff = Math.round(
    baseDelayMs(schedule, a.attempts) * (1 + schedule.jitter * (2 * a.random - 1))
  )
  if (a.nowMs + backoff > horizonMs) return "failed"
  const asked =
    a.statusCode === 429 || a.statusCode === 503
      ? parseRetryAfter(a.retryAfter, a.nowMs)
      : undefined
  const delay = asked !== undefined && asked > backoff ? asked : backoff
  return { retryAtMs: Math.min(a.nowMs + delay, horizonMs) }
}

/**
 * When and how long to wait before retrying: network failures, 409 (the same
 * Idempotency-Key still in flight), 429 and 5xx are retried with exponential backoff; a
 * `Retry-After` header, when sent, sets the wait instead.
 */

/** First backoff; doubled per attempt. */
export const BASE_DELAY_MS = 500
/** Longest backoff between two attempts. */
export const MAX_DELAY_MS = 8_000
/** A `Retry-After` longer than this is not waited for: the error is returned at once. */
export const MAX_RETRY_AFTER_MS = 60_000

/** Whether a response with `status` is worth another attempt. */
export const retryableStatus = (status: number): boolean =>
  status === 409 || status === 429 || status >= 500

/**
 * The backoff before retry number `attempt` (0 for the first retry): exponential, capped, with
 * jitter in its upper half so that many clients failing together do not retry together.
 */
export const backoffMillis = (attempt: number, random: () => number = Math.random): number => {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt)
  return Math.round(ceiling / 2 + (ceiling / 2) * random())
}

/**
 * `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined
 * when absent or unreadable.
 */
export const retryAfterMillis = (
  header: string | undefined,
  now: number = Date.now()
): number | undefined => {
  if (header === undefined) return undefined
  const trimmed = header.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * The wait before retrying a response of `status` with `retryAfter` as retry `attempt`, or
 * undefined when it should not be retried.
 */
export const delayFor = (
  status: number,
  retryAfter: string | undefined,
  attempt: number
): number | undefined => {
  if (!retryableStatus(status)) return undefined
  const asked = retryAfterMillis(retryAfter)
  if (asked === undefined) return backoffMillis(attempt)
  return asked > MAX_RETRY_AFTER_MS ? undefined : asked
}

/**
 * How often `levy listen` may poll: it shares the key's rate limit with the integrator's own
 * calls (a test key allows 100 a minute), so it spends at most a quarter of each window and
 * never the last three quarters of it, read from the `x-ratelimit-*` headers of its answers.
 */

/** The share of the key's limit the listener may use in a window. */
export const SHARE = 0.25
/** The shortest wait between polls when nothing is new. */
export const MIN_INTERVAL_MS = 500

/** What a response said about the key's rate limit. */
export interface RateState {
  readonly limit: number
  readonly remaining: number
  /** When the window resets, milliseconds since the epoch. */
  readonly resetAtMs: number
}

/** The rate state of a response's headers; undefined when the server sends none. */
export const fromHeaders = (headers: Headers): RateState | undefined => {
  const limit = Number(headers.get("x-ratelimit-limit"))
  const remaining = Number(headers.get("x-ratelimit-remaining"))
  const reset = Number(headers.get("x-ratelimit-reset"))
  const retryAfter = Number(headers.get("retry-after"))
  if (!Number.isFinite(limit) || limit <= 0 || headers.get("x-ratelimit-remaining") === null) {
    return undefined
  }
  const resetAtMs =
    Number.isFinite(retryAfter) && retryAfter > 0
      ? Date.now() + retryAfter * 1000
      : Number.isFinite(reset)
        ? reset * 1000
        : Date.now()
  return { limit, remaining: Number.isFinite(remaining) ? remaining : 0, resetAtMs }
}

/**
 * Milliseconds to wait before the next poll: the requests the listener may still make this
 * window spread evenly until it resets; until the reset when its share is spent.
 */
export const delayMs = (state: RateState | undefined, nowMs: number): number => {
  if (state === undefined) return MIN_INTERVAL_MS
  const untilReset = Math.max(0, state.resetAtMs - nowMs)
  const reserved = state.limit - Math.floor(state.limit * SHARE)
  const spare = state.remaining - reserved
  if (spare <= 0) return Math.max(MIN_INTERVAL_MS, untilReset)
  return Math.max(MIN_INTERVAL_MS, Math.ceil(untilReset / spare))
}

/**
 * How the webhook dispatcher behaves (docs/design.md §8). The defaults are production's: 10 s
 * per attempt, retries with exponential backoff and jitter for up to 3 days. Tests and the
 * benchmark shrink every duration so the whole schedule runs in seconds.
 */
import type { Lookup } from "../webhookEndpoints/UrlGuard.js"

/** When to retry a failed attempt. */
export interface RetrySchedule {
  /** Delay after the first failed attempt; doubled after each further one. */
  readonly initialDelayMs: number
  /** The longest delay between two attempts. */
  readonly maxDelayMs: number
  /** No attempt later than this after the delivery was created: it is marked failed instead. */
  readonly giveUpAfterMs: number
  /** Each delay is scaled by a random factor in [1 - jitter, 1 + jitter] (0 ≤ jitter < 1). */
  readonly jitter: number
  /**
   * Attempts per delivery at most (counted from its last queueing: a resend starts again),
   * then it is marked failed: a bound on what one event costs, whatever the schedule.
   */
  readonly maxAttempts: number
}

export interface DispatcherConfig {
  /** How often to look for events to fan out and due deliveries when nothing wakes it. */
  readonly pollIntervalMs: number
  /** Deliveries in flight at once, per process. */
  readonly concurrency: number
  /** Deliveries claimed, and attempts recorded, per storage round trip at most. */
  readonly batchSize: number
  /** Events fanned out per transaction at most (a backlog drains in few large steps). */
  readonly fanOutBatchSize: number
  /** Per attempt: connect, send, response headers and body, all within this. */
  readonly timeoutMs: number
  /**
   * How long a claim lasts. Longer than an attempt can take (DNS + timeout + recording), so
   * a live process never loses a delivery to another; a crashed one's come back after it.
   */
  readonly leaseMs: number
  /**
   * How long an endpoint (URL, status, secrets) read for one delivery is reused for others:
   * changes reach already-queued deliveries at most this late (0: read for every delivery).
   */
  readonly endpointCacheMs: number
  /** Response bytes read at most (then the connection is dropped). */
  readonly maxResponseBytes: number
  readonly retry: RetrySchedule
  /** The resolver used for the delivery-time SSRF check (replaceable in tests). */
  readonly lookup?: Lookup | undefined
}

const SECOND = 1000
const HOUR = 3600 * SECOND

/**
 * Production's schedule: 1 min, 2 min, 4 min … capped at 12 h, for 3 days (about 15 attempts,
 * 17 at most with the jitter), and never more than 20 attempts.
 */
export const DEFAULT_RETRY: RetrySchedule = {
  initialDelayMs: 60 * SECOND,
  maxDelayMs: 12 * HOUR,
  giveUpAfterMs: 72 * HOUR,
  jitter: 0.2,
  maxAttempts: 20
}

export const defaults: DispatcherConfig = {
  pollIntervalMs: 200,
  concurrency: 256,
  batchSize: 100,
  fanOutBatchSize: 1000,
  timeoutMs: 10 * SECOND,
  // DNS (≤ 5 s) + the attempt (≤ 10 s) + recording, with a wide margin.
  leaseMs: 60 * SECOND,
  maxResponseBytes: 64 * 1024,
  endpointCacheMs: SECOND,
  retry: DEFAULT_RETRY
}

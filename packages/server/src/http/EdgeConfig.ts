/** Limits of the edge (docs/design.md §9), a reference with the production defaults so tests can inject small ones. */
import { Context, Duration } from "effect"

export interface EdgeOptions {
  /** Requests per window per API key: dev (test mode) and prod (live mode) keys. */
  readonly rateLimits: {
    readonly test: number
    readonly live: number
    /** Requests without a valid key are limited per client address at this many per window. */
    readonly anonymous: number
    /**
     * Changes of the fee configuration (`POST /v1/fee-configs`, its approve and cancel) per
     * account and mode per window: a live change costs a fee-raise decision of a few hundred
     * milliseconds of CPU, which a key's own limit would let it spend over and over.
     */
    readonly feeConfigWrites: number
    readonly window: Duration.Duration
    /**
     * While the limiter's store (Redis) is down: estimates go on unlimited when true; every
     * other request, and estimates by default, fail closed with a 503.
     */
    readonly failOpenEstimates?: boolean | undefined
  }
  /**
   * Proxies (addresses or CIDR ranges) whose `X-Forwarded-For` names the client; from anyone
   * else the header is ignored. Default none: the socket's address.
   */
  readonly trustedProxies?: ReadonlyArray<string> | undefined
  /** The largest request body accepted, bytes; larger is a 413. */
  readonly maxBodyBytes: number
  /** The dashboard's build (packages/dashboard/dist by default); tests point it elsewhere. */
  readonly dashboardDir?: string
}

export const defaults: EdgeOptions = {
  rateLimits: {
    test: 100,
    live: 1000,
    anonymous: 100,
    feeConfigWrites: 6,
    window: Duration.minutes(1),
    failOpenEstimates: false
  },
  trustedProxies: [],
  maxBodyBytes: 1024 * 1024
}

export class EdgeConfig extends Context.Reference<EdgeConfig>()("@levy/server/EdgeConfig", {
  defaultValue: (): EdgeOptions => defaults
}) {}

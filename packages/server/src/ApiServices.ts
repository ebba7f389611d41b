/**
 * What the `/v1` API runs on besides HTTP and the store, the same for `levy serve` and for
 * the API mounted into another app (Mount.ts): keys resolved from the store, the rate limiter
 * and the edge's limits chosen by the caller, and what the workflows run on (`provideWorkflows`,
 * which `LevyService` in-process takes too): the ruleset, the payment processors, webhook
 * delivery in the background, the idempotency sweep and retention purge, the recovery of
 * pending charges and refunds, and the notices of changes of the law.
 */
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import { ComplianceRules } from "@levy/core"
import { Layer } from "effect"
import * as KeyResolverStorage from "./access/KeyResolverStorage.js"
import * as Recovery from "./charges/Recovery.js"
import * as Housekeeping from "./Housekeeping.js"
import type { EdgeConfig } from "./http/EdgeConfig.js"
import * as ConfiguredProcessors from "./processors/ConfiguredProcessors.js"
import * as RulesetNotices from "./rulesets/RulesetNotices.js"
import type * as DispatcherLayer from "./webhooks/DispatcherLayer.js"

export interface Settings<E> {
  readonly rateLimiter: Layer.Layer<RateLimiter.RateLimiter>
  readonly edge: Layer.Layer<EdgeConfig, E>
  /** Webhook delivery: `DispatcherLayer.layer(config)` or `DispatcherLayer.layerFromEnv`. */
  readonly dispatcher:
    | ReturnType<typeof DispatcherLayer.layer>
    | typeof DispatcherLayer.layerFromEnv
}

/**
 * What the workflows run on besides the store, whichever door serves them (the HTTP API, or
 * `LevyService` in-process): the ruleset, the payment processors, webhook delivery in the
 * background, the idempotency sweep and retention purge, the recovery of pending charges
 * and refunds, and the notices of changes of the law (which read the ruleset, so they are
 * given it here too).
 */
export const provideWorkflows = <A, E1, R>(
  layer: Layer.Layer<A, E1, R>,
  dispatcher: Settings<never>["dispatcher"]
) =>
  layer.pipe(
    // Accounts told before the law changes their fee (docs/design.md §3).
    Layer.provide(RulesetNotices.layerFromEnv),
    Layer.provide(ComplianceRules.Live),
    // Expired idempotency records, and records past their retention, deleted hourly.
    Layer.provide(Housekeeping.layerFromEnv),
    // Charges and refunds left pending settled in the background (docs/processors.md).
    Layer.provide(Recovery.layerFromEnv),
    // Webhook delivery in the background (stopped on shutdown); every write that records an
    // event wakes it, the handlers' and the sweeper's.
    Layer.provide(dispatcher),
    Layer.provide(ConfiguredProcessors.layerWithSimulator)
  )

/** `api` with everything it needs but the store (`Storage.Repositories` and `Ids`). */
export const provide = <A, E1, R, E2>(api: Layer.Layer<A, E1, R>, settings: Settings<E2>) =>
  provideWorkflows(
    api.pipe(Layer.provide([KeyResolverStorage.layer(), settings.rateLimiter, settings.edge])),
    settings.dispatcher
  )

/**
 * What the workflows run on besides the store, whichever door serves them (the HTTP API,
 * the CLI, or `LevyService` in-process): the ruleset, the payment processors, webhook
 * delivery in the background, the idempotency sweep and retention purge, the recovery of
 * pending charges and refunds, and the notices of changes of the law (which read the
 * ruleset, so they are given it here too).
 */
import { ComplianceRules } from "@levy/core"
import { Layer } from "effect"
import * as Housekeeping from "./Housekeeping.js"
import * as ConfiguredProcessors from "./processors/ConfiguredProcessors.js"
import * as Recovery from "./recovery/Recovery.js"
import * as RulesetNotices from "./rulesets/RulesetNotices.js"
import type * as DispatcherLayer from "./webhookDeliveries/DispatcherLayer.js"

/** Webhook delivery: `DispatcherLayer.layer(config)` or `DispatcherLayer.layerFromEnv`. */
export type Dispatcher =
  | ReturnType<typeof DispatcherLayer.layer>
  | typeof DispatcherLayer.layerFromEnv

/** `layer` with the engine's services and background work provided. */
export const provide = <A, E1, R>(layer: Layer.Layer<A, E1, R>, dispatcher: Dispatcher) =>
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

/**
 * What the `/v1` API runs on besides HTTP and the store, the same for `levy serve` and for
 * the API mounted into another app (Mount.ts): keys resolved from the store, the rate limiter
 * and the edge's limits chosen by the caller, and what the engine runs on
 * (`@levy/engine`'s `EngineServices.provide`, which `LevyService` in-process takes too).
 */
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import * as EngineServices from "@levy/engine/EngineServices.js"
import { Layer } from "effect"
import * as KeyResolverStorage from "./access/KeyResolverStorage.js"
import type { EdgeConfig } from "./http/EdgeConfig.js"

export interface Settings<E> {
  readonly rateLimiter: Layer.Layer<RateLimiter.RateLimiter>
  readonly edge: Layer.Layer<EdgeConfig, E>
  /** Webhook delivery: `DispatcherLayer.layer(config)` or `DispatcherLayer.layerFromEnv`. */
  readonly dispatcher: EngineServices.Dispatcher
}

/** `api` with everything it needs but the store (`Storage.Repositories` and `Ids`). */
export const provide = <A, E1, R, E2>(api: Layer.Layer<A, E1, R>, settings: Settings<E2>) =>
  EngineServices.provide(
    api.pipe(Layer.provide([KeyResolverStorage.layer(), settings.rateLimiter, settings.edge])),
    settings.dispatcher
  )

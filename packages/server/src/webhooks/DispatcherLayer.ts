/**
 * The dispatcher as part of a server: runs in a background fiber for the layer's lifetime
 * (interrupted on shutdown; its leases then lapse and any process picks the work up), and
 * provides `Transactions` that wake it after every commit in this process, so an event
 * written by a request is usually on its way before the next poll.
 */
import { Transactions } from "@levy/storage"
import { Effect, Layer } from "effect"
import * as Dispatcher from "./Dispatcher.js"
import { type DispatcherConfig, defaults } from "./DispatcherConfig.js"
import * as DispatcherEnv from "./DispatcherEnv.js"
import { Wake } from "./Wake.js"

const background = (config: DispatcherConfig) =>
  Layer.scopedDiscard(Effect.forkScoped(Dispatcher.run(config)))

const wakingTransactions = Layer.effect(
  Transactions,
  Effect.gen(function* () {
    const transactions = yield* Transactions
    const wake = yield* Wake
    return {
      run: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.tap(transactions.run(effect), () => wake.signal)
    }
  })
)

/** Runs the dispatcher (with `config` over the defaults) and provides waking `Transactions`. */
export const layer = (config: Partial<DispatcherConfig> = {}) =>
  Layer.merge(background({ ...defaults, ...config }), wakingTransactions).pipe(
    Layer.provideMerge(Wake.layer)
  )

/** `layer` configured from the environment (`DispatcherEnv`). */
export const layerFromEnv = Layer.unwrapEffect(Effect.map(DispatcherEnv.fromEnv, layer))

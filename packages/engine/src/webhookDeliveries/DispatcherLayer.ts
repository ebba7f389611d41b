/**
 * The dispatcher as part of a server: runs in a background fiber for the layer's lifetime
 * (interrupted on shutdown; its leases then lapse and any process picks the work up), and
 * provides `Transactions` that wake it after every commit in this process, and a
 * `ChargeRepository` that wakes it after each of its writes that records an event outside
 * `Transactions.run` (a charge or refund settled, a charge written with its event): every
 * event written in this process is on its way at once, not at the next poll.
 */
import { ChargeRepository, Transactions } from "@levy/storage"
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

const wakingCharges = Layer.effect(
  ChargeRepository,
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    const wake = yield* Wake
    return {
      ...charges,
      settleCharge: (...args) => Effect.tap(charges.settleCharge(...args), () => wake.signal),
      settleRefund: (...args) => Effect.tap(charges.settleRefund(...args), () => wake.signal),
      failRefund: (...args) => Effect.tap(charges.failRefund(...args), () => wake.signal),
      create: (write) => Effect.tap(charges.create(write), () => wake.signal)
    } satisfies typeof ChargeRepository.Service
  })
)

/**
 * Runs the dispatcher (with `config` over the defaults) and provides waking `Transactions`
 * and `ChargeRepository`.
 */
export const layer = (config: Partial<DispatcherConfig> = {}) =>
  Layer.mergeAll(background({ ...defaults, ...config }), wakingTransactions, wakingCharges).pipe(
    Layer.provideMerge(Wake.layer)
  )

/** `layer` configured from the environment (`DispatcherEnv`). */
export const layerFromEnv = Layer.unwrapEffect(Effect.map(DispatcherEnv.fromEnv, layer))

/**
 * Nudges for the dispatcher. `Wake` is sent after a transaction commits in this process (it
 * may have written an event), so fan-out starts at once instead of at the next poll; inside
 * the dispatcher a `Signal` of the same kind tells the delivery loop that work may be due.
 * Nudges coalesce; losing one costs at most a poll interval.
 */
import { Context, Effect, Layer, Queue } from "effect"

export interface Signal {
  /** Asks for a round now; never blocks. */
  readonly signal: Effect.Effect<void>
  /** `signal` from outside any fiber (a callback). */
  readonly unsafeSignal: () => void
  /** Waits for a signal, or `ms` at most. */
  readonly wait: (ms: number) => Effect.Effect<void>
}

export const makeSignal: Effect.Effect<Signal> = Effect.map(Queue.sliding<void>(1), (queue) => ({
  signal: Effect.asVoid(Queue.offer(queue, undefined)),
  unsafeSignal: () => {
    queue.unsafeOffer(undefined)
  },
  wait: (ms: number) =>
    Effect.raceFirst(Queue.take(queue), Effect.sleep(ms)).pipe(
      // Drop a signal that arrived meanwhile: the coming round will see its work.
      Effect.zipRight(Queue.takeAll(queue)),
      Effect.asVoid
    )
}))

export class Wake extends Context.Tag("@levy/engine/webhookDeliveries/Wake")<Wake, Signal>() {
  static readonly layer = Layer.effect(Wake, makeSignal)
}

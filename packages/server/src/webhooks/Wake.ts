/**
 * A nudge for the dispatcher: sent after a transaction commits in this process (it may have
 * written an event) and when a delivery slot frees up, so the next round starts at once
 * instead of at the next poll. Nudges coalesce; losing one costs at most a poll interval.
 */
import { Context, Effect, Layer, Queue } from "effect"

export class Wake extends Context.Tag("@levy/server/webhooks/Wake")<
  Wake,
  {
    /** Asks for a round now; never blocks. */
    readonly signal: Effect.Effect<void>
    /** Waits for a signal, or `ms` at most. */
    readonly wait: (ms: number) => Effect.Effect<void>
  }
>() {
  static readonly layer = Layer.effect(
    Wake,
    Effect.map(Queue.sliding<void>(1), (queue) => ({
      signal: Effect.asVoid(Queue.offer(queue, undefined)),
      wait: (ms: number) =>
        Effect.raceFirst(Queue.take(queue), Effect.sleep(ms)).pipe(
          // Drop a signal that arrived meanwhile: this round will see its work.
          Effect.zipRight(Queue.takeAll(queue)),
          Effect.asVoid
        )
    }))
  )
}

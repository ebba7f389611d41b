/**
 * The key window guard (docs/processors.md "How recovery works"): a money-moving call whose
 * answer was lost is finished under the same idempotency key, which is safe only while the
 * processor still replays the first answer to that key (`idempotency.keyWindow`). So:
 *
 * - where the processor can be asked (`lookup`, `lookupRefund`), a resumed call asks first,
 *   settles from the answer at any age, and makes the call only when the processor has
 *   nothing under the key (then no money moved);
 * - where it cannot, the call is repeated inside the window and never past it: the record is
 *   left pending for a person to check in the processor's dashboard.
 *
 * The window is counted from the record's creation, which is never after the key's first use:
 * a record can only look older than its key, never younger.
 */
import { Duration, Effect, Option } from "effect"
import {
  type PaymentProcessor,
  type ProcessorError,
  ProcessorUnavailable
} from "./PaymentProcessor.js"

/** The kind of money-moving call: a payment or a refund. */
export type Kind = "charge" | "refund"

/** What finishing a call under its key may do now. */
export type Step = "call" | "lookFirst" | "review"

/** Whether the processor can find a call of this kind by its key. */
export const canLookUp = (processor: PaymentProcessor, kind: Kind): boolean =>
  kind === "charge" ? processor.idempotency.lookupCharges : processor.idempotency.lookupRefunds

/** Whether a record made at `createdMs` is past the processor's key window at `now` (Unix ms). */
export const isPast = (processor: PaymentProcessor, createdMs: number, now: number): boolean =>
  now - createdMs >= Duration.toMillis(processor.idempotency.keyWindow)

/**
 * The step for a call of a record made at `createdMs`: a first call (not `resumed`) is never a
 * repeat; a resumed one asks first where the processor can be asked, else is repeated only
 * inside the key window.
 */
export const step = (
  processor: PaymentProcessor,
  kind: Kind,
  at: { readonly resumed: boolean; readonly createdMs: number; readonly now: number }
): Step => {
  if (!at.resumed) return "call"
  if (canLookUp(processor, kind)) return "lookFirst"
  return isPast(processor, at.createdMs, at.now) ? "review" : "call"
}

/** What a person should check, for the log line and the 503 of a record held for review. */
export const whatToCheck = (processor: PaymentProcessor, kind: Kind, key: string): string =>
  `Search the ${processor.name} dashboard for a ${kind === "charge" ? "payment" : "refund"} with the reference ${key}: if there is one, it went through (the processor's notification settles the record once delivered or resent); if there is none, no money moved.`

/**
 * The failure of a call Levy will not repeat: the outcome is unknown (so the record stays
 * pending, like any unanswered call) and only a person can learn it.
 */
export const reviewNeeded = (processor: PaymentProcessor, kind: Kind, key: string) =>
  new ProcessorUnavailable({
    processor: processor.name,
    message: `the ${kind} under key ${key} is older than ${processor.name}'s idempotency key window (${Duration.format(processor.idempotency.keyWindow)}) and ${processor.name} cannot be asked whether it went through, so Levy will not repeat it (that could move money twice). ${whatToCheck(processor, kind, key)}`
  })

/** One money-moving call under `key`, and how to find it at the processor. */
export interface Attempt<A, B, E> {
  readonly processor: PaymentProcessor
  readonly kind: Kind
  readonly key: string
  /** Resuming after a crash or an unanswered call. */
  readonly resumed: boolean
  /** When the record was written pending (Unix ms). */
  readonly createdMs: number
  readonly lookup: Effect.Effect<Option.Option<A>, ProcessorError>
  readonly call: Effect.Effect<B, E>
}

/**
 * Makes the call at most once: looked up first where the guard says so, refused past the key
 * window where the processor cannot be asked. A refused lookup says nothing about money moved,
 * so it counts as no answer (`ProcessorUnavailable`: the record stays pending).
 */
export const once = <A, B, E>(
  attempt: Attempt<A, B, E>
): Effect.Effect<A | B, E | ProcessorUnavailable> =>
  Effect.suspend((): Effect.Effect<A | B, E | ProcessorUnavailable> => {
    switch (step(attempt.processor, attempt.kind, { ...attempt, now: Date.now() })) {
      case "call":
        return attempt.call
      case "review":
        return Effect.fail(reviewNeeded(attempt.processor, attempt.kind, attempt.key))
      case "lookFirst":
        return attempt.lookup.pipe(
          Effect.catchTag("ProcessorRefused", (e) =>
            Effect.fail(
              new ProcessorUnavailable({
                processor: e.processor,
                message: `lookup refused: ${e.message}`
              })
            )
          ),
          Effect.flatMap(
            Option.match({
              onSome: (found) => Effect.succeed<A | B>(found),
              onNone: () => attempt.call
            })
          )
        )
    }
  })

/**
 * Running a write under an Idempotency-Key (docs/design.md §7), for a caller that holds typed
 * results rather than HTTP responses (`LevyService` in-process): claim the key for (account,
 * mode) with the request's fingerprint; replay the stored response when the same request
 * already finished; refuse the key while it runs (`IdempotencyKeyInUse`) or when it came with
 * another request (`IdempotencyKeyReused`). After the write ran: one that stored its response
 * with itself, or let the claim go on purpose, said so (`Written`), and nothing is left to do;
 * otherwise a success is stored now and a failure forgets the claim, so a retry runs again.
 * The same steps as the HTTP edge's (http/IdempotencyEdge.ts), over the same records and keys.
 */
import {
  type IdempotencyKeyInUse,
  type IdempotencyKeyReused,
  IdempotencyRepository,
  type StorageError,
  type StoredResponse,
  type Tenant
} from "@levy/storage"
import { Cause, Data, type Duration, Effect, Exit, Option } from "effect"
import type { Claim } from "./Claim.js"
import { DEADLINE } from "./Deadline.js"
import * as Written from "./Written.js"

/** The write ran past the deadline: stopped, its claim forgotten; a retry with the key resumes. */
export class DeadlineExceeded extends Data.TaggedError("DeadlineExceeded")<{
  readonly key: string
}> {}

/** What running under the key gave: the write's result, or the first request's stored response. */
export type Keyed<A> =
  | { readonly _tag: "Ran"; readonly value: A }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }

/** How a write's outcome is kept for its key. */
export interface Keeping<A, E> {
  /** The response to store for a success the write did not store itself. */
  readonly response: (value: A) => StoredResponse
  /** Whether a failure was stored with the write (replayed as it is, never run again). */
  readonly isStored: (error: E) => boolean
}

/** What the write did with the claim: its own word on a success, else whether it stored a failure. */
const recordingOf = <A, E>(
  exit: Exit.Exit<Written.Written<A>, E | DeadlineExceeded>,
  keeping: Keeping<A, E>
): Written.Recording => {
  if (Exit.isSuccess(exit)) return exit.value.recording
  const failure = Cause.failureOption(exit.cause)
  return Option.isSome(failure) &&
    !(failure.value instanceof DeadlineExceeded) &&
    keeping.isStored(failure.value)
    ? "stored"
    : "untouched"
}

/** Runs `write` under `key` for `tenant`, the request being `fingerprint`. */
export const run = <A, E, R>(
  tenant: Tenant.Tenant,
  key: string,
  requestFingerprint: string,
  write: (claim: Claim) => Effect.Effect<Written.Written<A>, E, R>,
  keeping: Keeping<A, E>,
  deadline: Duration.DurationInput = DEADLINE
): Effect.Effect<
  Keyed<A>,
  E | IdempotencyKeyInUse | IdempotencyKeyReused | StorageError | DeadlineExceeded,
  R | IdempotencyRepository
> =>
  Effect.gen(function* () {
    const repo = yield* IdempotencyRepository
    const begun = yield* repo.begin(tenant, key, requestFingerprint)
    if (begun._tag === "Replay") return begun
    // A claim that cannot be forgotten now lapses with its lease (`CLAIM_LEASE_MS`).
    const forget = repo.release(tenant, key).pipe(
      Effect.tapError((error) => Effect.logError("idempotency claim not released", error)),
      Effect.ignore
    )
    const exit = yield* write({ tenant, key, fingerprint: requestFingerprint }).pipe(
      Effect.onInterrupt(() => forget),
      Effect.timeoutFail({ duration: deadline, onTimeout: () => new DeadlineExceeded({ key }) }),
      Effect.exit
    )
    const recording = recordingOf(exit, keeping)
    if (!Written.isSettled(recording)) {
      if (Exit.isSuccess(exit)) {
        // The write is done: a store failure here only costs the replay, never the result.
        yield* repo.complete(tenant, key, keeping.response(exit.value.value)).pipe(
          Effect.catchTag("RecordNotFound", Effect.die),
          Effect.tapError((error) => Effect.logError("idempotent response not stored", error)),
          Effect.ignore
        )
      } else {
        yield* forget
      }
    }
    const value = yield* exit
    return { _tag: "Ran", value: value.value } as const
  })

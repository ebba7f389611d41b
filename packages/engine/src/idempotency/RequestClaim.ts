/**
 * The claim of the request being served, as a service in the request's context: provided by
 * whoever took the claim (the HTTP edge), with the channel on which the request's workflow
 * result says what it did with the claim (`Written.Recording`). The taker decides from that
 * what is left: nothing when the write stored or released it, else store a success or forget
 * the claim.
 */
import { Context, Deferred, Effect, Option } from "effect"
import type { Claim } from "./Claim.js"
import type { Recording } from "./Written.js"

export interface RequestClaimService {
  readonly claim: Claim
  /** Completed with what the request's write did with the claim; never completed by a read. */
  readonly recording: Deferred.Deferred<Recording>
}

export class RequestClaim extends Context.Tag("@levy/engine/idempotency/RequestClaim")<
  RequestClaim,
  RequestClaimService
>() {
  /** The service for `claim`, with a fresh channel. */
  static readonly make = (claim: Claim): Effect.Effect<RequestClaimService> =>
    Effect.map(Deferred.make<Recording>(), (recording) => ({ claim, recording }))
}

/** The current request's claim, if it carried an Idempotency-Key. */
export const current: Effect.Effect<Option.Option<Claim>> = Effect.map(
  Effect.serviceOption(RequestClaim),
  Option.map((service) => service.claim)
)

/** Tells the claim's taker what the request's write did with the claim. */
export const report = (recording: Recording): Effect.Effect<void> =>
  Effect.flatMap(Effect.serviceOption(RequestClaim), (service) =>
    Option.isNone(service)
      ? Effect.void
      : Effect.asVoid(Deferred.succeed(service.value.recording, recording))
  )

/** What the request's write did with the claim: `untouched` unless it said otherwise. */
export const recordingOf = (service: RequestClaimService): Effect.Effect<Recording> =>
  Effect.flatMap(Deferred.isDone(service.recording), (done) =>
    done ? Deferred.await(service.recording) : Effect.succeed<Recording>("untouched")
  )

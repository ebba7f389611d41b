/**
 * Idempotency keys (docs/design.md §7). The edge claims `Idempotency-Key` before a POST runs
 * (`IdempotencyRepository.begin`) and sets `CurrentClaim`; a handler that writes stores its
 * response with `record` inside the same transaction as the write, so the write and the
 * stored response commit together: a retry after a crash either replays that response or,
 * when nothing committed, runs again — never a second write. Requests that write nothing
 * (estimates, compliance checks) are recorded by the edge after they answer.
 */
import { ApiError } from "@levy/api"
import { IdempotencyRepository, type Json, type Tenant } from "@levy/storage"
import { Effect, FiberRef, Option, Schema } from "effect"

/** A key the edge claimed for this request. `recorded` turns true once a handler stored the response. */
export interface Claim {
  readonly tenant: Tenant.Tenant
  readonly key: string
  /** What the request was (method, path, body digest): a record resumed under the key must match. */
  readonly fingerprint: string
  recorded: boolean
}

/** The claim of the current request, if it carried an Idempotency-Key. */
export const CurrentClaim = FiberRef.unsafeMake<Option.Option<Claim>>(Option.none())

/**
 * Stores `status` and `body` as the response to replay for the current claim (if any); the
 * top-level fields named in `sealed` hold secrets and are stored sealed.
 */
export const record = (status: number, body: Json, sealed?: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const claim = yield* FiberRef.get(CurrentClaim)
    if (Option.isNone(claim)) return
    const repo = yield* IdempotencyRepository
    yield* repo
      .complete(claim.value.tenant, claim.value.key, { status, body, sealed })
      .pipe(Effect.catchTag("RecordNotFound", Effect.die))
    claim.value.recorded = true
  })

/** Stores a 200 response with `value` encoded by `schema` (the endpoint's success schema). */
export const recordSuccess = <A, I>(
  schema: Schema.Schema<A, I>,
  value: A,
  sealed?: ReadonlyArray<string>
) =>
  Schema.encode(schema)(value).pipe(
    Effect.orDie,
    Effect.flatMap((body) => record(200, body as Json, sealed))
  )

/**
 * A record made earlier under the request's key (a pending charge or refund) may be resumed
 * only by the same request: another body under the key is refused, as the edge refuses it.
 */
export const sameRequest = (claim: Claim, fingerprint: string | null) =>
  fingerprint === null || fingerprint === claim.fingerprint
    ? Effect.void
    : Effect.fail(
        new ApiError.InvalidRequestError({
          code: "idempotency_key_reused",
          param: "Idempotency-Key",
          message:
            "This Idempotency-Key was already used with a different request; use a new key for a new request."
        })
      )

/**
 * Marks the current claim answered by a write that stored its response itself (a settle), or
 * that must not be stored at all (a payment the processor left pending): the edge then
 * neither stores nor forgets it.
 */
export const answered = Effect.map(FiberRef.get(CurrentClaim), (claim) => {
  if (Option.isSome(claim)) claim.value.recorded = true
})

/** The claim of the current request, for a handler that stores its response itself. */
export const currentClaim: Effect.Effect<Option.Option<Claim>> = FiberRef.get(CurrentClaim)

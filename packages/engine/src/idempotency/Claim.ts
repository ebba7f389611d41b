/**
 * A claimed Idempotency-Key (docs/design.md §7). Whoever serves a request takes the claim
 * first (the HTTP edge, or `Levy` in-process); a workflow that writes gets it as an argument
 * and stores its response with `record` inside the write's transaction, so the write and the
 * stored response commit together: a retry after a crash either replays that response or,
 * when nothing committed, runs again — never a second write.
 */
import {
  IdempotencyKeyReused,
  IdempotencyRepository,
  type Json,
  type StorageError,
  type StoredResponse,
  storedSuccess,
  type Tenant
} from "@levy/storage"
import { Effect, Option, Schema } from "effect"

/** A key claimed for one request. */
export interface Claim {
  readonly tenant: Tenant.Tenant
  readonly key: string
  /** What the request was: a record resumed under the key must match. */
  readonly fingerprint: string
}

/** The key a record or event made for the request names, if any. */
export const keyOf = (claim: Option.Option<Claim>): string | null =>
  Option.isNone(claim) ? null : claim.value.key

/** The request's fingerprint a record made for it keeps, if any. */
export const fingerprintOf = (claim: Option.Option<Claim>): string | null =>
  Option.isNone(claim) ? null : claim.value.fingerprint

/**
 * Stores `response` as the one to replay for `claim` (if any); the top-level fields named in
 * `sealed` hold secrets and are stored sealed.
 */
export const record = (
  claim: Option.Option<Claim>,
  response: StoredResponse
): Effect.Effect<void, StorageError, IdempotencyRepository> =>
  Option.isNone(claim)
    ? Effect.void
    : Effect.flatMap(IdempotencyRepository, (repo) =>
        repo
          .complete(claim.value.tenant, claim.value.key, response)
          .pipe(Effect.catchTag("RecordNotFound", Effect.die), Effect.asVoid)
      )

/** Stores the success `value`, encoded by `schema` (the result's schema). */
export const recordSuccess = <A, I>(
  claim: Option.Option<Claim>,
  schema: Schema.Schema<A, I>,
  value: A,
  sealed?: ReadonlyArray<string>
) =>
  Option.isNone(claim)
    ? Effect.void
    : Schema.encode(schema)(value).pipe(
        Effect.orDie,
        Effect.flatMap((body) => record(claim, storedSuccess(body as Json, sealed)))
      )

/**
 * A record made earlier under the request's key (a pending charge or refund) may be resumed
 * only by the same request: another body under the key is refused, as the edge refuses it.
 */
export const sameRequest = (claim: Claim, fingerprint: string | null) =>
  fingerprint === null || fingerprint === claim.fingerprint
    ? Effect.void
    : Effect.fail(new IdempotencyKeyReused({ key: claim.key }))

/**
 * Idempotency for handlers not yet written as workflows: the request's claim from its context
 * (`RequestClaim`), its response stored with the write, and the edge told so.
 */
import type { ApiError } from "@levy/api"
import * as Claims from "@levy/engine/idempotency/Claim.js"
import * as RequestClaim from "@levy/engine/idempotency/RequestClaim.js"
import { Effect, Option, type Schema } from "effect"
import { toApiError } from "./ApiErrors.js"

export type { Claim } from "@levy/engine/idempotency/Claim.js"

/** Stores a 200 response with `value` encoded by `schema` (the endpoint's success schema). */
export const recordSuccess = <A, I>(
  schema: Schema.Schema<A, I>,
  value: A,
  sealed?: ReadonlyArray<string>
) =>
  Effect.flatMap(RequestClaim.current, (claim) =>
    Option.isNone(claim)
      ? Effect.void
      : Effect.zipRight(
          Claims.recordSuccess(claim, schema, value, sealed),
          RequestClaim.report("stored")
        )
  )

/** The claim of the current request, for a handler that stores its response itself. */
export const currentClaim = RequestClaim.current

/** Marks the current claim answered by a write that stored its response (or must not store it). */
export const answered = RequestClaim.report("stored")

/** `Claim.sameRequest`, refused as the API's error. */
export const sameRequest = (
  claim: Claims.Claim,
  fingerprint: string | null
): Effect.Effect<void, ApiError.InvalidRequestError> =>
  Effect.catchAll(Claims.sameRequest(claim, fingerprint), toApiError)

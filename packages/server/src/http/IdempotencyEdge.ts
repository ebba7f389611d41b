/**
 * The edge's half of idempotency (docs/design.md §7): before a POST with an `Idempotency-Key`
 * runs, claim the key for (account, mode); replay the stored response when the same request
 * already finished (`Idempotent-Replayed: true`); 409 while it is still running; 400 when
 * the key came with another request. The claim travels to the handler as a service of the
 * request (`RequestClaim`). After it ran: a workflow that wrote has already stored its
 * response with the write, and said so (`Written`); otherwise a 200 is stored now, and any
 * other answer forgets the claim, so a retry runs again (nothing was written for it). A stored
 * success replays as the 200 with its body; a stored failure (a charge or refund the processor
 * refused) as the API's error made again from the record that failed (`ReplayedFailures`).
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { ApiError } from "@levy/api"
import * as Deadline from "@levy/engine/idempotency/Deadline.js"
import * as Fingerprint from "@levy/engine/idempotency/Fingerprint.js"
import * as IdempotencyKey from "@levy/engine/idempotency/IdempotencyKey.js"
import * as RequestClaim from "@levy/engine/idempotency/RequestClaim.js"
import * as Written from "@levy/engine/idempotency/Written.js"
import {
  IdempotencyRepository,
  type Json,
  type StorageError,
  type StoredResponse,
  storedSuccess,
  type Tenant
} from "@levy/storage"
import { type Duration, Effect, Option } from "effect"
import { ReplayedFailures, type ReplayFailure } from "./ReplayedFailures.js"

/** The longest a request holding a key may run (Deadline.ts). */
export const DEADLINE = Deadline.DEADLINE

/** The header, as the server sees it. */
export const HEADER = "idempotency-key"

const unavailable = (error: StorageError) =>
  Effect.logError("idempotency store failure", error).pipe(
    Effect.zipRight(
      Effect.fail(
        new ApiError.ServiceUnavailableError({
          message:
            "The service is temporarily unavailable; retry later with the same Idempotency-Key."
        })
      )
    )
  )

/**
 * What of a request the claim is taken over: its operation (method and target) and its
 * parameters as the endpoint decoded them (`params`); a body that does not decode keeps its
 * text (`text`: it is refused with a 400, never stored, so only a retry in flight compares it).
 */
export interface Claimed {
  readonly method: string
  readonly url: string
  readonly params: { readonly decoded: unknown } | { readonly text: string }
}

/** The key of a POST, validated; none for other methods or when absent. */
export const keyOf = (request: {
  readonly method: string
  readonly headers: Readonly<Record<string, string | undefined>>
}) => {
  const key = request.headers[HEADER]
  if (request.method !== "POST" || key === undefined) return Effect.succeed(Option.none<string>())
  if (!IdempotencyKey.isValid(key)) {
    return Effect.fail(
      new ApiError.InvalidRequestError({
        param: "Idempotency-Key",
        message: `An Idempotency-Key must be 1 to ${IdempotencyKey.MAX_LENGTH} characters.`
      })
    )
  }
  return Effect.succeed(Option.some(key))
}

/**
 * What makes two requests "the same": the operation (method and path: no POST takes query
 * parameters) and its parameters (Fingerprint.ts), as `LevyService` fingerprints them.
 */
const fingerprintOf = (request: Claimed) => {
  const operation = `${request.method} ${request.url.split("?")[0]}`
  return "decoded" in request.params
    ? Fingerprint.ofParameters(operation, request.params.decoded)
    : Fingerprint.ofText(operation, request.params.text)
}

const bodyOf = (response: HttpServerResponse.HttpServerResponse): Json | undefined => {
  if (response.body._tag !== "Uint8Array") return undefined
  try {
    return JSON.parse(new TextDecoder().decode(response.body.body)) as Json
  } catch {
    return undefined
  }
}

/** A replay is marked so (Stripe's header): the client sees it did not run again. */
const REPLAYED = { "idempotent-replayed": "true" }

/** The answer a key stored, sent again. */
const replay = (
  replayFailure: ReplayFailure,
  tenant: Tenant.Tenant,
  key: string,
  response: StoredResponse
) =>
  response.outcome === "succeeded"
    ? Effect.succeed(HttpServerResponse.unsafeJson(response.body, { headers: REPLAYED }))
    : Effect.map(replayFailure(tenant, key, response), (error) => {
        const answer = ApiError.toResponse(error)
        return HttpServerResponse.unsafeJson(answer.body, {
          status: answer.status,
          headers: REPLAYED
        })
      })

/** Runs `respond` (a request already turned into a response, errors included) under the key. */
export const make = (deadline: Duration.DurationInput = DEADLINE) =>
  Effect.gen(function* () {
    const repo = yield* IdempotencyRepository
    const replayFailure = yield* ReplayedFailures
    return <R>(
      tenant: Tenant.Tenant,
      key: string,
      request: Claimed,
      respond: Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
    ) =>
      Effect.gen(function* () {
        const fingerprint = fingerprintOf(request)
        const begun = yield* repo.begin(tenant, key, fingerprint).pipe(
          Effect.catchTags({
            IdempotencyKeyInUse: () =>
              new ApiError.IdempotencyError({
                message:
                  "A request with this Idempotency-Key is still being processed; retry after it finishes."
              }),
            IdempotencyKeyReused: () =>
              new ApiError.InvalidRequestError({
                code: "idempotency_key_reused",
                param: "Idempotency-Key",
                message:
                  "This Idempotency-Key was already used with a different request; use a new key for a new request."
              }),
            StorageError: unavailable
          })
        )
        if (begun._tag === "Replay")
          return yield* replay(replayFailure, tenant, key, begun.response)
        const claim = yield* RequestClaim.RequestClaim.make({ tenant, key, fingerprint })
        const forget = repo.release(tenant, key).pipe(Effect.catchAll(unavailable), Effect.ignore)
        const response = yield* respond.pipe(
          Effect.provideService(RequestClaim.RequestClaim, claim),
          Effect.onInterrupt(() => forget),
          Effect.timeoutFail({
            duration: deadline,
            onTimeout: () =>
              new ApiError.ServiceUnavailableError({
                message:
                  "The request took too long and was stopped without effect; retry with the same Idempotency-Key."
              })
          })
        )
        // The request's write stored the response with itself, or let the claim go on purpose.
        if (Written.isSettled(yield* RequestClaim.recordingOf(claim))) return response
        // Every success of the API is a 200; anything else is not kept.
        const body = response.status === 200 ? bodyOf(response) : undefined
        if (body === undefined) {
          yield* forget
          return response
        }
        yield* repo
          .complete(tenant, key, storedSuccess(body))
          .pipe(
            Effect.catchTag("RecordNotFound", Effect.die),
            Effect.catchAll(unavailable),
            Effect.ignore
          )
        return response
      })
  })

/**
 * The `Authorization` middleware of the api package: bearer key → `CurrentKey`, 401 for a
 * missing or unknown key, 403 for a publishable key outside its endpoints (docs/design.md §5).
 * The edge has usually resolved the key already (for the rate limit); it is reused here
 * (`RequestKey`, in the request's context).
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { ApiError, Authorization, type CurrentKey, LevyApi } from "@levy/api"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import * as AuthorizationHeader from "./AuthorizationHeader.js"
import { KeyResolver, type KeyResolverService, type ResolvedKey } from "./KeyResolver.js"
import { type KeyLookup, RequestKey } from "./RequestKey.js"

/** What of a request decides whether a publishable key may make it. */
export interface Target {
  readonly method: string
  readonly url: string
}

const noKey = new ApiError.AuthenticationError({
  message: "You did not provide an API key: use Authorization: Bearer <key>."
})
const invalidKey = new ApiError.AuthenticationError({ message: "Invalid API key provided." })
const publishableRefused = new ApiError.PermissionError({
  message: "Publishable keys may not make this request; use a secret key."
})

/** Whether the key `found` for a secret may make a request to `target`. */
const admit = (
  found: Option.Option<ResolvedKey>,
  target: Target
): Either.Either<CurrentKey.Key, ApiError.AuthenticationError | ApiError.PermissionError> => {
  if (Option.isNone(found)) return Either.left(invalidKey)
  const key = found.value
  if (key.kind !== "publishable") return Either.right(key)
  const pathname = new URL(target.url, "http://levy.invalid").pathname
  return LevyApi.allowsPublishableKey(target.method, pathname)
    ? Either.right(key)
    : Either.left(publishableRefused)
}

/**
 * The middleware's decision for a bearer `secret` sent to `target`: the edge's key when it
 * came from the same secret, else the resolver's.
 */
export const authorize = (
  resolver: KeyResolverService,
  secret: string,
  resolved: Option.Option<KeyLookup>,
  target: Target
): Effect.Effect<CurrentKey.Key, ApiError.AuthenticationError | ApiError.PermissionError> => {
  if (secret === "") return Effect.fail(noKey)
  // The edge looked this secret up already: its answer stands, found or not (an unknown key
  // costs the store one lookup, not two).
  if (Option.isSome(resolved) && resolved.value.secret === secret) {
    return admit(resolved.value.key, target)
  }
  return Effect.flatMap(Effect.orDie(resolver.resolve(secret)), (found) => admit(found, target))
}

/** `Bearer ` as the platform's bearer decoding strips it (without looking at it). */
const BEARER_LENGTH = "Bearer ".length

/**
 * The middleware's decision for a request's `Authorization` header: a header that is not a
 * bearer key is told so (AuthorizationHeader.ts), else the key it carries is `authorize`d.
 * The edge (http/Edge.ts) calls this for every endpoint of the contract.
 */
export const authorizeHeader = (
  resolver: KeyResolverService,
  header: string | undefined,
  resolved: Option.Option<KeyLookup>,
  target: Target
): Effect.Effect<CurrentKey.Key, ApiError.AuthenticationError | ApiError.PermissionError> => {
  const malformed = AuthorizationHeader.problemOf(header)
  return malformed === undefined
    ? authorize(resolver, (header ?? "").slice(BEARER_LENGTH), resolved, target)
    : Effect.fail(malformed)
}

/**
 * The contract's `Authorization` middleware for a server built with HttpApiBuilder (Levy's
 * own edge does not need it: it calls `authorizeHeader`).
 */
export const AuthorizationLive = Layer.effect(
  Authorization.Authorization,
  Effect.gen(function* () {
    const resolver = yield* KeyResolver
    return {
      bearer: (token) =>
        Effect.flatMap(RequestKey, (resolved) =>
          Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
            const malformed = AuthorizationHeader.problemOf(request.headers.authorization)
            return malformed === undefined
              ? authorize(resolver, Redacted.value(token), resolved, request)
              : Effect.fail(malformed)
          })
        )
    }
  })
)

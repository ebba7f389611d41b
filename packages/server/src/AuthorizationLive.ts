/**
 * The `Authorization` middleware of the api package: bearer key → `CurrentKey`, 401 for a
 * missing or unknown key, 403 for a publishable key outside its endpoints (decisions §5).
 * The edge has usually resolved the key already (for the rate limit); it is reused here.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { ApiError, Authorization, type CurrentKey, LevyApi } from "@levy/api"
import { Effect, FiberRef, Layer, Option, Redacted } from "effect"
import { KeyResolver, type KeyResolverService, type ResolvedKey } from "./KeyResolver.js"

/** A key the edge resolved, with the secret it came from. */
export interface EdgeResolved {
  readonly secret: string
  readonly key: ResolvedKey
}

/** The key the edge resolved for this request, with the secret it came from. */
export const EdgeKey = FiberRef.unsafeMake<Option.Option<EdgeResolved>>(Option.none())

/**
 * The middleware's decision for a bearer `secret`: the edge's key when it came from the same
 * secret, else the resolver's. The edge's direct dispatch (http/HotRoutes.ts) calls this too.
 */
export const authorize = (
  resolver: KeyResolverService,
  secret: string,
  resolved: Option.Option<EdgeResolved>
): Effect.Effect<
  CurrentKey.Key,
  ApiError.AuthenticationError | ApiError.PermissionError,
  HttpServerRequest.HttpServerRequest
> =>
  Effect.gen(function* () {
    if (secret === "") {
      return yield* new ApiError.AuthenticationError({
        message: "You did not provide an API key: use Authorization: Bearer <key>."
      })
    }
    const found =
      Option.isSome(resolved) && resolved.value.secret === secret
        ? Option.some(resolved.value.key)
        : yield* Effect.orDie(resolver.resolve(secret))
    if (Option.isNone(found)) {
      return yield* new ApiError.AuthenticationError({ message: "Invalid API key provided." })
    }
    const key = found.value
    if (key.kind === "publishable") {
      const request = yield* HttpServerRequest.HttpServerRequest
      const pathname = new URL(request.url, "http://levy.invalid").pathname
      if (!LevyApi.allowsPublishableKey(request.method, pathname)) {
        return yield* new ApiError.PermissionError({
          message: "Publishable keys may not make this request; use a secret key."
        })
      }
    }
    return key
  })

export const AuthorizationLive = Layer.effect(
  Authorization.Authorization,
  Effect.gen(function* () {
    const resolver = yield* KeyResolver
    return {
      bearer: (token) =>
        Effect.flatMap(FiberRef.get(EdgeKey), (resolved) =>
          authorize(resolver, Redacted.value(token), resolved)
        )
    }
  })
)

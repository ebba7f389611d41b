/**
 * The `Authorization` middleware of the api package: bearer key → `CurrentKey`, 401 for a
 * missing or unknown key, 403 for a publishable key outside its endpoints (decisions §5).
 * The edge has usually resolved the key already (for the rate limit); it is reused here.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { ApiError, Authorization, LevyApi } from "@levy/api"
import { Effect, FiberRef, Layer, Option, Redacted } from "effect"
import { KeyResolver, type ResolvedKey } from "./KeyResolver.js"

/** The key the edge resolved for this request, with the secret it came from. */
export const EdgeKey = FiberRef.unsafeMake<
  Option.Option<{ readonly secret: string; readonly key: ResolvedKey }>
>(Option.none())

export const AuthorizationLive = Layer.effect(
  Authorization.Authorization,
  Effect.gen(function* () {
    const resolver = yield* KeyResolver
    return {
      bearer: (token) =>
        Effect.gen(function* () {
          const secret = Redacted.value(token)
          if (secret === "") {
            return yield* new ApiError.AuthenticationError({
              message: "You did not provide an API key: use Authorization: Bearer <key>."
            })
          }
          const cached = yield* FiberRef.get(EdgeKey)
          const found =
            Option.isSome(cached) && cached.value.secret === secret
              ? Option.some(cached.value.key)
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
    }
  })
)

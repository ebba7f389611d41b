/**
 * The global edge of the HTTP API (docs/design.md §9, §10), one `HttpApiBuilder.middleware`
 * around the router, so it sees every request, matched or not:
 *
 * - a `request-id` header on every response, and the rate-limit headers;
 * - the rate limit per API key (per client address without a valid key): 429 + Retry-After;
 * - `Levy-Version`: absent → 2025-01, known → echoed, unknown → 400;
 * - the documentation (`GET /docs`, `GET /v1/openapi.json`) skips the key, the rate limit and
 *   the version check, and is marked cacheable; so does the dashboard (`GET /dashboard…`), with
 *   its Content-Security-Policy, and `GET /favicon.ico` (an empty 204);
 * - bodies: over the limit → 413 (by Content-Length, or while reading), not JSON → 400;
 * - every failure as `{error: {type, code, message, param?}}`: the API's own errors,
 *   `HttpApiDecodeError` (→ 400 naming the first field), malformed JSON (a `RequestError`),
 *   unknown routes (404) and wrong methods (405, with `Allow`), anything else 500 without
 *   detail (the cause is logged);
 * - the keyless routes (KeylessRoute.ts: the processors' webhooks, which the processor's
 *   signature authenticates) skip the key and the version check; the server's composition
 *   provides them, so the edge names no resource.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { ApiError, Headers } from "@levy/api"
import { Tenant } from "@levy/storage"
import { Cause, Effect, Option } from "effect"
import { authorize, type Target } from "../access/AuthorizationLive.js"
import { KeyResolver } from "../access/KeyResolver.js"
import { RequestKey } from "../access/RequestKey.js"
import { ServerApi } from "../ServerApi.js"
import * as BodyLimit from "./BodyLimit.js"
import * as ClientAddress from "./ClientAddress.js"
import * as Cors from "./Cors.js"
import * as Dashboard from "./Dashboard.js"
import * as Docs from "./Docs.js"
import { EdgeConfig, type EdgeOptions } from "./EdgeConfig.js"
import * as Favicon from "./Favicon.js"
import * as IdempotencyEdge from "./IdempotencyEdge.js"
import * as JsonDepth from "./JsonDepth.js"
import * as KeylessRoute from "./KeylessRoute.js"
import * as NulText from "./NulText.js"
import * as RateLimit from "./RateLimit.js"
import * as RequestId from "./RequestId.js"
import { allowedMethods, isOffPath, pathnameOf, type Route, routesOf } from "./Routes.js"

const ESTIMATES_PATH = "/v1/estimates"

/** A fresh request id: `req_` + 24 hex digits. */
export const newRequestId = (): string => RequestId.next()

const tagOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string"
    ? u._tag
    : undefined

const tooLarge = (max: number) =>
  new ApiError.PayloadTooLargeError({
    message: `Request bodies may be at most ${max} bytes.`
  })

/** The error for a body that could not be read, by the `cause` the read failed with. */
export const unreadableBody = (cause: unknown, maxBodyBytes: number): ApiError.LevyError => {
  if (cause instanceof Error && cause.message === "maxBytes exceeded") return tooLarge(maxBodyBytes)
  return new ApiError.InvalidRequestError({
    code: "body_invalid",
    message:
      cause instanceof Error && cause.message === JsonDepth.TOO_DEEP
        ? `The request body nests more than ${JsonDepth.MAX_DEPTH} levels deep.`
        : "The request body could not be read as JSON."
  })
}

/** Any failure or defect as one of the API's errors (+ an Allow header for a 405). */
export const toLevyError = (
  error: unknown,
  request: Target,
  routes: ReadonlyArray<Route>,
  options: EdgeOptions
): { readonly error: ApiError.LevyError; readonly allow?: string } => {
  if (ApiError.isLevyError(error)) return { error }
  switch (tagOf(error)) {
    case "HttpApiDecodeError":
      return {
        error: ApiError.fromIssues((error as { issues: ReadonlyArray<ApiError.Issue> }).issues)
      }
    case "RouteNotFound": {
      const pathname = pathnameOf(request)
      const allowed = allowedMethods(routes, pathname)
      return allowed.length === 0
        ? {
            error: new ApiError.NotFoundError({
              code: "route_not_found",
              message: `Unrecognized request URL (${request.method}: ${pathname}).`
            })
          }
        : {
            error: new ApiError.MethodNotAllowedError({
              message: `${pathname} does not accept ${request.method}; allowed: ${allowed.join(", ")}.`
            }),
            allow: allowed.join(", ")
          }
    }
    case "RequestError":
      return { error: unreadableBody((error as { cause?: unknown }).cause, options.maxBodyBytes) }
    // A database failure that reached the edge unmapped (logged as unexpected, to be mapped
    // where it arose) is still what it is: the service is unavailable, not broken, and the
    // client may retry. A 500 would tell it the opposite.
    case "SqlError":
    case "StorageError":
      return {
        error: new ApiError.ServiceUnavailableError({
          message:
            "The service is temporarily unavailable; retry later with the same Idempotency-Key."
        })
      }
    default:
      return {
        error: new ApiError.ApiError({ message: "An internal error occurred; please retry." })
      }
  }
}

/**
 * The answer to a failed request: its status and body, the Allow header of a 405, and whether
 * the failure was unexpected (a 5xx that is not one of the API's errors: its cause is logged).
 */
export const failureOf = (
  cause: Cause.Cause<unknown>,
  request: Target,
  routes: ReadonlyArray<Route>,
  options: EdgeOptions
) => {
  const squashed = Cause.squash(cause)
  const { error, allow } = toLevyError(squashed, request, routes, options)
  const { status, body } = ApiError.toResponse(error)
  return { status, body, allow, unexpected: !ApiError.isLevyError(squashed) && status >= 500 }
}

/** The secret of an `Authorization: Bearer <secret>` header. */
export const bearerOf = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined) return undefined
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  return match?.[1]
}

/** Whether a Content-Type names JSON (`application/json`, `…+json`; parameters ignored). */
const isJson = (contentType: string | undefined): boolean => {
  const media = contentType?.split(";")[0]?.trim().toLowerCase()
  return media === "application/json" || (media?.endsWith("+json") ?? false)
}

/**
 * Every route the server answers past the keyless ones (which own their paths whole): the
 * API's, the documentation's, the dashboard's and the favicon's (for 404 against 405, and
 * CORS preflights).
 */
export const servedRoutes: ReadonlyArray<Route> = [
  ...routesOf(ServerApi),
  ...Docs.routes,
  ...Dashboard.routes,
  ...Favicon.routes
]

/**
 * The edge as a global HttpApi middleware layer; needs a `KeyResolver`, a `RateLimiter` and
 * the `KeylessRoutes`.
 */
export const EdgeLive = HttpApiBuilder.middleware(
  Effect.gen(function* () {
    const resolver = yield* KeyResolver
    const limiter = yield* RateLimiter.RateLimiter
    const routes = servedRoutes
    const options = yield* EdgeConfig
    const docs = yield* Docs.app
    const dashboard = Dashboard.make(options.dashboardDir)
    const idempotent = yield* IdempotencyEdge.make()
    const gate = RateLimit.makeGate(limiter, options.rateLimits, resolver)
    const trusted = ClientAddress.proxies(options.trustedProxies ?? [])
    const keyless = yield* KeylessRoute.KeylessRoutes

    return (app) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        // Set on whatever this returns (below): every response passes there.
        const requestId = newRequestId()
        const headers: Record<string, string> = {
          "request-id": requestId,
          ...(request.headers.origin === undefined ? {} : Cors.RESPONSE_HEADERS)
        }

        /** The request's outcome as a response: every failure in the error shape. */
        const respond = <R>(
          effect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>
        ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
          effect.pipe(
            Effect.catchAllCause((cause): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
              if (Cause.isInterruptedOnly(cause))
                return Effect.failCause(cause as Cause.Cause<never>)
              const { status, body, allow, unexpected } = failureOf(cause, request, routes, options)
              const logged = unexpected ? Effect.logError("request failed", cause) : Effect.void
              const response = BodyLimit.closeAfter413(
                HttpServerResponse.unsafeJson(body, { status })
              )
              return logged.pipe(
                Effect.as(
                  allow === undefined
                    ? response
                    : HttpServerResponse.setHeader(response, "allow", allow)
                )
              )
            })
          )

        const handled = Effect.gen(function* () {
          if (isOffPath(request.url)) {
            return yield* new ApiError.NotFoundError({
              code: "route_not_found",
              message: `Unrecognized request URL (${request.method}: ${request.url.slice(0, 200)}); paths start with a single '/', e.g. /v1/charges.`
            })
          }
          const pathname = pathnameOf(request)
          // The documentation is public and static: no key, no rate limit, no version check.
          if (allowedMethods(Docs.routes, pathname).includes(request.method)) {
            headers["cache-control"] = Docs.CACHE_CONTROL
            const page = yield* docs
            if (page.body._tag === "Uint8Array" && pathname === Docs.DOCS_PATH) {
              Object.assign(headers, Docs.securityHeaders(page.body.body))
            }
            return page
          }
          // So is the dashboard's page: it calls /v1 with the key the user signs in with.
          if (allowedMethods(Favicon.routes, pathname).includes(request.method)) {
            headers["cache-control"] = Favicon.CACHE_CONTROL
            return Favicon.response
          }
          if (allowedMethods(Dashboard.routes, pathname).includes(request.method)) {
            Object.assign(headers, Dashboard.SECURITY_HEADERS)
            return yield* dashboard(pathname, request.headers["accept-encoding"])
          }
          const address = ClientAddress.of(
            Option.getOrUndefined(request.remoteAddress),
            request.headers["x-forwarded-for"],
            trusted
          )
          // E.g. a processor's notification: signed by the processor, not by an API key.
          const owner = KeylessRoute.ownerOf(keyless, pathname)
          if (owner !== undefined) return yield* owner.handle(request, pathname, address, headers)
          const secret = bearerOf(request.headers.authorization)
          const failOpen =
            options.rateLimits.failOpenEstimates === true &&
            request.method === "POST" &&
            pathname === ESTIMATES_PATH
          const key = yield* gate(secret, address, failOpen, headers)
          const allowed = allowedMethods(routes, pathname)
          if (Cors.isPreflight(request) && allowed.length > 0) return Cors.preflight(allowed)

          const version = request.headers["levy-version"]
          if (version !== undefined && version !== Headers.API_VERSION) {
            return yield* new ApiError.InvalidRequestError({
              param: "Levy-Version",
              message: `Unknown Levy-Version '${version}'; supported: ${Headers.API_VERSION}.`
            })
          }
          headers["levy-version"] = Headers.API_VERSION

          const known = allowed.includes(request.method)
          const length = request.headers["content-length"]
          const hasBody =
            (length !== undefined && length !== "0") ||
            request.headers["transfer-encoding"] !== undefined
          if (known && hasBody) {
            if (length !== undefined && Number(length) > options.maxBodyBytes) {
              return yield* tooLarge(options.maxBodyBytes)
            }
            if (length === undefined) BodyLimit.discardOverflow(request)
            if (!isJson(request.headers["content-type"])) {
              return yield* new ApiError.InvalidRequestError({
                code: "content_type_invalid",
                param: "Content-Type",
                message: "Request bodies must be JSON: send Content-Type: application/json."
              })
            }
          }

          const nulInUrl = NulText.checkUrl(request.url)
          if (known && nulInUrl !== undefined) return yield* nulInUrl
          const withKey = Option.fromNullable(secret === undefined ? undefined : { secret, key })
          const maxBodySize = Option.some(FileSystem.Size(options.maxBodyBytes))
          // One read of the (cached) text for both scans.
          const bodyChecks = Effect.flatMap(
            request.text,
            (
              text
            ): Effect.Effect<void, ApiError.InvalidRequestError | HttpServerError.RequestError> => {
              if (JsonDepth.exceeds(text)) return Effect.fail(JsonDepth.tooDeep(request))
              const nul = NulText.checkBody(text)
              return nul === undefined ? Effect.void : Effect.fail(nul)
            }
          )
          const dispatched = (known && hasBody ? bodyChecks : Effect.void).pipe(
            Effect.zipRight(app),
            Effect.provideService(RequestKey, withKey),
            Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBodySize)
          )
          const idempotencyKey = yield* IdempotencyEdge.keyOf(request)
          if (!known || Option.isNone(key) || Option.isNone(idempotencyKey))
            return yield* dispatched
          // Authorized before the claim: a key refused this request never reaches the responses
          // stored for it. A publishable key reaches only endpoints that write nothing, so its
          // requests are neither recorded nor replayed (docs/design.md §7): a public key can
          // neither read a secret key's stored responses nor take keys from its space.
          const current = yield* authorize(resolver, secret ?? "", withKey, request)
          if (current.kind === "publishable") return yield* dispatched
          // The claim reads the body first (the handler then gets the cached text), within the limit.
          return yield* idempotent(
            Tenant.make(key.value.accountId, key.value.mode === "live"),
            idempotencyKey.value,
            request,
            respond(dispatched)
          ).pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBodySize))
        })

        // Every log line of the request names it, as the response header does.
        yield* RequestId.annotateLogs(requestId)
        return yield* respond(handled).pipe(
          Effect.map((response) => HttpServerResponse.setHeaders(response, headers))
        )
      })
  })
)

/**
 * The edge: every request to the server, whatever its transport (NodeListener.ts for node:http,
 * WebHandler.ts for `fetch`), answered by one function of the request (docs/design.md §9,
 * §10). It serves the HttpApi contract itself (Contract.ts: routes, decoders and encoders
 * from the definition) and calls the groups' handlers (ApiHandlers.ts), with no router or
 * HttpApp between: a profile put most of a request's CPU in the platform's per-request
 * machinery, not in Levy's work (docs/performance.md).
 *
 * - a `request-id` header on every response, and the rate-limit headers;
 * - the rate limit per API key (per client address without a valid key): 429 + Retry-After;
 * - `Levy-Version`: absent → 2025-01, known → echoed, unknown → 400;
 * - the documentation (`GET /docs`, `GET /v1/openapi.json`) skips the key, the rate limit and
 *   the version check, and is marked cacheable; so does the dashboard (`GET /dashboard…`), with
 *   its Content-Security-Policy, and `GET /favicon.ico` (an empty 204);
 * - bodies: over the limit → 413 (by Content-Length, or while reading), neither JSON nor a
 *   form (`application/x-www-form-urlencoded`, FormBody.ts, coerced by the endpoint's schema) → 400;
 * - the `Authorization` middleware of the contract, then the endpoint's path, payload, headers
 *   and query decoded by its schemas (→ 400 naming the first field), its handler, its success
 *   encoded;
 * - every failure as `{error: {type, code, message, param?}}`: the API's own errors, malformed
 *   JSON, unknown routes (404) and wrong methods (405, with `Allow`), anything else 500
 *   without detail (the cause is logged);
 * - the keyless routes (KeylessRoute.ts: the processors' webhooks, which the processor's
 *   signature authenticates) skip the key and the version check; the server's composition
 *   provides them, so the edge names no resource.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { ApiError, CurrentKey, Headers } from "@levy/api"
import { Tenant } from "@levy/storage"
import { Cause, Context, Effect, Either, Option, Runtime } from "effect"
import { authorizeHeader, type Target } from "../access/AuthorizationLive.js"
import { KeyResolver, type ResolvedKey } from "../access/KeyResolver.js"
import * as ApiHandlers from "./ApiHandlers.js"
import * as BodyLimit from "./BodyLimit.js"
import * as ClientAddress from "./ClientAddress.js"
import * as Contract from "./Contract.js"
import * as Cors from "./Cors.js"
import * as Dashboard from "./Dashboard.js"
import * as Docs from "./Docs.js"
import { EdgeConfig, type EdgeOptions } from "./EdgeConfig.js"
import type { EdgeRequest } from "./EdgeRequest.js"
import * as Favicon from "./Favicon.js"
import * as FormBody from "./FormBody.js"
import * as IdempotencyEdge from "./IdempotencyEdge.js"
import * as JsonDepth from "./JsonDepth.js"
import * as KeylessRoute from "./KeylessRoute.js"
import * as NulText from "./NulText.js"
import * as RateLimit from "./RateLimit.js"
import * as RequestId from "./RequestId.js"
import * as ResponseHeaders from "./ResponseHeaders.js"
import { allowedMethods, isOffPath, pathnameOf, type Route } from "./Routes.js"
import { ServerApi } from "./ServerApi.js"

const ESTIMATES_PATH = "/v1/estimates"

type Response = HttpServerResponse.HttpServerResponse

/** The edge: the answer to any request, every failure in the error shape. */
export interface Edge {
  /**
   * The response and the edge's headers for it (request id, rate limit, CORS…), which the
   * transport adds. Fails only when interrupted (the client went away).
   */
  readonly answer: (request: EdgeRequest) => Effect.Effect<Answer>
  /** What `answer` runs on: the server's context with every group's handlers' (ApiHandlers.ts). */
  readonly runtime: Runtime.Runtime<never>
  /** The largest body the transports read for it (`EdgeConfig`). */
  readonly maxBodyBytes: number
}

/** A response, and the headers the edge adds to it. */
export interface Answer {
  readonly response: Response
  readonly headers: Readonly<Record<string, string>>
}

const notJson = () =>
  new ApiError.InvalidRequestError({
    code: "body_invalid",
    message: "The request body could not be read as JSON."
  })

const tooDeep = () =>
  new ApiError.InvalidRequestError({
    code: "body_invalid",
    message: `The request body nests more than ${JsonDepth.MAX_DEPTH} levels deep.`
  })

const tagOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string"
    ? u._tag
    : undefined

/** Any failure or defect as one of the API's errors. */
export const asApiError = (error: unknown): ApiError.AnyError => {
  if (ApiError.isAnyError(error)) return error
  switch (tagOf(error)) {
    // A database failure that reached the edge unmapped (logged as unexpected, to be mapped
    // where it arose) is still what it is: the service is unavailable, not broken, and the
    // client may retry. A 500 would tell it the opposite.
    case "SqlError":
    case "StorageError":
      return new ApiError.ServiceUnavailableError({
        message:
          "The service is temporarily unavailable; retry later with the same Idempotency-Key."
      })
    default:
      return new ApiError.ApiError({ message: "An internal error occurred; please retry." })
  }
}

/**
 * The answer to a failed request: its status and body, and whether the failure was
 * unexpected (a 5xx that is not one of the API's errors: its cause is logged).
 */
export const failureOf = (cause: Cause.Cause<unknown>) => {
  const squashed = Cause.squash(cause)
  const { status, body } = ApiError.toResponse(asApiError(squashed))
  return { status, body, unexpected: !ApiError.isAnyError(squashed) && status >= 500 }
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

/** The routes answered without a key (the docs, the dashboard, the favicon). */
const PUBLIC_ROUTES: ReadonlyArray<Route> = [...Docs.routes, ...Dashboard.routes, ...Favicon.routes]

/** The query of a URL as the platform's router gives it: a repeated name as an array. */
const queryOf = (url: string): Record<string, string | Array<string>> => {
  const params: Record<string, string | Array<string>> = {}
  const start = url.indexOf("?")
  if (start === -1) return params
  const fragment = url.indexOf("#", start)
  const query = url.slice(start + 1, fragment === -1 ? undefined : fragment)
  for (const [name, value] of new URLSearchParams(query)) {
    const seen = params[name]
    if (seen === undefined) params[name] = value
    else if (Array.isArray(seen)) seen.push(value)
    else params[name] = [seen, value]
  }
  return params
}

/** A decoded part of the request, or the 400 for it, or nothing when the endpoint has none. */
const decodeWith = (
  decode: Option.Option<Contract.Decode>,
  input: () => unknown
): Either.Either<unknown, ApiError.AnyError> =>
  decode._tag === "None" ? Either.right(undefined) : decode.value(input())

/** JSON text as the platform reads a body (`""` is `null`). */
const parse = (text: string): Either.Either<unknown, ApiError.AnyError> => {
  try {
    return Either.right(text === "" ? null : (JSON.parse(text) as unknown))
  } catch {
    return Either.left(notJson())
  }
}

/** A form body's parameters, or its 400 (past the limits, or a value holding a NUL). */
const formParams = (text: string): Either.Either<unknown, ApiError.AnyError> =>
  Either.flatMap(FormBody.parse(text), (params) => {
    const nul = NulText.checkValue(params)
    return nul === undefined ? Either.right(params) : Either.left(nul)
  })

/** The endpoint's payload from the request's body: JSON, or a form (FormBody.ts); none without one. */
const payloadOf = (
  endpoint: Contract.Endpoint,
  request: EdgeRequest
): Either.Either<unknown, ApiError.AnyError> => {
  const text = request.body._tag === "Text" ? request.body.text : ""
  if (FormBody.isForm(request.headers["content-type"])) {
    return endpoint.decodeFormPayload._tag === "None"
      ? Either.right(undefined)
      : Either.flatMap(formParams(text), endpoint.decodeFormPayload.value)
  }
  return endpoint.decodePayload._tag === "None"
    ? Either.right(undefined)
    : Either.flatMap(parse(text), endpoint.decodePayload.value)
}

/**
 * Payloads already decoded for a keyed request's fingerprint (`paramsOf`), so its handler reads
 * the same value instead of decoding the body a second time.
 */
const decodedFor = new WeakMap<EdgeRequest, Either.Either<unknown, ApiError.AnyError>>()

/** `payloadOf`, or the payload the fingerprint already decoded. */
const payloadOnce = (endpoint: Contract.Endpoint, request: EdgeRequest) =>
  decodedFor.get(request) ?? payloadOf(endpoint, request)

/**
 * The edge over the server's context: needs a `KeyResolver`, a `RateLimiter`, the
 * `EdgeConfig`, the `KeylessRoutes`, every group's handlers (ApiHandlers.ts) and the
 * idempotency store.
 */
export const make = Effect.gen(function* () {
  const resolver = yield* KeyResolver
  const limiter = yield* RateLimiter.RateLimiter
  const options = yield* EdgeConfig
  const docs = yield* Docs.make
  const dashboard = Dashboard.make(options.dashboardDir)
  const idempotent = yield* IdempotencyEdge.make()
  const gate = RateLimit.makeGate(limiter, options.rateLimits, resolver)
  const trusted = ClientAddress.proxies(options.trustedProxies ?? [])
  const keyless = yield* KeylessRoute.KeylessRoutes
  const { handlers, context: handlersContext } = yield* ApiHandlers.all
  const server = yield* Effect.runtime<never>()
  // The handlers' services under the server's own (which win, as a request's did over a
  // group's in HttpApiBuilder), merged once here rather than for every request.
  const runtime = Runtime.make({
    context: Context.merge(handlersContext, server.context),
    runtimeFlags: server.runtimeFlags,
    fiberRefs: server.fiberRefs
  })
  const endpoints = Contract.endpointsOf(ServerApi)
  const table = Contract.router(endpoints)
  const handlerOf = new Map<Contract.Endpoint, ApiHandlers.Handler>()
  for (const endpoint of endpoints) {
    const handler = handlers.get(`${endpoint.group}.${endpoint.name}`)
    if (handler === undefined) {
      return yield* Effect.dieMessage(`no handler for ${endpoint.group}.${endpoint.name}`)
    }
    handlerOf.set(endpoint, handler)
  }
  const max = options.maxBodyBytes

  /** The methods `pathname` accepts (its API `matches`), every route counted (for 405 and preflights). */
  const methodsAt = (
    matches: ReadonlyArray<Contract.Match>,
    pathname: string
  ): ReadonlyArray<string> => {
    const api = table.methods(matches)
    const open = allowedMethods(PUBLIC_ROUTES, pathname)
    return open.length === 0 ? api : [...new Set([...api, ...open])]
  }

  const notRouted = (
    request: Target,
    pathname: string,
    allowed: ReadonlyArray<string>,
    headers: Record<string, string>
  ) => {
    if (allowed.length === 0) {
      return new ApiError.NotFoundError({
        code: "route_not_found",
        message: `Unrecognized request URL (${request.method}: ${pathname}).`
      })
    }
    headers.allow = allowed.join(", ")
    return new ApiError.MethodNotAllowedError({
      message: `${pathname} does not accept ${request.method}; allowed: ${allowed.join(", ")}.`
    })
  }

  /** The endpoint's answer: the contract's middleware, decoding, the handler, the encoding. */
  const serve = (
    request: EdgeRequest,
    match: Contract.Match,
    withKey: Option.Option<{ readonly secret: string; readonly key: Option.Option<ResolvedKey> }>,
    headers: Record<string, string>
  ): Effect.Effect<Response, unknown> => {
    const { endpoint, params } = match
    const handler = handlerOf.get(endpoint) as ApiHandlers.Handler
    return Effect.flatMap(
      authorizeHeader(resolver, request.headers.authorization, withKey, request),
      (key) => {
        const decoded = Either.all({
          path: decodeWith(endpoint.decodePath, () => params),
          payload: payloadOnce(endpoint, request),
          headers: decodeWith(endpoint.decodeHeaders, () => request.headers),
          urlParams: decodeWith(endpoint.decodeUrlParams, () => queryOf(request.url))
        })
        if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
        return handler.run(decoded.right).pipe(
          Effect.provideService(CurrentKey.CurrentKey, key),
          Effect.provideService(ResponseHeaders.ResponseHeaders, headers),
          Effect.flatMap((value) => endpoint.encodeSuccess(value)),
          Effect.map((body) =>
            HttpServerResponse.text(JSON.stringify(body), {
              status: endpoint.status,
              contentType: endpoint.contentType
            })
          )
        )
      }
    )
  }

  /** The body checks of a request to a known route that carries a body. */
  const bodyProblem = (request: EdgeRequest): ApiError.AnyError | undefined => {
    const body = request.body
    if (body._tag === "TooLarge") return BodyLimit.tooLarge(max)
    if (body._tag === "Unreadable") return notJson()
    // A form's limits and NULs are checked as it is parsed (FormBody.ts).
    if (FormBody.isForm(request.headers["content-type"])) return undefined
    if (JsonDepth.exceeds(body.text)) return tooDeep()
    return NulText.checkBody(body.text)
  }

  /** A keyed request's parameters for its fingerprint: decoded when they decode, else the text. */
  const paramsOf = (
    request: EdgeRequest,
    matches: ReturnType<typeof table.at>,
    hasBody: boolean
  ) => {
    const match = table.find(matches, request.method)
    const payload =
      match === undefined || (hasBody && bodyProblem(request) !== undefined)
        ? undefined
        : payloadOf(match.endpoint, request)
    if (payload !== undefined) decodedFor.set(request, payload)
    return payload !== undefined && Either.isRight(payload)
      ? { decoded: payload.right }
      : { text: request.body._tag === "Text" ? request.body.text : "" }
  }

  /** A request past its rate limit, to an API route (or none). */
  const api = (
    request: EdgeRequest,
    pathname: string,
    secret: string | undefined,
    key: Option.Option<ResolvedKey>,
    headers: Record<string, string>
  ): Effect.Effect<Response, unknown> => {
    const matches = table.at(pathname)
    const allowed = methodsAt(matches, pathname)
    if (Cors.isPreflight(request) && allowed.length > 0) {
      return Effect.succeed(Cors.preflight(allowed))
    }
    const version = request.headers["levy-version"]
    if (version !== undefined && version !== Headers.API_VERSION) {
      return Effect.fail(
        new ApiError.InvalidRequestError({
          param: "Levy-Version",
          message: `Unknown Levy-Version '${version}'; supported: ${Headers.API_VERSION}.`
        })
      )
    }
    headers["levy-version"] = Headers.API_VERSION

    const known =
      allowed.includes(request.method) || (request.method === "HEAD" && allowed.includes("GET"))
    const length = request.headers["content-length"]
    const hasBody =
      (length !== undefined && length !== "0") || request.headers["transfer-encoding"] !== undefined
    if (known && hasBody) {
      if (length !== undefined && Number(length) > max) return Effect.fail(BodyLimit.tooLarge(max))
      const contentType = request.headers["content-type"]
      if (!isJson(contentType) && !FormBody.isForm(contentType)) {
        return Effect.fail(
          new ApiError.InvalidRequestError({
            code: "content_type_invalid",
            param: "Content-Type",
            message:
              "Request bodies must be JSON (Content-Type: application/json) or a form (Content-Type: application/x-www-form-urlencoded)."
          })
        )
      }
    }
    const nulInUrl = known ? NulText.checkUrl(request.url) : undefined
    if (nulInUrl !== undefined) return Effect.fail(nulInUrl)

    const withKey = Option.fromNullable(secret === undefined ? undefined : { secret, key })
    const dispatched = Effect.suspend((): Effect.Effect<Response, unknown> => {
      const problem = known && hasBody ? bodyProblem(request) : undefined
      if (problem !== undefined) return Effect.fail(problem)
      const match = table.find(matches, request.method)
      return match === undefined
        ? Effect.fail(notRouted(request, pathname, allowed, headers))
        : serve(request, match, withKey, headers)
    })
    return Effect.flatMap(IdempotencyEdge.keyOf(request), (idempotencyKey) => {
      if (!known || Option.isNone(key) || Option.isNone(idempotencyKey)) return dispatched
      // Authorized before the claim: a key refused this request never reaches the responses
      // stored for it. A publishable key reaches only endpoints that write nothing, so its
      // requests are neither recorded nor replayed (docs/design.md §7): a public key can
      // neither read a secret key's stored responses nor take keys from its space.
      return Effect.flatMap(
        authorizeHeader(resolver, request.headers.authorization, withKey, request),
        (current) =>
          current.kind === "publishable"
            ? dispatched
            : idempotent(
                Tenant.make(key.value.accountId, key.value.mode === "live"),
                idempotencyKey.value,
                {
                  method: request.method,
                  url: request.url,
                  params: paramsOf(request, matches, hasBody)
                },
                answered(dispatched)
              )
      )
    })
  }

  /** The route for a request: the public pages, the keyless routes, else the API. */
  const route = (
    request: EdgeRequest,
    headers: Record<string, string>
  ): Effect.Effect<Response, unknown> => {
    if (isOffPath(request.url)) {
      return Effect.fail(
        new ApiError.NotFoundError({
          code: "route_not_found",
          message: `Unrecognized request URL (${request.method}: ${request.url.slice(0, 200)}); paths start with a single '/', e.g. /v1/charges.`
        })
      )
    }
    const pathname = pathnameOf(request)
    if (request.method === "GET") {
      // The documentation is public and static: no key, no rate limit, no version check.
      if (allowedMethods(Docs.routes, pathname).length > 0) {
        headers["cache-control"] = Docs.CACHE_CONTROL
        return Effect.map(docs(pathname, request.headers), (page) => {
          if (page.body._tag === "Uint8Array" && pathname === Docs.DOCS_PATH) {
            Object.assign(headers, Docs.securityHeaders(page.body.body))
          }
          return page
        })
      }
      if (allowedMethods(Favicon.routes, pathname).length > 0) {
        headers["cache-control"] = Favicon.CACHE_CONTROL
        return Effect.succeed(Favicon.response)
      }
      // So is the dashboard's page: it calls /v1 with the key the user signs in with.
      if (allowedMethods(Dashboard.routes, pathname).length > 0) {
        Object.assign(headers, Dashboard.SECURITY_HEADERS)
        return dashboard(pathname, request.headers["accept-encoding"])
      }
    }
    const address = ClientAddress.of(
      request.remoteAddress,
      request.headers["x-forwarded-for"],
      trusted
    )
    // E.g. a processor's notification: signed by the processor, not by an API key.
    const owner = KeylessRoute.ownerOf(keyless, pathname)
    if (owner !== undefined) return owner.handle(request, pathname, address, headers)
    const secret = bearerOf(request.headers.authorization)
    const failOpen =
      options.rateLimits.failOpenEstimates === true &&
      request.method === "POST" &&
      pathname === ESTIMATES_PATH
    return Effect.flatMap(gate(secret, address, failOpen, headers), (key) =>
      api(request, pathname, secret, key, headers)
    )
  }

  return {
    answer: (request) => {
      // Set on whatever this returns (below): every response passes there.
      const requestId = RequestId.next()
      const headers: Record<string, string> =
        request.headers.origin === undefined
          ? { "request-id": requestId }
          : { "request-id": requestId, ...Cors.RESPONSE_HEADERS }
      // Every log line of the request names it, as the response header does.
      return Effect.zipRight(
        RequestId.annotateLogs(requestId),
        Effect.map(
          // Suspended: a throw while routing is a defect answered as a 500, never one that
          // escapes into node's event loop.
          answered(Effect.suspend(() => route(request, headers))),
          (response) => ({ response, headers })
        )
      )
    },
    runtime,
    maxBodyBytes: max
  } satisfies Edge
})

/** A request's outcome as a response: every failure in the error shape (interruption kept). */
const answered = <R>(
  effect: Effect.Effect<Response, unknown, R>
): Effect.Effect<Response, never, R> =>
  Effect.catchAllCause(effect, (cause): Effect.Effect<Response> => {
    if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
    const { status, body, unexpected } = failureOf(cause)
    const response = BodyLimit.closeAfter413(HttpServerResponse.unsafeJson(body, { status }))
    return unexpected
      ? Effect.as(Effect.logError("request failed", cause), response)
      : Effect.succeed(response)
  })

export type { EdgeOptions }

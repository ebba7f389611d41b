/**
 * Direct dispatch of the hottest endpoint, `POST /v1/estimates`, from the edge: the same
 * steps as HttpApiBuilder's route for it, in the same order and with the endpoint's own
 * schemas taken from the `LevyApi` definition, without the router, the per-route context
 * merges and the generic payload plumbing, which together cost more than the estimate itself.
 *
 * The steps, as HttpApiBuilder runs them: the API's `Authorization` middleware (the same
 * `authorize` as AuthorizationLive, given the key the edge resolved) gives the key; the body
 * is read as JSON (a defect when it is not, as HttpApiBuilder's `Effect.orDie(request.json)`;
 * read by JsonBody, which keeps `request.json`'s semantics at a fraction of its cost); the
 * payload, then the headers, are decoded with the endpoint's schemas (a `ParseError` becomes
 * the same `HttpApiDecodeError`); the handler runs; its value is encoded with the endpoint's
 * success schema as JSON with the success status. Errors are left to the edge, as from the
 * router. The key and the body limit are passed as arguments rather than through the fiber
 * (`Effect.locally` / `provideService` cost an acquire/release and two copies of the fiber's
 * references each).
 *
 * Only requests the router would send to exactly this endpoint with a JSON body are
 * dispatched here (anything else — a trailing slash, another content type — takes the
 * generic path). If the contract gives the endpoint any middleware besides the API's
 * `Authorization`, or a non-JSON success, there is no direct dispatch at all.
 */
import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Authorization, type CurrentKey } from "@levy/api"
import { Context, Effect, Layer, Option, ParseResult, Schema } from "effect"
import { authorize, type EdgeResolved } from "../AuthorizationLive.js"
import { EstimateHandler } from "../estimates/EstimatesLive.js"
import { KeyResolver } from "../KeyResolver.js"
import { ServerApi } from "../ServerApi.js"
import * as JsonBody from "./JsonBody.js"

/** What the edge knows when it hands a request on. */
export interface EdgeState {
  /** The key it resolved from the bearer secret, if any. */
  readonly key: Option.Option<EdgeResolved>
  /** The largest body it accepts, bytes. */
  readonly maxBodyBytes: number
}

type Response = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  unknown,
  HttpServerRequest.HttpServerRequest
>

export interface HotRoutesService {
  /** The direct handling of `request` when it is for a hot endpoint, else `viaRouter`. */
  readonly dispatch: <E, R>(
    request: HttpServerRequest.HttpServerRequest,
    edge: EdgeState,
    viaRouter: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) => Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    unknown,
    R | HttpServerRequest.HttpServerRequest
  >
}

/** No direct dispatch: everything through the router (the default, e.g. for an edge alone). */
export const none: HotRoutesService = { dispatch: (_request, _edge, viaRouter) => viaRouter }

export class HotRoutes extends Context.Reference<HotRoutes>()("@levy/server/HotRoutes", {
  defaultValue: (): HotRoutesService => none
}) {}

/** The served API, seen as any HttpApi (its middlewares, groups and endpoints). */
const api =
  ServerApi satisfies HttpApi.HttpApi.Any as HttpApi.HttpApi.Any as HttpApi.HttpApi.AnyWithProps

/** `Bearer ` as HttpApiBuilder's bearer decoding strips it (without looking at it). */
const BEARER_LENGTH = "Bearer ".length

/** Whether HttpApiBuilder would read this body as JSON (no Content-Type counts as JSON). */
const readsAsJson = (contentType: string | undefined): boolean =>
  contentType === undefined || contentType.toLowerCase().trim().includes("application/json")

/** Whether the router would send a request for `url` to `path` (no parameters in `path`). */
const matches = (url: string, path: string): boolean =>
  url === path || (url.startsWith(path) && url.charCodeAt(path.length) === 63) // "?"

/** An endpoint served directly. */
interface Route {
  readonly method: string
  readonly path: string
  readonly run: (request: HttpServerRequest.HttpServerRequest, edge: EdgeState) => Response
}

/** The key for a request, as the `Authorization` middleware decides it. */
type Authorize = (
  request: HttpServerRequest.HttpServerRequest,
  edge: EdgeState
) => Effect.Effect<CurrentKey.Key, unknown, HttpServerRequest.HttpServerRequest>

/**
 * The direct run of `group`'s `endpoint` with `handler`, or none when the endpoint needs more
 * than this module does (see above). The handler gets the key and the decoded payload.
 */
const compile = (
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  authorizeRequest: Authorize,
  handler: (key: CurrentKey.Key, payload: never) => Effect.Effect<unknown, unknown>
): Option.Option<Route> => {
  const apiMiddlewares = [...api.middlewares]
  const onlyAuthorization =
    apiMiddlewares.length === 1 &&
    apiMiddlewares[0]?.key === Authorization.Authorization.key &&
    group.middlewares.size === 0 &&
    endpoint.middlewares.size === 0
  const success = endpoint.successSchema as Schema.Schema<unknown, unknown>
  const encoding = HttpApiSchema.getEncoding(success.ast)
  if (
    !onlyAuthorization ||
    encoding.kind !== "Json" ||
    endpoint.path.includes(":") ||
    Option.isSome(endpoint.urlParamsSchema) ||
    Option.isSome(endpoint.pathSchema) ||
    Option.isNone(endpoint.payloadSchema)
  ) {
    return Option.none()
  }
  const status = HttpApiSchema.getStatusSuccess(success)
  const decodePayload = Schema.decodeUnknown(endpoint.payloadSchema.value)
  const decodeHeaders = Option.map(endpoint.headersSchema, Schema.decodeUnknown)
  const encodeSuccess = Schema.encode(success)
  const respond = (value: unknown) =>
    Effect.flatMap(encodeSuccess(value), (body) =>
      Effect.mapError(
        HttpServerResponse.json(body, { status, contentType: encoding.contentType }),
        (error) => new ParseResult.ParseError({ issue: new ParseResult.Type(success.ast, error) })
      )
    )
  const run = (
    request: HttpServerRequest.HttpServerRequest,
    key: CurrentKey.Key,
    maxBodyBytes: number
  ) =>
    Effect.orDie(JsonBody.read(request, maxBodyBytes)).pipe(
      Effect.flatMap(decodePayload),
      Effect.tap(() =>
        decodeHeaders._tag === "Some" ? decodeHeaders.value(request.headers) : Effect.void
      ),
      Effect.flatMap((payload) => handler(key, payload as never)),
      Effect.flatMap(respond),
      Effect.catchIf(ParseResult.isParseError, HttpApiDecodeError.refailParseError)
    )
  return Option.some({
    method: endpoint.method,
    path: endpoint.path,
    run: (request, edge) =>
      Effect.flatMap(authorizeRequest(request, edge), (key) => run(request, key, edge.maxBodyBytes))
  })
}

/** The hot routes of the server: `POST /v1/estimates` with the `EstimateHandler`. */
export const make = Effect.gen(function* () {
  const resolver = yield* KeyResolver
  const estimate = yield* EstimateHandler
  const authorizeRequest: Authorize = (request, edge) =>
    authorize(resolver, (request.headers.authorization ?? "").slice(BEARER_LENGTH), edge.key)
  const group = api.groups.estimates
  const endpoint = group?.endpoints.create
  const routes =
    group === undefined || endpoint === undefined
      ? []
      : Option.toArray(compile(group, endpoint, authorizeRequest, estimate))
  if (routes.length === 0) {
    yield* Effect.logWarning("POST /v1/estimates is served through the router: no direct dispatch")
  }
  const service: HotRoutesService = {
    dispatch: (request, edge, viaRouter) => {
      for (const route of routes) {
        if (
          request.method === route.method &&
          matches(request.url, route.path) &&
          readsAsJson(request.headers["content-type"])
        ) {
          return route.run(request, edge)
        }
      }
      return viaRouter
    }
  }
  return service
})

/** The direct dispatch as a layer; needs the `KeyResolver` and the handlers. */
export const layer = Layer.effect(HotRoutes, make)

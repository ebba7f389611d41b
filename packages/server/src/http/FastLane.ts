/**
 * The fast lane: `POST /v1/estimates`, the hottest endpoint (a checkout asks for a quote on
 * every change of amount, region or card), answered straight from node:http, in front of
 * Effect's HttpServer. A profile put most of the server's time per estimate in the
 * platform's per-request machinery — request and response objects, the middleware chain,
 * the router, the edge as a fiber of ~170 steps — not in the estimate; here the request is
 * read with node's own stream and runs as one short effect.
 *
 * It answers exactly as the edge and the router do (test/FastLane.test.ts compares them
 * request by request): the same key resolution, rate limit and headers (RateLimit.ts), the
 * same depth check, the same `authorize`, the endpoint's own payload, headers and success
 * schemas from the `LevyApi` definition, the same handler (`Handler`: the router's, passed in by
 * the server's composition, Server.ts, so http/ names no resource), every failure
 * through the edge's `failureOf`, in the edge's order. It takes only the plain case: POST to
 * exactly /v1/estimates (a query string allowed), Content-Type application/json, a
 * Content-Length within the body limit, `Authorization: Bearer <key>`, no Idempotency-Key, no
 * Levy-Version other than the current one. Anything else goes on to the edge, which has the
 * rules for the rest. If the contract gives the endpoint anything this lane does not do (a
 * middleware besides `Authorization`, a non-JSON success, parameters), the lane is closed.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import * as RateLimiter from "@effect/experimental/RateLimiter"
import type * as HttpApi from "@effect/platform/HttpApi"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import {
  type ApiError,
  Authorization,
  type CurrentKey,
  type EstimateRequest,
  type Estimate as EstimateWire,
  Headers
} from "@levy/api"
import { Cause, Effect, Either, Exit, Option, ParseResult, Runtime, type Schema } from "effect"
import { authorize, type Target } from "../access/AuthorizationLive.js"
import { KeyResolver } from "../access/KeyResolver.js"
import { ServerApi } from "../ServerApi.js"
import * as ClientAddress from "./ClientAddress.js"
import * as Cors from "./Cors.js"
import { bearerOf, failureOf, servedRoutes, unreadableBody } from "./Edge.js"
import { EdgeConfig } from "./EdgeConfig.js"
import * as JsonDepth from "./JsonDepth.js"
import * as NulText from "./NulText.js"
import * as RateLimit from "./RateLimit.js"
import * as RequestId from "./RequestId.js"

/** A node:http request listener. */
export type Listener = (request: IncomingMessage, response: ServerResponse) => void

export interface FastLane {
  /** `next` with the lane in front: a request the lane takes never reaches `next`. */
  readonly before: (next: Listener) => Listener
}

/** What the lane answers with: the endpoint's handler, for the request's key and decoded payload. */
export type Handler = (
  key: CurrentKey.Key,
  payload: EstimateRequest.EstimateRequest
) => Effect.Effect<EstimateWire.Estimate, ApiError.LevyError>

/** No lane: every request goes to `next`. */
export const closed: FastLane = { before: (next) => next }

const PATH = "/v1/estimates"

/** `Bearer ` as HttpApiBuilder's bearer decoding strips it (without looking at it). */
const BEARER_LENGTH = "Bearer ".length

/** The served API, seen as any HttpApi (its middlewares, groups and endpoints). */
const api =
  ServerApi satisfies HttpApi.HttpApi.Any as HttpApi.HttpApi.Any as HttpApi.HttpApi.AnyWithProps

/**
 * A schema's parser failing with a `ParseError`, as the Effect one does, but run at once: the
 * API's schemas are synchronous, and an Either is an effect the fiber takes in one step.
 */
const synchronously =
  (parse: (u: unknown) => Either.Either<unknown, ParseResult.ParseIssue>) =>
  (u: unknown): Either.Either<unknown, ParseResult.ParseError> =>
    Either.mapLeft(parse(u), ParseResult.parseError)

/** The endpoint's schemas, or none when it needs more than this lane does (see above). */
const contract = () => {
  const group = api.groups.estimates
  const endpoint = group?.endpoints.create
  if (group === undefined || endpoint === undefined) return Option.none()
  const middlewares = [...api.middlewares]
  const success = endpoint.successSchema as Schema.Schema<unknown, unknown>
  const encoding = HttpApiSchema.getEncoding(success.ast)
  if (
    middlewares.length !== 1 ||
    middlewares[0]?.key !== Authorization.Authorization.key ||
    group.middlewares.size !== 0 ||
    endpoint.middlewares.size !== 0 ||
    encoding.kind !== "Json" ||
    endpoint.method !== "POST" ||
    endpoint.path !== PATH ||
    Option.isSome(endpoint.urlParamsSchema) ||
    Option.isSome(endpoint.pathSchema) ||
    Option.isNone(endpoint.payloadSchema)
  ) {
    return Option.none()
  }
  return Option.some({
    status: HttpApiSchema.getStatusSuccess(success),
    contentType: encoding.contentType,
    decodePayload: synchronously(
      ParseResult.decodeUnknownEither(endpoint.payloadSchema.value as Schema.Schema<unknown>)
    ),
    decodeHeaders: Option.map(endpoint.headersSchema, (headers) =>
      synchronously(ParseResult.decodeUnknownEither(headers as Schema.Schema<unknown>))
    ),
    encodeSuccess: synchronously(ParseResult.encodeEither(success))
  })
}

/** Whether the lane takes this request (the plain case, see above). */
export const takes = (
  request: Pick<IncomingMessage, "method" | "url" | "headers">,
  maxBodyBytes: number
): boolean => {
  const url = request.url ?? ""
  const headers = request.headers
  const length = headers["content-length"]
  const version = headers["levy-version"]
  const authorization = headers.authorization
  return (
    request.method === "POST" &&
    (url === PATH || (url.startsWith(PATH) && url.charCodeAt(PATH.length) === 63)) && // "?"
    length !== undefined &&
    /^\d{1,10}$/.test(length) &&
    Number(length) <= maxBodyBytes &&
    headers["transfer-encoding"] === undefined &&
    headers["idempotency-key"] === undefined &&
    (version === undefined || version === Headers.API_VERSION) &&
    headers["content-type"]?.split(";")[0]?.trim().toLowerCase() === "application/json" &&
    authorization !== undefined &&
    bearerOf(authorization) === authorization.slice(BEARER_LENGTH)
  )
}

/** The lane answering with `estimate`, over the key resolver, rate limiter and limits in context. */
export const make = Effect.fnUntraced(function* (estimate: Handler) {
  const schemas = contract()
  if (Option.isNone(schemas)) {
    yield* Effect.logWarning("POST /v1/estimates is served through the router: no fast lane")
    return closed
  }
  const { status, contentType, decodePayload, decodeHeaders, encodeSuccess } = schemas.value
  const resolver = yield* KeyResolver
  const limiter = yield* RateLimiter.RateLimiter
  const options = yield* EdgeConfig
  const run = Runtime.runCallback(yield* Effect.runtime<never>())
  const gate = RateLimit.makeGate(limiter, options.rateLimits, resolver)
  const trusted = ClientAddress.proxies(options.trustedProxies ?? [])
  const forwardedFor = (request: IncomingMessage) => {
    const header = request.headers["x-forwarded-for"]
    return Array.isArray(header) ? header.join(",") : header
  }

  /** JSON text as the router's body reading parses it (`""` is `null`). */
  const parse = (text: string): Either.Either<unknown, ApiError.LevyError> => {
    try {
      return Either.right(text === "" ? null : (JSON.parse(text) as unknown))
    } catch (error) {
      return Either.left(unreadableBody(error, options.maxBodyBytes))
    }
  }

  /** The response body for a request whose `text` has been read; fills `headers` on the way. */
  const answer = (
    request: IncomingMessage,
    target: Target,
    secret: string,
    text: string,
    headers: Record<string, string>
  ) =>
    Effect.flatMap(
      gate(
        secret,
        ClientAddress.of(request.socket.remoteAddress, forwardedFor(request), trusted),
        options.rateLimits.failOpenEstimates === true,
        headers
      ),
      (key) =>
        Effect.suspend(() => {
          headers["levy-version"] = Headers.API_VERSION
          return JsonDepth.exceeds(text)
            ? Effect.fail(unreadableBody(new Error(JsonDepth.TOO_DEEP), options.maxBodyBytes))
            : Effect.zipRight(
                Effect.suspend(() => {
                  const nul = NulText.checkUrl(target.url) ?? NulText.checkBody(text)
                  return nul === undefined ? Effect.void : Effect.fail(nul)
                }),
                authorize(resolver, secret, Option.some({ secret, key }), target)
              )
        }).pipe(
          Effect.flatMap((current) =>
            parse(text).pipe(
              Effect.flatMap(decodePayload),
              Effect.tap(() =>
                decodeHeaders._tag === "Some" ? decodeHeaders.value(request.headers) : Either.void
              ),
              Effect.catchIf(ParseResult.isParseError, HttpApiDecodeError.refailParseError),
              Effect.flatMap((payload) =>
                estimate(current, payload as EstimateRequest.EstimateRequest)
              ),
              Effect.flatMap(encodeSuccess),
              Effect.map((body) => JSON.stringify(body))
            )
          )
        )
    )

  const write = (
    response: ServerResponse,
    code: number,
    headers: Record<string, string>,
    body: string
  ) => {
    headers["content-type"] = contentType
    headers["content-length"] = String(Buffer.byteLength(body))
    response.writeHead(code, headers).end(body)
  }

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const requestId = RequestId.next()
    const headers: Record<string, string> =
      request.headers.origin === undefined
        ? { "request-id": requestId }
        : { "request-id": requestId, ...Cors.RESPONSE_HEADERS }
    const secret = (request.headers.authorization ?? "").slice(BEARER_LENGTH)
    const target: Target = { method: "POST", url: request.url ?? PATH }
    let text = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => {
      text += chunk
    })
    // A client that goes away mid-body gets no answer: there is nobody to give it to.
    request.once("error", () => response.destroy())
    request.once("end", () =>
      run(
        Effect.zipRight(
          RequestId.annotateLogs(requestId),
          answer(request, target, secret, text, headers)
        ),
        {
          onExit: (exit) => {
            const log = (cause: unknown) =>
              run(
                Effect.zipRight(
                  RequestId.annotateLogs(requestId),
                  Effect.logError("request failed", cause)
                )
              )
            // Nothing thrown here may reach node's event loop: it would end the process.
            try {
              if (Exit.isSuccess(exit)) return write(response, status, headers, exit.value)
              if (Cause.isInterruptedOnly(exit.cause)) return void response.destroy()
              const failure = failureOf(exit.cause, target, servedRoutes, options)
              if (failure.unexpected) log(exit.cause)
              write(response, failure.status, headers, JSON.stringify(failure.body))
            } catch (error) {
              log(error)
              response.destroy()
            }
          }
        }
      )
    )
  }

  const lane: FastLane = {
    before: (next) => (request, response) =>
      takes(request, options.maxBodyBytes) ? handle(request, response) : next(request, response)
  }
  return lane
})

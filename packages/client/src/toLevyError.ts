/**
 * Any failure of an Effect client call as the facade's `LevyError`: the API's decoded
 * errors by status, undeclared error statuses from their body, network failures and
 * timeouts as `NetworkError`, and a payload the schema refuses before sending as
 * `InvalidRequestError` naming the field (no status: it never left the client).
 */
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { ApiError } from "@levy/api"
import { Effect, ParseResult, Predicate } from "effect"
import {
  APIError,
  classOf,
  InvalidRequestError,
  LevyError,
  type LevyErrorFields,
  NetworkError
} from "./LevyError.js"
import { ResponseRecorder } from "./Transport.js"

const requestIdOf = (response: HttpClientResponse.HttpClientResponse | undefined) =>
  response?.headers["request-id"]

/** An error the API declares, decoded by HttpApiClient: it knows its status and wire type. */
interface DecodedApiError {
  readonly status: number
  readonly type: string
  readonly code: string
  readonly message: string
  readonly param?: string | undefined
  readonly declineCode?: string | undefined
  readonly charge?: string | undefined
}

const isDecodedApiError = (u: unknown): u is DecodedApiError =>
  Predicate.hasProperty(u, "_tag") &&
  Predicate.hasProperty(u, "status") &&
  typeof u.status === "number" &&
  Predicate.hasProperty(u, "code") &&
  Predicate.hasProperty(u, "type")

const fromDecoded = (
  error: DecodedApiError,
  response: HttpClientResponse.HttpClientResponse | undefined
): LevyError => {
  const Class = classOf(error.status)
  return new Class({
    message: error.message,
    type: error.type,
    code: error.code,
    statusCode: error.status,
    requestId: requestIdOf(response),
    param: error.param,
    declineCode: error.declineCode,
    charge: error.charge
  })
}

/** The `{error: {…}}` of a body, as far as it goes. */
const bodyFields = (
  body: unknown
): { readonly [K in keyof LevyErrorFields]?: string | undefined } => {
  if (!Predicate.hasProperty(body, "error") || !Predicate.isRecord(body.error)) return {}
  const e = body.error
  const str = (key: string) => (typeof e[key] === "string" ? (e[key] as string) : undefined)
  return {
    type: str("type"),
    code: str("code"),
    message: str("message"),
    param: str("param"),
    declineCode: str("declineCode"),
    charge: str("charge")
  }
}

/** A response whose status the endpoint does not declare (or an unreadable success). */
const fromResponse = (response: HttpClientResponse.HttpClientResponse) =>
  response.json.pipe(
    Effect.orElseSucceed(() => undefined),
    Effect.map((body): LevyError => {
      const status = response.status
      const fields = bodyFields(body)
      const Class = status >= 400 ? classOf(status) : APIError
      return new Class({
        type: "api_error",
        code: status >= 400 ? "unexpected_error" : "invalid_response",
        message: `Unexpected response with status ${status}.`,
        ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
        statusCode: status,
        requestId: requestIdOf(response)
      })
    })
  )

const networkError = (description: string, timedOut: boolean) =>
  new NetworkError({
    type: "network_error",
    code: timedOut ? "timeout" : "connection_error",
    message: timedOut ? `Request timed out: ${description}` : `Network error: ${description}`
  })

/** The facade's error for a failure `error`; `response` is the last response received, if any. */
export const toLevyError = (
  error: unknown,
  response: HttpClientResponse.HttpClientResponse | undefined
): Effect.Effect<LevyError> => {
  if (error instanceof LevyError) return Effect.succeed(error)
  if (isDecodedApiError(error)) return Effect.succeed(fromDecoded(error, response))
  if (Predicate.isTagged(error, "RequestError")) {
    const e = error as unknown as { reason: string; cause?: unknown; description?: string }
    const description = e.description ?? (e.cause instanceof Error ? e.cause.message : e.reason)
    if (e.reason === "Transport")
      return Effect.succeed(networkError(description, e.cause === "timeout"))
    return Effect.succeed(
      new InvalidRequestError({
        type: "invalid_request_error",
        code: "request_invalid",
        message: description
      })
    )
  }
  if (Predicate.isTagged(error, "ResponseError")) {
    return fromResponse(
      (error as unknown as { response: HttpClientResponse.HttpClientResponse }).response
    )
  }
  if (ParseResult.isParseError(error)) {
    if (response === undefined) {
      // refused by the schema before sending: the same 400 the server would give
      const refused = ApiError.fromParseError(error)
      return Effect.succeed(
        new InvalidRequestError({
          type: refused.type,
          code: refused.code,
          message: refused.message,
          param: refused.param
        })
      )
    }
    return Effect.succeed(
      new APIError({
        type: "api_error",
        code: "invalid_response",
        message: `The response does not match the API: ${error.message}`,
        statusCode: response.status,
        requestId: requestIdOf(response)
      })
    )
  }
  return Effect.succeed(
    new APIError({ type: "api_error", code: "client_error", message: String(error) })
  )
}

/**
 * `effect` (a call of the Effect client) with every failure as a `LevyError` carrying the
 * `request-id` of the response it came from: the facade's errors, for Effect code that
 * wants one error type (`NetworkError` for a timeout rather than an `HttpClientError`).
 */
export const withLevyErrors = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, LevyError, R> =>
  Effect.suspend(() => {
    const recorder: { last: HttpClientResponse.HttpClientResponse | undefined } = {
      last: undefined
    }
    return effect.pipe(
      Effect.catchAll((error) => Effect.flip(toLevyError(error, recorder.last))),
      Effect.provideService(ResponseRecorder, recorder)
    )
  })

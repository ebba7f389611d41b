/**
 * Every error of the `/v1` API (specification "Errors", docs/design.md §10). Each is a
 * `Schema.TaggedError` in the Effect error channel with a wire schema (`…Wire`) that
 * encodes it to exactly `{error: {type, code, message, param?}}` and decodes that body back,
 * annotated with its HTTP status, so server, OpenAPI document and client all follow it.
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import type { FeeError } from "@levy/core"
import { type ParseResult, Schema } from "effect"
import * as DecodeMessage from "./DecodeMessage.js"

/** The specification's `error.type` values. */
export const ErrorType = Schema.Literal(
  "invalid_request_error",
  "authentication_error",
  "card_error",
  "rate_limit_error",
  "api_error"
)
export type ErrorType = typeof ErrorType.Type

/** The fields every error carries besides its tag. */
export interface ErrorFields {
  readonly code: string
  readonly message: string
  readonly param?: string | undefined
}

const code = (fallback: string) =>
  Schema.String.pipe(
    Schema.propertySignature,
    Schema.withConstructorDefault(() => fallback)
  )

/** 400: invalid parameters; `param` names the offending one. */
export class InvalidRequestError extends Schema.TaggedError<InvalidRequestError>()(
  "InvalidRequestError",
  { code: code("parameter_invalid"), message: Schema.String, param: Schema.optional(Schema.String) }
) {
  get type(): "invalid_request_error" {
    return "invalid_request_error"
  }
  get status(): 400 {
    return 400
  }
}

/** 401: a missing, malformed or unknown API key. */
export class AuthenticationError extends Schema.TaggedError<AuthenticationError>()(
  "AuthenticationError",
  { code: code("invalid_api_key"), message: Schema.String, param: Schema.optional(Schema.String) }
) {
  get type(): "authentication_error" {
    return "authentication_error"
  }
  get status(): 401 {
    return 401
  }
}

/** 402: the card was declined; `declineCode` is the processor's reason, `charge` the failed charge. */
export class CardError extends Schema.TaggedError<CardError>()("CardError", {
  code: code("card_declined"),
  message: Schema.String,
  param: Schema.optional(Schema.String),
  declineCode: Schema.optional(Schema.String),
  charge: Schema.optional(Schema.String)
}) {
  get type(): "card_error" {
    return "card_error"
  }
  get status(): 402 {
    return 402
  }
}

/** 403: the key lacks the permission (a publishable key outside its three endpoints). */
export class PermissionError extends Schema.TaggedError<PermissionError>()("PermissionError", {
  code: code("permission_denied"),
  message: Schema.String,
  param: Schema.optional(Schema.String)
}) {
  get type(): "invalid_request_error" {
    return "invalid_request_error"
  }
  get status(): 403 {
    return 403
  }
}

/** 404: no such resource in this account and mode, or no such route. */
export class NotFoundError extends Schema.TaggedError<NotFoundError>()("NotFoundError", {
  code: code("resource_missing"),
  message: Schema.String,
  param: Schema.optional(Schema.String)
}) {
  get type(): "invalid_request_error" {
    return "invalid_request_error"
  }
  get status(): 404 {
    return 404
  }
}

/** The 404 for an object that is not in this account and mode, naming the parameter that held its id. */
export const noSuch = (entity: string, id: string, param = "id"): NotFoundError =>
  new NotFoundError({ message: `No such ${entity}: '${id}'`, param })

/** 405: the path exists but not with this method. */
export class MethodNotAllowedError extends Schema.TaggedError<MethodNotAllowedError>()(
  "MethodNotAllowedError",
  {
    code: code("method_not_allowed"),
    message: Schema.String,
    param: Schema.optional(Schema.String)
  }
) {
  get type(): "invalid_request_error" {
    return "invalid_request_error"
  }
  get status(): 405 {
    return 405
  }
}

/**
 * 409: a conflict with the state of the account: a request with the same Idempotency-Key is
 * still running (docs/design.md §7), or a fee or processor configuration change was judged
 * against a configuration that has changed since (`fee_config_change_stale`,
 * `fee_config_contended`, docs/design.md §6; `processor_config_change_stale`,
 * `processor_config_contended`, docs/design.md §4).
 */
export class IdempotencyError extends Schema.TaggedError<IdempotencyError>()("IdempotencyError", {
  code: code("idempotency_key_in_use"),
  message: Schema.String,
  param: Schema.optional(Schema.String)
}) {
  get type(): "invalid_request_error" {
    return "invalid_request_error"
  }
  get status(): 409 {
    return 409
  }
}

/** 413: the body is larger than 1 MiB (docs/design.md §9). */
export class PayloadTooLargeError extends Schema.TaggedError<PayloadTooLargeError>()(
  "PayloadTooLargeError",
  { code: code("payload_too_large"), message: Schema.String, param: Schema.optional(Schema.String) }
) {
  get type(): "invalid_request_error" {
    return "invalid_request_error"
  }
  get status(): 413 {
    return 413
  }
}

/** 429: the key's rate limit is exceeded (the server adds `Retry-After`). */
export class RateLimitError extends Schema.TaggedError<RateLimitError>()("RateLimitError", {
  code: code("rate_limit_exceeded"),
  message: Schema.String,
  param: Schema.optional(Schema.String)
}) {
  get type(): "rate_limit_error" {
    return "rate_limit_error"
  }
  get status(): 429 {
    return 429
  }
}

/** 500: an internal failure; never carries a stack trace. */
export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  code: code("internal_error"),
  message: Schema.String,
  param: Schema.optional(Schema.String)
}) {
  get type(): "api_error" {
    return "api_error"
  }
  get status(): 500 {
    return 500
  }
}

/** 503: a dependency (store, processor) is unavailable; retry later. */
export class ServiceUnavailableError extends Schema.TaggedError<ServiceUnavailableError>()(
  "ServiceUnavailableError",
  {
    code: code("service_unavailable"),
    message: Schema.String,
    param: Schema.optional(Schema.String)
  }
) {
  get type(): "api_error" {
    return "api_error"
  }
  get status(): 503 {
    return 503
  }
}

/**
 * Every error class of the API, listed once: the edge tells the API's own errors from any
 * other failure by it (`isLevyError`), and `LevyError` is their union.
 */
export const ERROR_CLASSES = [
  InvalidRequestError,
  AuthenticationError,
  CardError,
  PermissionError,
  NotFoundError,
  MethodNotAllowedError,
  IdempotencyError,
  PayloadTooLargeError,
  RateLimitError,
  ApiError,
  ServiceUnavailableError
] as const

/** Any error of the API. */
export type LevyError = InstanceType<(typeof ERROR_CLASSES)[number]>

/** Whether `u` is one of the API's errors (an instance of a class of `ERROR_CLASSES`). */
export const isLevyError = (u: unknown): u is LevyError =>
  ERROR_CLASSES.some((Class) => u instanceof Class)

// ---- wire schemas ----------------------------------------------------------

/** The body of an error of `type`: `{error: {type, code, message, param?}}`. */
const Body = <const T extends ErrorType>(type: T, identifier: string) =>
  Schema.Struct({
    error: Schema.Struct({
      type: Schema.Literal(type),
      code: Schema.String.annotations({ description: "Machine-readable code." }),
      message: Schema.String.annotations({ description: "Human-readable text." }),
      param: Schema.optional(
        Schema.String.annotations({ description: "The offending parameter, when there is one." })
      )
    })
  }).annotations({ identifier })

const optionalParam = (param: string | undefined): { readonly param?: string } =>
  param === undefined ? {} : { param }

/** The wire schema of an error class: the spec's body on the outside, the class inside. */
const wireOf = <Self extends ErrorFields, const T extends ErrorType>(
  self: Schema.Schema<Self>,
  make: (fields: ErrorFields) => Self,
  type: T,
  status: number,
  identifier: string,
  description: string
) =>
  Schema.transform(Body(type, `${identifier}Body`), self, {
    strict: true,
    decode: ({ error }) =>
      make({ code: error.code, message: error.message, ...optionalParam(error.param) }),
    encode: (e) => ({
      error: { type, code: e.code, message: e.message, ...optionalParam(e.param) }
    })
  }).annotations({ ...HttpApiSchema.annotations({ status }), description })

/** InvalidRequestError on the wire (400). */
export const InvalidRequestErrorWire = wireOf(
  Schema.typeSchema(InvalidRequestError),
  (f) => new InvalidRequestError(f),
  "invalid_request_error",
  400,
  "InvalidRequestError",
  "Invalid parameters; `param` names the offending one."
)

/** AuthenticationError on the wire (401). */
export const AuthenticationErrorWire = wireOf(
  Schema.typeSchema(AuthenticationError),
  (f) => new AuthenticationError(f),
  "authentication_error",
  401,
  "AuthenticationError",
  "Missing or invalid API key."
)

const CardErrorBody = Schema.Struct({
  error: Schema.Struct({
    type: Schema.Literal("card_error"),
    code: Schema.String,
    message: Schema.String,
    param: Schema.optional(Schema.String),
    declineCode: Schema.optional(
      Schema.String.annotations({ description: "The processor's decline reason." })
    ),
    charge: Schema.optional(
      Schema.String.annotations({
        description: "Id of the failed charge, stored with status failed."
      })
    )
  })
}).annotations({ identifier: "CardErrorBody" })

/** CardError on the wire (402), with `declineCode` and `charge` when known. */
export const CardErrorWire = Schema.transform(CardErrorBody, Schema.typeSchema(CardError), {
  strict: true,
  decode: ({ error }) =>
    new CardError({
      code: error.code,
      message: error.message,
      ...optionalParam(error.param),
      ...(error.declineCode === undefined ? {} : { declineCode: error.declineCode }),
      ...(error.charge === undefined ? {} : { charge: error.charge })
    }),
  encode: (e) => ({
    error: {
      type: "card_error" as const,
      code: e.code,
      message: e.message,
      ...optionalParam(e.param),
      ...(e.declineCode === undefined ? {} : { declineCode: e.declineCode }),
      ...(e.charge === undefined ? {} : { charge: e.charge })
    }
  })
}).annotations({
  ...HttpApiSchema.annotations({ status: 402 }),
  description: "The card was declined."
})

/** PermissionError on the wire (403). */
export const PermissionErrorWire = wireOf(
  Schema.typeSchema(PermissionError),
  (f) => new PermissionError(f),
  "invalid_request_error",
  403,
  "PermissionError",
  "The API key lacks the permission for this request."
)

/** NotFoundError on the wire (404). */
export const NotFoundErrorWire = wireOf(
  Schema.typeSchema(NotFoundError),
  (f) => new NotFoundError(f),
  "invalid_request_error",
  404,
  "NotFoundError",
  "No such resource."
)

/** MethodNotAllowedError on the wire (405). */
export const MethodNotAllowedErrorWire = wireOf(
  Schema.typeSchema(MethodNotAllowedError),
  (f) => new MethodNotAllowedError(f),
  "invalid_request_error",
  405,
  "MethodNotAllowedError",
  "The path does not accept this method."
)

/** IdempotencyError on the wire (409). */
export const IdempotencyErrorWire = wireOf(
  Schema.typeSchema(IdempotencyError),
  (f) => new IdempotencyError(f),
  "invalid_request_error",
  409,
  "IdempotencyError",
  "A request with the same Idempotency-Key is still in progress."
)

/** PayloadTooLargeError on the wire (413). */
export const PayloadTooLargeErrorWire = wireOf(
  Schema.typeSchema(PayloadTooLargeError),
  (f) => new PayloadTooLargeError(f),
  "invalid_request_error",
  413,
  "PayloadTooLargeError",
  "The request body is larger than 1 MiB."
)

/** RateLimitError on the wire (429). */
export const RateLimitErrorWire = wireOf(
  Schema.typeSchema(RateLimitError),
  (f) => new RateLimitError(f),
  "rate_limit_error",
  429,
  "RateLimitError",
  "Too many requests for this API key; see Retry-After."
)

/** ApiError on the wire (500). */
export const ApiErrorWire = wireOf(
  Schema.typeSchema(ApiError),
  (f) => new ApiError(f),
  "api_error",
  500,
  "ApiError",
  "Internal server error."
)

/** ServiceUnavailableError on the wire (503). */
export const ServiceUnavailableErrorWire = wireOf(
  Schema.typeSchema(ServiceUnavailableError),
  (f) => new ServiceUnavailableError(f),
  "api_error",
  503,
  "ServiceUnavailableError",
  "The service is temporarily unavailable; retry later."
)

/** Every error's wire schema; encodes any `LevyError` (decode by status, not with this union). */
export const LevyErrorWire = Schema.Union(
  InvalidRequestErrorWire,
  AuthenticationErrorWire,
  CardErrorWire,
  PermissionErrorWire,
  NotFoundErrorWire,
  MethodNotAllowedErrorWire,
  IdempotencyErrorWire,
  PayloadTooLargeErrorWire,
  RateLimitErrorWire,
  ApiErrorWire,
  ServiceUnavailableErrorWire
)

/** The wire body of an error. */
export type ErrorBody = typeof LevyErrorWire.Encoded

const encodeBody = Schema.encodeSync(LevyErrorWire)

/** The HTTP status and body of an error, for responses written outside HttpApi (404 routes, 413). */
export const toResponse = (
  error: LevyError
): { readonly status: number; readonly body: ErrorBody } => ({
  status: error.status,
  body: encodeBody(error)
})

// ---- from other failures ---------------------------------------------------

/** The engine's refusal of an input as the API's 400, with its code, message and param. */
export const fromFeeError = (error: FeeError): InvalidRequestError =>
  new InvalidRequestError({ code: error.code, message: error.message, param: error.param })

/** One issue of a failed decode, as `ParseResult.ArrayFormatter` and `HttpApiDecodeError` give it. */
export interface Issue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/** A decode path as a parameter name: `amount`, `metadata[order_id]`, `regionCodes[2]`. */
export const paramOf = DecodeMessage.paramOf

/** A 400 for a decode problem, worded for a person and bounded (DecodeMessage.MAX_MESSAGE). */
const invalidRequest = (
  kind: DecodeMessage.Problem["kind"],
  path: ReadonlyArray<PropertyKey>,
  reason: string
): InvalidRequestError => new InvalidRequestError(DecodeMessage.refusal(kind, path, reason))

/**
 * The first of already formatted issues (an `HttpApiDecodeError`'s) as a 400 naming the field:
 * `parameter_missing` for an absent required field, `parameter_unknown` for a field the
 * endpoint does not take, `parameter_invalid` otherwise. Prefer `fromParseIssue`, which words
 * the message itself.
 */
export const fromIssues = (issues: ReadonlyArray<Issue>): InvalidRequestError => {
  const issue = issues[0]
  if (issue === undefined) {
    return new InvalidRequestError({ code: "parameter_invalid", message: "Invalid request." })
  }
  const kind =
    issue._tag === "Missing" ? "missing" : issue._tag === "Unexpected" ? "unexpected" : "invalid"
  return invalidRequest(kind, issue.path, issue.message)
}

/**
 * The first problem of a failed decode as a 400 naming the field, in words a person reads
 * (DecodeMessage.ts): what was wrong, what is allowed, no schema internals, no long echo.
 */
export const fromParseIssue = (issue: ParseResult.ParseIssue): InvalidRequestError =>
  new InvalidRequestError(DecodeMessage.refusalOf(issue))

/** A failed decode of a request as a 400 naming the first offending field. */
export const fromParseError = (error: ParseResult.ParseError): InvalidRequestError =>
  fromParseIssue(error.issue)

/**
 * Every error of the `/v1` API (specification "Errors", docs/design.md §10). Each is a
 * `Schema.TaggedError` in the Effect error channel with a wire schema (`…Wire`) that
 * encodes it to exactly `{error: {type, code, message, param?}}` and decodes that body back,
 * annotated with its HTTP status, so server, OpenAPI document and client all follow it.
 * Each class is stated once, by `errorClass`: its tag, `type`, status, default code and
 * description make both the class and its wire schema.
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import type { FeeError } from "@levy/core"
import { type Cause, type ParseResult, Schema } from "effect"
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

/** Every error's own fields; `code` defaults to the class's. */
const commonFields = (code: string) => ({
  code: Schema.String.pipe(
    Schema.propertySignature,
    Schema.withConstructorDefault(() => code)
  ),
  message: Schema.String,
  param: Schema.optional(Schema.String)
})

type Fields<Tag extends string, Extra extends Schema.Struct.Fields> = {
  readonly _tag: Schema.tag<Tag>
} & ReturnType<typeof commonFields> &
  Extra

/** The body of an error on the wire: `{error: {type, code, message, param?, …extra}}`. */
export type WireBody<Type extends ErrorType, Extra extends Schema.Struct.Fields> = {
  readonly error: {
    readonly type: Type
    readonly code: string
    readonly message: string
    readonly param?: string
  } & Schema.Struct.Encoded<Extra>
}

/** An error class of the API: a `Schema.TaggedError` with its `type`, status and wire schema. */
export interface ErrorClass<
  Self,
  Tag extends string,
  Type extends ErrorType,
  Status extends number,
  Extra extends Schema.Struct.Fields
> extends Schema.Class<
    Self,
    Fields<Tag, Extra>,
    Schema.Struct.Encoded<Fields<Tag, Extra>>,
    never,
    Schema.Struct.Constructor<Omit<Fields<Tag, Extra>, "_tag">>,
    { readonly type: Type; readonly status: Status },
    Cause.YieldableError
  > {
  readonly _tag: Tag
  /** The error on the wire: the spec's body outside, the class inside, annotated with its status. */
  readonly wire: Schema.Schema<Self, WireBody<Type, Extra>>
}

/** What states an error class besides its tag. */
interface Spec<Type extends ErrorType, Status extends number, Extra extends Schema.Struct.Fields> {
  readonly type: Type
  readonly status: Status
  /** The `code` when the error is made without one. */
  readonly code: string
  /** The error's description in the OpenAPI document. */
  readonly description: string
  /** Optional fields besides `param`, on the class and in its body alike. */
  readonly fields?: Extra
}

/** The body schema of an error of `type`, named `${tag}Body` in the OpenAPI document. */
const bodyOf = (type: ErrorType, tag: string, extra: Schema.Struct.Fields) =>
  Schema.Struct({
    error: Schema.Struct({
      type: Schema.Literal(type),
      code: Schema.String.annotations({ description: "Machine-readable code." }),
      message: Schema.String.annotations({ description: "Human-readable text." }),
      param: Schema.optional(
        Schema.String.annotations({ description: "The offending parameter, when there is one." })
      ),
      ...extra
    })
  }).annotations({ identifier: `${tag}Body` })

/** The values of `keys` that `from` has, in that order (an absent optional field stays absent). */
const present = (
  from: Readonly<Record<string, unknown>>,
  keys: ReadonlyArray<string>
): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key]
  return out
}

type Made = (new (fields: object) => ErrorFields) & Schema.Schema<ErrorFields>

/** The wire schema of `Class` (a subclass of an `errorClass`), which its decode constructs. */
const wireOf = (
  Class: Made,
  tag: string,
  { type, status, description, fields = {} }: Spec<ErrorType, number, Schema.Struct.Fields>
) => {
  const optional = ["param", ...Object.keys(fields)]
  return Schema.transform(bodyOf(type, tag, fields), Schema.typeSchema(Class), {
    strict: false,
    decode: ({ error }) =>
      new Class({ code: error.code, message: error.message, ...present(error, optional) }),
    encode: (e) => ({
      error: {
        type,
        code: e.code,
        message: e.message,
        ...present(e as unknown as Record<string, unknown>, optional)
      }
    })
  }).annotations({ ...HttpApiSchema.annotations({ status }), description })
}

const wires = new WeakMap<Made, Schema.Schema.Any>()

/** `Class`'s wire schema, made once: the API and the client must share one schema object. */
const wireFor = (Class: Made, tag: string, spec: Spec<ErrorType, number, Schema.Struct.Fields>) => {
  let wire = wires.get(Class)
  if (wire === undefined) {
    wire = wireOf(Class, tag, spec)
    wires.set(Class, wire)
  }
  return wire
}

/**
 * The error class `tag`, as `class X extends errorClass<X>()("X", {…}) {}`: a
 * `Schema.TaggedError` whose instances carry `type` and `status` (on the prototype, so they
 * are no fields of the error: not encoded, not compared), and whose `wire` is its wire schema,
 * built for the subclass (`this`), so a decoded error is an instance of it.
 */
const errorClass =
  <Self = never>() =>
  <
    const Tag extends string,
    const Type extends ErrorType,
    const Status extends number,
    Extra extends Schema.Struct.Fields = {}
  >(
    tag: Tag,
    spec: Spec<Type, Status, Extra>
  ): ErrorClass<Self, Tag, Type, Status, Extra> => {
    const Tagged = Schema.TaggedError<Self>()(tag, {
      ...commonFields(spec.code),
      ...spec.fields
    }) as unknown as new (
      fields: object
    ) => object
    class Base extends Tagged {
      static get wire() {
        // biome-ignore lint/complexity/noThisInStatic: the subclass, whose instances the wire decodes to
        return wireFor(this as unknown as Made, tag, spec)
      }
    }
    Object.defineProperties(Base.prototype, {
      type: { value: spec.type },
      status: { value: spec.status }
    })
    return Base as unknown as ErrorClass<Self, Tag, Type, Status, Extra>
  }

/** 400: invalid parameters; `param` names the offending one. */
export class InvalidRequestError extends errorClass<InvalidRequestError>()("InvalidRequestError", {
  type: "invalid_request_error",
  status: 400,
  code: "parameter_invalid",
  description: "Invalid parameters; `param` names the offending one."
}) {}

/** 401: a missing, malformed or unknown API key. */
export class AuthenticationError extends errorClass<AuthenticationError>()("AuthenticationError", {
  type: "authentication_error",
  status: 401,
  code: "invalid_api_key",
  description: "Missing or invalid API key."
}) {}

/** 402: the card was declined; `declineCode` is the processor's reason, `charge` the failed charge. */
export class CardError extends errorClass<CardError>()("CardError", {
  type: "card_error",
  status: 402,
  code: "card_declined",
  description: "The card was declined.",
  fields: {
    declineCode: Schema.optional(
      Schema.String.annotations({ description: "The processor's decline reason." })
    ),
    charge: Schema.optional(
      Schema.String.annotations({
        description: "Id of the failed charge, stored with status failed."
      })
    )
  }
}) {}

/** 403: the key lacks the permission (a publishable key outside its three endpoints). */
export class PermissionError extends errorClass<PermissionError>()("PermissionError", {
  type: "invalid_request_error",
  status: 403,
  code: "permission_denied",
  description: "The API key lacks the permission for this request."
}) {}

/** 404: no such resource in this account and mode, or no such route. */
export class NotFoundError extends errorClass<NotFoundError>()("NotFoundError", {
  type: "invalid_request_error",
  status: 404,
  code: "resource_missing",
  description: "No such resource."
}) {}

/** The 404 for an object that is not in this account and mode, naming the parameter that held its id. */
export const noSuch = (entity: string, id: string, param = "id"): NotFoundError =>
  new NotFoundError({ message: `No such ${entity}: '${id}'`, param })

/** 405: the path exists but not with this method. */
export class MethodNotAllowedError extends errorClass<MethodNotAllowedError>()(
  "MethodNotAllowedError",
  {
    type: "invalid_request_error",
    status: 405,
    code: "method_not_allowed",
    description: "The path does not accept this method."
  }
) {}

/**
 * 409: a conflict with the state of the account: a request with the same Idempotency-Key is
 * still running (docs/design.md §7), or a fee or processor configuration change was judged
 * against a configuration that has changed since (`fee_config_change_stale`,
 * `fee_config_contended`, docs/design.md §6; `processor_config_change_stale`,
 * `processor_config_contended`, docs/design.md §4).
 */
export class IdempotencyError extends errorClass<IdempotencyError>()("IdempotencyError", {
  type: "invalid_request_error",
  status: 409,
  code: "idempotency_key_in_use",
  description: "A request with the same Idempotency-Key is still in progress."
}) {}

/** 413: the body is larger than 1 MiB (docs/design.md §9). */
export class PayloadTooLargeError extends errorClass<PayloadTooLargeError>()(
  "PayloadTooLargeError",
  {
    type: "invalid_request_error",
    status: 413,
    code: "payload_too_large",
    description: "The request body is larger than 1 MiB."
  }
) {}

/** 429: the key's rate limit is exceeded (the server adds `Retry-After`). */
export class RateLimitError extends errorClass<RateLimitError>()("RateLimitError", {
  type: "rate_limit_error",
  status: 429,
  code: "rate_limit_exceeded",
  description: "Too many requests for this API key; see Retry-After."
}) {}

/** 500: an internal failure; never carries a stack trace. */
export class ApiError extends errorClass<ApiError>()("ApiError", {
  type: "api_error",
  status: 500,
  code: "internal_error",
  description: "Internal server error."
}) {}

/** 503: a dependency (store, processor) is unavailable; retry later. */
export class ServiceUnavailableError extends errorClass<ServiceUnavailableError>()(
  "ServiceUnavailableError",
  {
    type: "api_error",
    status: 503,
    code: "service_unavailable",
    description: "The service is temporarily unavailable; retry later."
  }
) {}

/**
 * Every error class of the API, listed once: the edge tells the API's own errors from any
 * other failure by it (`isAnyError`), and `AnyError` is their union.
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
export type AnyError = InstanceType<(typeof ERROR_CLASSES)[number]>

/** Whether `u` is one of the API's errors (an instance of a class of `ERROR_CLASSES`). */
export const isAnyError = (u: unknown): u is AnyError =>
  ERROR_CLASSES.some((Class) => u instanceof Class)

// ---- wire schemas ----------------------------------------------------------

/** InvalidRequestError on the wire (400). */
export const InvalidRequestErrorWire = InvalidRequestError.wire

/** AuthenticationError on the wire (401). */
export const AuthenticationErrorWire = AuthenticationError.wire

/** CardError on the wire (402), with `declineCode` and `charge` when known. */
export const CardErrorWire = CardError.wire

/** PermissionError on the wire (403). */
export const PermissionErrorWire = PermissionError.wire

/** NotFoundError on the wire (404). */
export const NotFoundErrorWire = NotFoundError.wire

/** MethodNotAllowedError on the wire (405). */
export const MethodNotAllowedErrorWire = MethodNotAllowedError.wire

/** IdempotencyError on the wire (409). */
export const IdempotencyErrorWire = IdempotencyError.wire

/** PayloadTooLargeError on the wire (413). */
export const PayloadTooLargeErrorWire = PayloadTooLargeError.wire

/** RateLimitError on the wire (429). */
export const RateLimitErrorWire = RateLimitError.wire

/** ApiError on the wire (500). */
export const ApiErrorWire = ApiError.wire

/** ServiceUnavailableError on the wire (503). */
export const ServiceUnavailableErrorWire = ServiceUnavailableError.wire

/** Every error's wire schema; encodes any `AnyError` (decode by status, not with this union). */
export const AnyErrorWire = Schema.Union(
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
export type ErrorBody = typeof AnyErrorWire.Encoded

const encodeBody = Schema.encodeSync(AnyErrorWire)

/** The HTTP status and body of an error, for responses written outside HttpApi (404 routes, 413). */
export const toResponse = (
  error: AnyError
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

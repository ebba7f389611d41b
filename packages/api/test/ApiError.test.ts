/**
 * Every error encodes to exactly the specification's body `{error: {type, code, message,
 * param?}}`, decodes back to its class, and carries the right HTTP status.
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { describe, expect, it } from "@effect/vitest"
import { Fee, FeeSchedule } from "@levy/core"
import { Schema } from "effect"
import * as ApiError from "../src/ApiError.js"
import { decode, left, right } from "./support.js"

interface Case {
  readonly name: string
  readonly error: ApiError.AnyError
  readonly wire: unknown
  readonly status: number
  readonly body: unknown
  /** The error through its wire schema, and the body back. */
  readonly encode: () => unknown
  readonly decode: (body: unknown) => ApiError.AnyError
  readonly statusAnnotation: number
}

/** A case bound to its own wire schema (each has its own types). */
const bind = <E extends ApiError.AnyError, I>(c: {
  readonly name: string
  readonly error: E
  readonly wire: Schema.Schema<E, I>
  readonly status: number
  readonly body: unknown
}): Case => ({
  ...c,
  encode: () => Schema.encodeSync(c.wire)(c.error),
  decode: (body) => decode(c.wire, body),
  statusAnnotation: HttpApiSchema.getStatusError(c.wire)
})

const cases: ReadonlyArray<Case> = [
  bind({
    name: "InvalidRequestError",
    error: new ApiError.InvalidRequestError({
      code: "parameter_missing",
      message: "Missing required param: amount.",
      param: "amount"
    }),
    wire: ApiError.InvalidRequestErrorWire,
    status: 400,
    body: {
      error: {
        type: "invalid_request_error",
        code: "parameter_missing",
        message: "Missing required param: amount.",
        param: "amount"
      }
    }
  }),
  bind({
    name: "AuthenticationError",
    error: new ApiError.AuthenticationError({ message: "Invalid API key provided." }),
    wire: ApiError.AuthenticationErrorWire,
    status: 401,
    body: {
      error: {
        type: "authentication_error",
        code: "invalid_api_key",
        message: "Invalid API key provided."
      }
    }
  }),
  bind({
    name: "CardError",
    error: new ApiError.CardError({
      message: "Your card was declined.",
      declineCode: "generic_decline",
      charge: "ch_123"
    }),
    wire: ApiError.CardErrorWire,
    status: 402,
    body: {
      error: {
        type: "card_error",
        code: "card_declined",
        message: "Your card was declined.",
        declineCode: "generic_decline",
        charge: "ch_123"
      }
    }
  }),
  bind({
    name: "PermissionError",
    error: new ApiError.PermissionError({ message: "Publishable keys cannot create charges." }),
    wire: ApiError.PermissionErrorWire,
    status: 403,
    body: {
      error: {
        type: "invalid_request_error",
        code: "permission_denied",
        message: "Publishable keys cannot create charges."
      }
    }
  }),
  bind({
    name: "NotFoundError",
    error: new ApiError.NotFoundError({ message: "No such charge: 'ch_nope'", param: "id" }),
    wire: ApiError.NotFoundErrorWire,
    status: 404,
    body: {
      error: {
        type: "invalid_request_error",
        code: "resource_missing",
        message: "No such charge: 'ch_nope'",
        param: "id"
      }
    }
  }),
  bind({
    name: "MethodNotAllowedError",
    error: new ApiError.MethodNotAllowedError({ message: "PUT is not allowed on /v1/charges." }),
    wire: ApiError.MethodNotAllowedErrorWire,
    status: 405,
    body: {
      error: {
        type: "invalid_request_error",
        code: "method_not_allowed",
        message: "PUT is not allowed on /v1/charges."
      }
    }
  }),
  bind({
    name: "IdempotencyError",
    error: new ApiError.IdempotencyError({ message: "A request with this key is in progress." }),
    wire: ApiError.IdempotencyErrorWire,
    status: 409,
    body: {
      error: {
        type: "invalid_request_error",
        code: "idempotency_key_in_use",
        message: "A request with this key is in progress."
      }
    }
  }),
  bind({
    name: "PayloadTooLargeError",
    error: new ApiError.PayloadTooLargeError({ message: "The body is larger than 1 MiB." }),
    wire: ApiError.PayloadTooLargeErrorWire,
    status: 413,
    body: {
      error: {
        type: "invalid_request_error",
        code: "payload_too_large",
        message: "The body is larger than 1 MiB."
      }
    }
  }),
  bind({
    name: "RateLimitError",
    error: new ApiError.RateLimitError({ message: "Too many requests." }),
    wire: ApiError.RateLimitErrorWire,
    status: 429,
    body: {
      error: {
        type: "rate_limit_error",
        code: "rate_limit_exceeded",
        message: "Too many requests."
      }
    }
  }),
  bind({
    name: "ApiError",
    error: new ApiError.ApiError({ message: "Something went wrong on our end." }),
    wire: ApiError.ApiErrorWire,
    status: 500,
    body: {
      error: {
        type: "api_error",
        code: "internal_error",
        message: "Something went wrong on our end."
      }
    }
  }),
  bind({
    name: "ServiceUnavailableError",
    error: new ApiError.ServiceUnavailableError({ message: "Try again shortly." }),
    wire: ApiError.ServiceUnavailableErrorWire,
    status: 503,
    body: {
      error: { type: "api_error", code: "service_unavailable", message: "Try again shortly." }
    }
  })
]

describe("error wire schemas", () => {
  for (const c of cases) {
    describe(c.name, () => {
      it("encodes to exactly the specification's body", () => {
        expect(c.encode()).toStrictEqual(c.body)
      })

      it("decodes the body back to the class with the same fields", () => {
        const decoded = c.decode(c.body)
        expect(decoded).toBeInstanceOf(c.error.constructor)
        expect(decoded._tag).toBe(c.name)
        expect({ ...decoded }).toStrictEqual({ ...c.error })
      })

      it(`is annotated with status ${c.status}, and the error says so too`, () => {
        expect(c.statusAnnotation).toBe(c.status)
        expect(c.error.status).toBe(c.status)
        expect(c.error.type).toBe((c.body as { error: { type: string } }).error.type)
      })

      it("toResponse gives the status and the same body", () => {
        expect(ApiError.toResponse(c.error)).toStrictEqual({ status: c.status, body: c.body })
      })
    })
  }

  it("every wire schema of AnyErrorWire has a case above", () => {
    expect(ApiError.AnyErrorWire.members).toHaveLength(cases.length)
    for (const member of ApiError.AnyErrorWire.members) {
      expect(cases.some((c) => c.wire === member)).toBe(true)
    }
  })

  it("ERROR_CLASSES holds the class of every case, once; isAnyError knows them and nothing else", () => {
    expect(ApiError.ERROR_CLASSES).toHaveLength(cases.length)
    for (const Class of ApiError.ERROR_CLASSES) {
      expect(
        cases.filter((c) => c.error instanceof Class),
        Class.name
      ).toHaveLength(1)
    }
    for (const c of cases) expect(ApiError.isAnyError(c.error), c.name).toBe(true)
    expect(ApiError.isAnyError(new Error("boom"))).toBe(false)
    // The tag and fields alone are not the class (a decoded body of another API, say).
    expect(ApiError.isAnyError({ _tag: "ApiError", code: "internal_error", message: "m" })).toBe(
      false
    )
  })

  it("omits param when there is none (no `param: undefined` key)", () => {
    const body = Schema.encodeSync(ApiError.RateLimitErrorWire)(
      new ApiError.RateLimitError({ message: "slow down" })
    )
    expect(Object.keys(body.error)).toStrictEqual(["type", "code", "message"])
  })

  it("keeps type and status on the class, out of the error's own fields", () => {
    const error = new ApiError.PermissionError({ message: "no" })
    expect([error.type, error.status]).toStrictEqual(["invalid_request_error", 403])
    expect(Object.keys(error)).not.toContain("type")
    expect(Object.keys(error)).not.toContain("status")
    expect(Schema.encodeSync(ApiError.PermissionError)(error)).toStrictEqual({
      _tag: "PermissionError",
      code: "permission_denied",
      message: "no"
    })
  })

  it("a body of another type does not decode as this error", () => {
    const cardBody = { error: { type: "card_error", code: "card_declined", message: "declined" } }
    expect(Schema.decodeUnknownEither(ApiError.InvalidRequestErrorWire)(cardBody)._tag).toBe("Left")
    expect(Schema.decodeUnknownEither(ApiError.CardErrorWire)(cardBody)._tag).toBe("Right")
  })

  it("a body without message does not decode", () => {
    const body = { error: { type: "api_error", code: "internal_error" } }
    expect(Schema.decodeUnknownEither(ApiError.ApiErrorWire)(body)._tag).toBe("Left")
  })
})

describe("fromFeeError: the engine's refusal as a 400", () => {
  it("amount below the minimum: amount_too_small, param amount, message citing 50 cents", () => {
    const feeError = left(Fee.quote(FeeSchedule.DEFAULT, 10, "usd"))
    const { status, body } = ApiError.toResponse(ApiError.fromFeeError(feeError))
    expect(status).toBe(400)
    expect(body).toStrictEqual({
      error: {
        type: "invalid_request_error",
        code: "amount_too_small",
        param: "amount",
        message: feeError.message
      }
    })
    expect(feeError.message).toContain("50 cents")
  })

  it("unsupported currency: currency_not_supported naming currency", () => {
    const error = ApiError.fromFeeError(left(Fee.quote(FeeSchedule.DEFAULT, 1000, "xxx")))
    expect([error.code, error.param]).toStrictEqual(["currency_not_supported", "currency"])
  })

  it("a valid quote is not an error (the helper only maps failures)", () => {
    expect(right(Fee.quote(FeeSchedule.DEFAULT, 10000, "usd")).convenienceFee).toBe(320)
  })
})

describe("fromIssues: decode issues as a 400 naming the field", () => {
  it("Missing → parameter_missing", () => {
    const e = ApiError.fromIssues([{ _tag: "Missing", path: ["amount"], message: "is missing" }])
    expect([e.code, e.param, e.message]).toStrictEqual([
      "parameter_missing",
      "amount",
      "Missing required param: amount."
    ])
  })

  it("Unexpected → parameter_unknown", () => {
    const e = ApiError.fromIssues([
      { _tag: "Unexpected", path: ["colour"], message: "is unexpected" }
    ])
    expect([e.code, e.param]).toStrictEqual(["parameter_unknown", "colour"])
  })

  it("nested paths read as name[key]", () => {
    expect(ApiError.paramOf(["metadata", "order_id"])).toBe("metadata[order_id]")
    expect(ApiError.paramOf(["regionCodes", 2])).toBe("regionCodes[2]")
    expect(ApiError.paramOf([])).toBeUndefined()
  })

  it("a root issue has no param", () => {
    const e = ApiError.fromIssues([{ _tag: "Type", path: [], message: "Expected object" }])
    expect(e.param).toBeUndefined()
    expect(e.code).toBe("parameter_invalid")
  })
})

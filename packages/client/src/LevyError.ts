/**
 * The errors of the Promise facade (specification "Errors"): one class per kind of
 * failure, all extending `LevyError`, so `catch (e) { if (e instanceof CardError) … }` works
 * without Effect. Server errors carry the response's `statusCode` and `request-id`.
 */

/** What every error carries. */
export interface LevyErrorFields {
  readonly message: string
  /** The wire `error.type` (`network_error` for failures on the client side). */
  readonly type: string
  /** The machine-readable `error.code`. */
  readonly code: string
  /** The HTTP status; absent when no response was received or the request never left. */
  readonly statusCode?: number | undefined
  /** The response's `request-id` header, for support. */
  readonly requestId?: string | undefined
  /** The offending parameter, when the server (or the client's own validation) names one. */
  readonly param?: string | undefined
  /** The processor's decline reason (card errors). */
  readonly declineCode?: string | undefined
  /** The failed charge's id (card errors: the charge is stored with status failed). */
  readonly charge?: string | undefined
}

/** The base class of every error the facade throws. */
export class LevyError extends Error {
  readonly type: string
  readonly code: string
  readonly statusCode: number | undefined
  readonly requestId: string | undefined
  readonly param: string | undefined

  constructor(fields: LevyErrorFields) {
    super(fields.message)
    this.name = new.target.name
    this.type = fields.type
    this.code = fields.code
    this.statusCode = fields.statusCode
    this.requestId = fields.requestId
    this.param = fields.param
  }
}

/** 400 (and other refusals of the request: 405, 413, or the client's own validation). */
export class InvalidRequestError extends LevyError {}

/** 401: a missing, malformed or unknown API key. */
export class AuthenticationError extends LevyError {}

/** 402: the card was declined. */
export class CardError extends LevyError {
  /** The processor's reason, e.g. `generic_decline`. */
  readonly declineCode: string | undefined
  /** The failed charge, stored with status `failed`. */
  readonly charge: string | undefined

  constructor(fields: LevyErrorFields) {
    super(fields)
    this.declineCode = fields.declineCode
    this.charge = fields.charge
  }
}

/** 403: the key lacks the permission (e.g. a publishable key outside its endpoints). */
export class PermissionError extends LevyError {}

/** 404: no such resource. */
export class NotFoundError extends LevyError {}

/** 409: a request with the same Idempotency-Key is still running (after the retries). */
export class IdempotencyError extends LevyError {}

/** 429: the key's rate limit is exceeded (after the retries). */
export class RateLimitError extends LevyError {}

/** 5xx: the server failed or is unavailable (after the retries). */
export class APIError extends LevyError {}

/** The request got no response: connection refused or reset, DNS, or the timeout. */
export class NetworkError extends LevyError {}

/** The class for an error response of `status`. */
export const classOf = (status: number): (new (fields: LevyErrorFields) => LevyError) => {
  switch (status) {
    case 401:
      return AuthenticationError
    case 402:
      return CardError
    case 403:
      return PermissionError
    case 404:
      return NotFoundError
    case 409:
      return IdempotencyError
    case 429:
      return RateLimitError
    default:
      return status >= 500 ? APIError : InvalidRequestError
  }
}

/**
 * The one failure of the engine: an input it refuses, naming the field. The HTTP edge
 * maps it to `{error: {type: "invalid_request_error", code, message, param}}`.
 */
import { Either, Schema } from "effect"

/** Machine-readable codes of refused input. */
export const FeeErrorCode = Schema.Literal(
  "parameter_missing",
  "parameter_invalid",
  "amount_too_small",
  "amount_too_large",
  "currency_not_supported",
  "currency_not_configured"
)
export type FeeErrorCode = typeof FeeErrorCode.Type

/** An input the engine refuses; `param` names the offending field. */
export class FeeError extends Schema.TaggedError<FeeError>()("FeeError", {
  code: FeeErrorCode,
  param: Schema.String,
  message: Schema.String
}) {}

/** A FeeError for `param` with `code` and `message`. */
export const fail = (code: FeeErrorCode, param: string, message: string): FeeError =>
  new FeeError({ code, param, message })

/**
 * A value-or-error as an Either. The hot path passes `A | FeeError` between its steps and
 * wraps once at the edge, so a call allocates one Either, not one per step.
 */
export const toEither = <A>(value: A | FeeError): Either.Either<A, FeeError> =>
  isFeeError(value) ? Either.left(value) : Either.right(value)

/** Whether a value is a FeeError: a tag check, as `instanceof` on an Effect error class costs ~50 ns. */
export const isFeeError = (value: unknown): value is FeeError =>
  typeof value === "object" &&
  value !== null &&
  (value as { readonly _tag?: unknown })._tag === "FeeError"

/**
 * The one failure of the engine: an input it refuses, naming the field. The HTTP edge
 * maps it to `{error: {type: "invalid_request_error", code, message, param}}`.
 */
import { Schema } from "effect"

/** Machine-readable codes of refused input. */
export const FeeErrorCode = Schema.Literal(
  "parameter_missing",
  "parameter_invalid",
  "amount_too_small",
  "amount_too_large",
  "currency_not_supported"
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

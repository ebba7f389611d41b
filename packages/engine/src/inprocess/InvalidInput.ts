/**
 * An input the types allowed but the contract refuses (an amount of 0, an unknown field, a
 * key of 300 characters): `LevyService` checks every input against the API's own schema, so
 * in-process calls are refused with the same code, field and words as the HTTP API's 400
 * (both word it through `DecodeMessage.refusalOf`).
 */
import { DecodeMessage } from "@levy/api"
import { Data, type ParseResult } from "effect"

export class InvalidInput extends Data.TaggedError("InvalidInput")<{
  /** `parameter_invalid`, `parameter_missing`, `parameter_unknown`. */
  readonly code: string
  /** The field, as the API names it (`amount`, `metadata[order]`). */
  readonly param?: string | undefined
  readonly message: string
}> {}

/** A failed check of an input against its schema, naming the first offending field. */
export const fromParseError = (error: ParseResult.ParseError): InvalidInput => {
  const { code, param, message } = DecodeMessage.refusalOf(error.issue)
  return new InvalidInput({ code, param, message })
}

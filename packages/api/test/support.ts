/** Helpers shared by the contract's tests. */
import { Either, type ParseResult, Schema } from "effect"
import * as ApiError from "../src/ApiError.js"

/** The Right of an Either, or a failing test that shows the Left. */
export const right = <A, E>(result: Either.Either<A, E>): A => {
  if (Either.isLeft(result)) throw new Error(`expected Right, got ${String(result.left)}`)
  return result.right
}

/** The Left of an Either, or a failing test that shows the Right. */
export const left = <A, E>(result: Either.Either<A, E>): E => {
  if (Either.isRight(result)) throw new Error(`expected Left, got ${JSON.stringify(result.right)}`)
  return result.left
}

/** Decodes `input` with `schema` as the server would, or throws. */
export const decode = <A, I>(schema: Schema.Schema<A, I>, input: unknown): A =>
  right(Schema.decodeUnknownEither(schema)(input))

/** The 400 a failed decode of `input` becomes: code, param and message. */
export const rejection = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => {
  const error = ApiError.fromParseError(
    left(Schema.decodeUnknownEither(schema)(input)) as ParseResult.ParseError
  )
  return { code: error.code, param: error.param, message: error.message }
}

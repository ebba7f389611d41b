/** Helpers shared by the engine's tests. */
import { Either } from "effect"

/** The Right of an Either, or a failing test that shows the Left. */
export const right = <A, E>(result: Either.Either<A, E>): A => {
  if (Either.isLeft(result)) throw new Error(`expected Right, got ${JSON.stringify(result.left)}`)
  return result.right
}

/** The Left of an Either, or a failing test that shows the Right. */
export const left = <A, E>(result: Either.Either<A, E>): E => {
  if (Either.isRight(result)) throw new Error(`expected Left, got ${JSON.stringify(result.right)}`)
  return result.left
}

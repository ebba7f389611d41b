/** Helpers shared by the engine's tests. */
import { Either } from "effect"
import type * as Clauses from "../src/compliance/Clauses.js"

/** A consumer's domestic Visa credit card online, surcharged, amount and merchant unknown: what clause tests resolve. */
export const CREDIT_ONLINE: Clauses.Payment = {
  scheme: "four_party",
  commercial: false,
  issuing: "domestic",
  cardType: "credit",
  channel: "online",
  network: "visa",
  feeType: "surcharge",
  amount: undefined,
  merchantCategory: undefined
}

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

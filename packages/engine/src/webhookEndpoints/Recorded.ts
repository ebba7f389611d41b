/**
 * A webhook endpoint write and its answer stored for the request's key, in one transaction
 * (docs/design.md §7). The signing secret an answer shows once is stored sealed.
 */
import type { IdempotencyRepository, StorageError } from "@levy/storage"
import { Transactions } from "@levy/storage"
import { Effect, type Option, type Schema } from "effect"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"

/** The fields of a stored response that hold a secret. */
const SEALED = ["secret"]

/** Runs `write` and stores `schema`'s encoding of its answer for `claim` with it. */
export const recorded = <A, I, E, R>(
  claim: Option.Option<Claims.Claim>,
  schema: Schema.Schema<A, I>,
  write: Effect.Effect<A, E, R>
): Effect.Effect<Written.Written<A>, E | StorageError, R | Transactions | IdempotencyRepository> =>
  Effect.flatMap(Transactions, (transactions) =>
    transactions.run(
      Effect.tap(write, (answer) => Claims.recordSuccess(claim, schema, answer, SEALED))
    )
  ).pipe(Effect.map((answer) => Written.stored(claim, answer)))

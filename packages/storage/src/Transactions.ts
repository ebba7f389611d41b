/**
 * Multi-record writes that commit together or not at all: a charge, its event and its
 * idempotency record; a refund and the charge it changes. The same contract from every
 * store: on failure (or interruption) every write inside is undone.
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "./memory/MemoryStore.js"
import { StorageError } from "./StorageError.js"

/** Runs effects as one transaction. */
export class Transactions extends Context.Tag("@levy/storage/Transactions")<
  Transactions,
  {
    /** Runs `effect` in a transaction; nested calls become savepoints. */
    readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StorageError, R>
  }
>() {
  /** Transactions of a SQL database (PostgreSQL or the embedded store). */
  static readonly layerSql = Layer.effect(
    Transactions,
    Effect.map(SqlClient.SqlClient, (sql) => ({
      run: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        sql
          .withTransaction(effect)
          .pipe(
            Effect.catchTag("SqlError", (e) =>
              Effect.fail(new StorageError({ message: "transaction failed", cause: e }))
            )
          ) as Effect.Effect<A, E | StorageError, R>
    }))
  )

  /** Transactions of the in-memory store. */
  static readonly layerMemory = Layer.effect(
    Transactions,
    Effect.map(MemoryStore, (store) => ({ run: store.transaction }))
  )
}

/**
 * The stores the webhook and event HTTP tests run on: a fresh in-memory store, and
 * PostgreSQL in a throwaway database `levy_srv_<random>` on the local server (trust auth),
 * dropped when the runtime is disposed. The test reads the store beside the server through the
 * runtime (seeding events, checking deliveries, reading raw rows).
 */
import { AccountRepository, type Ids, type Storage } from "@levy/storage"
import { Context, Effect, Layer, ManagedRuntime, type Option } from "effect"
import { memoryStore, postgresStore } from "./support.js"

/**
 * The SQL client the PostgreSQL store provides, seen through the one method the tests use
 * (the server does not depend on @effect/sql; the tag is found by its key).
 */
export interface RawSql {
  readonly unsafe: (
    sql: string,
    params?: ReadonlyArray<unknown>
  ) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, unknown>
}
export const RawSql = Context.GenericTag<RawSql>("@effect/sql/SqlClient")

const memoryLayer = memoryStore()
const postgresLayer = postgresStore()

/** A store for one test file; `sql` only for PostgreSQL. */
export interface TestStore {
  readonly runtime: ManagedRuntime.ManagedRuntime<Storage.Repositories | Ids, unknown>
  readonly sql: Option.Option<RawSql>
  /** The store's services, to pass to `start({storage})`. */
  readonly layer: Layer.Layer<Storage.Repositories | Ids>
}

/** Builds the store and creates the accounts the tests' keys belong to. */
const open = async (
  layer: Layer.Layer<Storage.Repositories | Ids, unknown>,
  accounts: ReadonlyArray<string>
): Promise<TestStore> => {
  const runtime = ManagedRuntime.make(layer)
  const context = await runtime.runtime().then((r) => r.context)
  await runtime.runPromise(
    Effect.flatMap(AccountRepository, (repo) =>
      Effect.forEach(accounts, (id) => repo.createAccount({ id, name: id, created: 1 }))
    )
  )
  return {
    runtime,
    sql: Context.getOption(context as Context.Context<unknown>, RawSql),
    layer: Layer.succeedContext(context)
  }
}

/** The stores to run a test file on. */
export const stores = [
  {
    name: "memory",
    open: (accounts: ReadonlyArray<string>) => open(memoryLayer, accounts)
  },
  {
    name: "postgres",
    open: (accounts: ReadonlyArray<string>) => open(postgresLayer, accounts)
  }
] as const

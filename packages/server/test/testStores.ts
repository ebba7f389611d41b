/**
 * The stores the webhook and event HTTP tests run on: a fresh in-memory store, and
 * PostgreSQL in a throwaway database `levy_srv_<random>` on the local server (trust auth),
 * dropped when the runtime is disposed. A missing PostgreSQL skips only that store, loudly,
 * and never in CI (CI=true). The test reads the store beside the server through the
 * runtime (seeding events, checking deliveries, reading raw rows).
 */
import { randomBytes } from "node:crypto"
import { connect } from "node:net"
import { AccountRepository, Ids, SecretBox, Storage } from "@levy/storage"
import { Context, Effect, Layer, ManagedRuntime, type Option } from "effect"

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

const PG_SERVER = process.env.LEVY_TEST_PG ?? "postgres://postgres@127.0.0.1:5432"
const CI = process.env.CI === "true"

const reachable = (url: string): Promise<boolean> => {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 5432), timeout: 1_000 })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
    socket.once("timeout", () => done(false))
  })
}

const pgAvailable = await reachable(PG_SERVER)
if (!pgAvailable && !CI) {
  console.warn(`!! PostgreSQL is not reachable at ${PG_SERVER}: its server tests are SKIPPED.`)
}

/** A database that lives as long as the layer. */
const throwawayDatabase = Effect.gen(function* () {
  const built = yield* Layer.build(
    Storage.layerPgClient({ url: `${PG_SERVER}/postgres`, maxConnections: 1 })
  )
  const admin = Context.get(built as Context.Context<unknown>, RawSql)
  const name = `levy_srv_${randomBytes(6).toString("hex")}`
  yield* Effect.acquireRelease(admin.unsafe(`CREATE DATABASE ${name}`), () =>
    admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.orDie)
  )
  return `${PG_SERVER}/${name}`
})

const memoryLayer = Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))

const postgresLayer: Layer.Layer<Storage.Repositories | Ids, unknown> = Layer.unwrapScoped(
  Effect.map(throwawayDatabase, (url) => Storage.layerPostgres({ url, maxConnections: 5 }))
).pipe(Layer.provideMerge(Layer.merge(Ids.layer, SecretBox.layerRandom)))

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
    skip: false,
    open: (accounts: ReadonlyArray<string>) => open(memoryLayer, accounts)
  },
  {
    name: "postgres",
    skip: !pgAvailable && !CI,
    open: (accounts: ReadonlyArray<string>) => open(postgresLayer, accounts)
  }
] as const

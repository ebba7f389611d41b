/**
 * The store the CLI runs on: `memory`, `embedded` (PGlite in `<data-dir>/data`) or
 * `postgres` (`DATABASE_URL`). Webhook secrets of the SQL stores are sealed with
 * `LEVY_SECRET_KEY`, else the key file `<data-dir>/secret.key` (created on first use), the
 * same layout as `Storage.layerFromEnv` (`Storage.dataDirPaths`).
 */
import { Embedded, Ids, Migrations, SecretBox, Storage, StorageError } from "@levy/storage"
import { type ConfigError, type Context, Effect, FiberRef, Layer, Option } from "effect"

export const kinds = ["memory", "embedded", "postgres"] as const
export type Kind = (typeof kinds)[number]

/** A store as the CLI resolved it: the data directory is always known. */
export interface Options extends Choice {
  readonly dataDir: string
}

/**
 * A store as code chooses it (`Mount.make`, `LevyService.store`): `{ store: "memory" }`,
 * `{ store: "embedded", dataDir }` or `{ store: "postgres", databaseUrl }`; `dataDir`
 * defaults to `.levy`, and nothing is read from the environment for it.
 */
export interface Choice {
  readonly store: Kind
  readonly dataDir?: string | undefined
  readonly databaseUrl?: string | undefined
}

const needUrl = () => new StorageError({ message: "--store postgres needs DATABASE_URL to be set" })

const pathsOf = (options: Choice) =>
  Storage.dataDirPaths(options.dataDir ?? Storage.DEFAULT_DATA_DIR)

/** Every repository of the chosen store and an `Ids` (SQL stores apply pending migrations when built). */
export const layer = (
  options: Choice
): Layer.Layer<Storage.Repositories | Ids, StorageError | ConfigError.ConfigError> =>
  Layer.provideMerge(repositories(options), Ids.layer)

const repositories = (
  options: Choice
): Layer.Layer<Storage.Repositories, StorageError | ConfigError.ConfigError, Ids> => {
  const paths = pathsOf(options)
  const secrets = SecretBox.layerConfig(paths.secretKey)
  switch (options.store) {
    case "memory":
      return Storage.layerMemory
    case "embedded":
      return Storage.layerEmbedded({ dataDir: paths.database }).pipe(Layer.provide(secrets))
    case "postgres":
      return options.databaseUrl === undefined
        ? Layer.fail(needUrl())
        : Storage.layerPostgres({ url: options.databaseUrl }).pipe(Layer.provide(secrets))
  }
}

/** What a store command needs of the store. */
export type Services = Storage.Repositories | Ids

/**
 * The store of the `levy serve` running this command for its administration socket
 * (AdminSocket.ts): there the command runs on the server's open store, never a second one.
 */
const running = FiberRef.unsafeMake(Option.none<Context.Context<Services>>())

/** Runs `self` with the server's own store (`context`) in place of the one its options name. */
export const runningOn =
  (context: Context.Context<Services>) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.locally(self, running, Option.some(context))

/** Provides the chosen store, or the running server's (`runningOn`). */
export const provide =
  (options: Choice) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.flatMap(
      FiberRef.get(running),
      Option.match({
        onNone: () => Effect.provide(self, layer(options)),
        onSome: (context) => Effect.provide(self, context)
      })
    )

/** Pending migrations of the running server's open store. */
const migrateRunning = (context: Context.Context<Services>) =>
  Effect.provide(Migrations.migrateOpenStore, context)

/** Applies pending migrations to the chosen SQL store (or the running server's); returns what it applied. */
export const migrate = (options: Choice) =>
  Effect.flatMap(
    FiberRef.get(running),
    Option.match({ onNone: () => migrateChosen(options), onSome: migrateRunning })
  )

const migrateChosen = (options: Choice) => {
  switch (options.store) {
    case "memory":
      return Effect.succeed([] as ReadonlyArray<readonly [number, string]>)
    case "embedded":
      return Effect.provide(
        Migrations.migrate,
        Embedded.layerClient({ dataDir: pathsOf(options).database })
      )
    case "postgres":
      return options.databaseUrl === undefined
        ? Effect.fail(needUrl())
        : Effect.provide(
            Migrations.migrate,
            Storage.layerPgClient({ url: options.databaseUrl, maxConnections: 1 })
          )
  }
}

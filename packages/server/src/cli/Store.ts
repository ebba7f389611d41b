/**
 * The store the CLI runs on: `memory`, `embedded` (PGlite in `<data-dir>/data`) or
 * `postgres` (`DATABASE_URL`). Webhook secrets of the SQL stores are sealed with
 * `LEVY_SECRET_KEY`, else the key file `<data-dir>/secret.key` (created on first use), the
 * same layout as `Storage.layerFromEnv` (`Storage.dataDirPaths`).
 */
import { Embedded, Ids, Migrations, SecretBox, Storage, StorageError } from "@levy/storage"
import { type ConfigError, Effect, Layer } from "effect"

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

/** Applies pending migrations to the chosen SQL store; returns what it applied. */
export const migrate = (options: Choice) => {
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

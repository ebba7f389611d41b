/**
 * The store the CLI runs on: `memory`, `embedded` (PGlite in `<data-dir>/data`) or
 * `postgres` (`DATABASE_URL`). Webhook secrets of the SQL stores are sealed with
 * `LEVY_SECRET_KEY`, else the key file `<data-dir>/secret.key` (created on first use), the
 * same layout as `Storage.layerFromEnv` with its defaults.
 */
import { join } from "node:path"
import { Embedded, Ids, Migrations, SecretBox, Storage, StorageError } from "@levy/storage"
import { type ConfigError, Effect, Layer } from "effect"

export const kinds = ["memory", "embedded", "postgres"] as const
export type Kind = (typeof kinds)[number]

export interface Options {
  readonly store: Kind
  readonly dataDir: string
  readonly databaseUrl?: string | undefined
}

const needUrl = () => new StorageError({ message: "--store postgres needs DATABASE_URL to be set" })

/** Every repository of the chosen store and an `Ids` (SQL stores apply pending migrations when built). */
export const layer = (
  options: Options
): Layer.Layer<Storage.Repositories | Ids, StorageError | ConfigError.ConfigError> =>
  Layer.provideMerge(repositories(options), Ids.layer)

const repositories = (
  options: Options
): Layer.Layer<Storage.Repositories, StorageError | ConfigError.ConfigError, Ids> => {
  const secrets = SecretBox.layerConfig(join(options.dataDir, "secret.key"))
  switch (options.store) {
    case "memory":
      return Storage.layerMemory
    case "embedded":
      return Storage.layerEmbedded({ dataDir: join(options.dataDir, "data") }).pipe(
        Layer.provide(secrets)
      )
    case "postgres":
      return options.databaseUrl === undefined
        ? Layer.fail(needUrl())
        : Storage.layerPostgres({ url: options.databaseUrl }).pipe(Layer.provide(secrets))
  }
}

/** Applies pending migrations to the chosen SQL store; returns what it applied. */
export const migrate = (options: Options) => {
  switch (options.store) {
    case "memory":
      return Effect.succeed([] as ReadonlyArray<readonly [number, string]>)
    case "embedded":
      return Effect.provide(
        Migrations.migrate,
        Embedded.layerClient({ dataDir: join(options.dataDir, "data") })
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

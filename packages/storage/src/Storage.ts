/**
 * The three stores, each providing every repository and `Transactions`:
 * - `layerMemory`: in-process maps; tests and throwaway demos.
 * - `layerPostgres`: PostgreSQL through @effect/sql-pg; production.
 * - `layerEmbedded`: PGlite in this process through the same client and SQL; the default
 *   when no `DATABASE_URL` is set (one connection: see `Embedded.ts`).
 */
import { join } from "node:path"
import type { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Config, type ConfigError, Duration, Effect, Layer, Option, Redacted } from "effect"
import type { AccountRepository } from "./AccountRepository.js"
import type { ChargeRepository } from "./ChargeRepository.js"
import * as Embedded from "./Embedded.js"
import type { EventRepository } from "./EventRepository.js"
import type { FeeConfigRepository } from "./FeeConfigRepository.js"
import type { IdempotencyRepository } from "./IdempotencyRepository.js"
import type { Ids } from "./Ids.js"
import * as Migrations from "./Migrations.js"
import * as MemoryAccounts from "./memory/AccountRepository.js"
import * as MemoryCharges from "./memory/ChargeRepository.js"
import * as MemoryEvents from "./memory/EventRepository.js"
import * as MemoryFeeConfigs from "./memory/FeeConfigRepository.js"
import * as MemoryIdempotency from "./memory/IdempotencyRepository.js"
import { MemoryStore } from "./memory/MemoryStore.js"
import * as MemoryProcessorConfigs from "./memory/ProcessorConfigRepository.js"
import * as MemoryProcessorNotifications from "./memory/ProcessorNotificationRepository.js"
import * as MemoryRulesetNotices from "./memory/RulesetNoticeRepository.js"
import * as MemoryWebhookDeliveries from "./memory/WebhookDeliveryRepository.js"
import * as MemoryWebhookEndpoints from "./memory/WebhookEndpointRepository.js"
import type { ProcessorConfigRepository } from "./ProcessorConfigRepository.js"
import type { ProcessorNotificationRepository } from "./ProcessorNotificationRepository.js"
import type { RulesetNoticeRepository } from "./RulesetNoticeRepository.js"
import { SecretBox } from "./SecretBox.js"
import { Signer } from "./Signer.js"
import { StorageError } from "./StorageError.js"
import * as SqlAccounts from "./sql/AccountRepository.js"
import * as SqlCharges from "./sql/ChargeRepository.js"
import * as SqlEvents from "./sql/EventRepository.js"
import * as SqlFeeConfigs from "./sql/FeeConfigRepository.js"
import * as SqlIdempotency from "./sql/IdempotencyRepository.js"
import * as SqlProcessorConfigs from "./sql/ProcessorConfigRepository.js"
import * as SqlProcessorNotifications from "./sql/ProcessorNotificationRepository.js"
import * as SqlRulesetNotices from "./sql/RulesetNoticeRepository.js"
import * as SqlSupport from "./sql/SqlSupport.js"
import * as SqlWebhookDeliveries from "./sql/WebhookDeliveryRepository.js"
import * as SqlWebhookEndpoints from "./sql/WebhookEndpointRepository.js"
import { Transactions } from "./Transactions.js"
import type { WebhookDeliveryRepository } from "./WebhookDeliveryRepository.js"
import type { WebhookEndpointRepository } from "./WebhookEndpointRepository.js"

/** Everything a store provides. */
export type Repositories =
  | AccountRepository
  | FeeConfigRepository
  | ChargeRepository
  | IdempotencyRepository
  | EventRepository
  | WebhookEndpointRepository
  | WebhookDeliveryRepository
  | ProcessorConfigRepository
  | ProcessorNotificationRepository
  | RulesetNoticeRepository
  | Signer
  | Transactions

/** The repositories over a SQL client (PostgreSQL or embedded). */
export const layerSqlRepositories: Layer.Layer<
  Repositories,
  StorageError,
  PgClient.PgClient | SqlClient.SqlClient | Ids | SecretBox
> = Layer.mergeAll(
  SqlAccounts.layer,
  SqlFeeConfigs.layer,
  SqlCharges.layer,
  SqlWebhookEndpoints.layer,
  SqlWebhookDeliveries.layer,
  SqlProcessorConfigs.layer,
  SqlProcessorNotifications.layer,
  SqlRulesetNotices.layer,
  Signer.layer,
  Transactions.layerSql
).pipe(Layer.provideMerge(Layer.merge(SqlIdempotency.layer, SqlEvents.layer)))

/** The in-memory store; secrets are sealed with a random per-process key. */
export const layerMemory: Layer.Layer<Repositories, never, Ids> = Layer.mergeAll(
  MemoryAccounts.layer,
  MemoryFeeConfigs.layer,
  MemoryCharges.layer,
  MemoryWebhookEndpoints.layer,
  MemoryWebhookDeliveries.layer,
  MemoryProcessorConfigs.layer,
  MemoryProcessorNotifications.layer,
  MemoryRulesetNotices.layer,
  Signer.layer,
  Transactions.layerMemory
).pipe(
  Layer.provideMerge(Layer.merge(MemoryIdempotency.layer, MemoryEvents.layer)),
  Layer.provide(Layer.merge(MemoryStore.layer, SecretBox.layerRandom))
)

/** Options of the PostgreSQL store. */
export interface PostgresOptions {
  readonly url: string | Redacted.Redacted
  /** Pool size (default 10). */
  readonly maxConnections?: number | undefined
  /** Apply pending migrations when the layer starts (default true). */
  readonly migrate?: boolean | undefined
}

/** A PgClient for a PostgreSQL URL, with int8 read as numbers. */
export const layerPgClient = (options: PostgresOptions) =>
  PgClient.layer({
    url: typeof options.url === "string" ? Redacted.make(options.url) : options.url,
    maxConnections: options.maxConnections ?? 10,
    idleTimeout: Duration.minutes(5),
    applicationName: "levy",
    types: SqlSupport.types
  }).pipe(
    Layer.mapError((cause) => new StorageError({ message: "cannot connect to PostgreSQL", cause }))
  )

const withMigrations = (migrate: boolean | undefined) =>
  migrate === false
    ? layerSqlRepositories
    : Layer.provideMerge(layerSqlRepositories, Migrations.layer)

/** The PostgreSQL store (also provides the `PgClient`, for `migrate` and health checks). */
export const layerPostgres = (
  options: PostgresOptions
): Layer.Layer<
  Repositories | PgClient.PgClient | SqlClient.SqlClient,
  StorageError,
  Ids | SecretBox
> => withMigrations(options.migrate).pipe(Layer.provideMerge(layerPgClient(options)))

/** Options of the embedded store. */
export interface EmbeddedOptions extends Embedded.EmbeddedOptions {
  /** Apply pending migrations when the layer starts (default true). */
  readonly migrate?: boolean | undefined
}

/** The embedded store (PGlite behind pglite-socket, one connection). */
export const layerEmbedded = (
  options: EmbeddedOptions = {}
): Layer.Layer<
  Repositories | PgClient.PgClient | SqlClient.SqlClient,
  StorageError,
  Ids | SecretBox
> => withMigrations(options.migrate).pipe(Layer.provideMerge(Embedded.layerClient(options)))

/**
 * Levy's data directory when none is given (`--data-dir`, `LEVY_DATA_DIR`, `dataDir`): the
 * embedded database in `data/` and the key file `secret.key` beside it (`dataDirPaths`).
 */
export const DEFAULT_DATA_DIR = ".levy"

/** Where the embedded database and the key file sealing stored secrets are in `dataDir`. */
export const dataDirPaths = (dataDir: string) => ({
  database: join(dataDir, "data"),
  secretKey: join(dataDir, "secret.key")
})

/** `LEVY_DATA_DIR`, else `.levy`; empty counts as unset, as a shell's `LEVY_DATA_DIR=` means. */
export const dataDirFromEnv: Config.Config<string> = Config.string("LEVY_DATA_DIR").pipe(
  Config.option,
  Config.map((dir) =>
    Option.getOrElse(
      Option.filter(dir, (d) => d !== ""),
      () => DEFAULT_DATA_DIR
    )
  )
)

/**
 * The store the environment asks for: PostgreSQL when `DATABASE_URL` is set, otherwise the
 * embedded store in `data/` of `LEVY_DATA_DIR` (default `.levy`, as `levy --data-dir`).
 * Webhook secrets and processor credentials are sealed with `LEVY_SECRET_KEY`, or else the
 * key file `secret.key` of that directory (beside, not inside, the database).
 */
export const layerFromEnv: Layer.Layer<Repositories, StorageError | ConfigError.ConfigError, Ids> =
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const url = yield* Config.option(Config.redacted("DATABASE_URL"))
      const paths = dataDirPaths(yield* dataDirFromEnv)
      const secrets = SecretBox.layerConfig(paths.secretKey)
      const store = Option.isSome(url)
        ? layerPostgres({ url: url.value })
        : layerEmbedded({ dataDir: paths.database })
      return store.pipe(Layer.provide(secrets))
    })
  )

/**
 * `levy migrate`: applies pending migrations to the store the environment names
 * (`DATABASE_URL`, else the embedded store of `LEVY_DATA_DIR`) and returns what it applied.
 */
export const migrateFromEnv: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  StorageError | ConfigError.ConfigError
> = Effect.gen(function* () {
  const url = yield* Config.option(Config.redacted("DATABASE_URL"))
  const client = Option.isSome(url)
    ? layerPgClient({ url: url.value, maxConnections: 1 })
    : Embedded.layerClient({ dataDir: dataDirPaths(yield* dataDirFromEnv).database })
  return yield* Effect.provide(Migrations.migrate, client)
})

/**
 * The schema's migrations, numbered files under `migrations/`, applied by `PgMigrator` in
 * order and recorded in `levy_migrations`; re-running applies nothing new. The server runs
 * `migrate` at start and `levy migrate` runs it on demand.
 */
import * as NodeCommandExecutor from "@effect/platform-node/NodeCommandExecutor"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { SqlClient } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import { PgClient } from "@effect/sql-pg/PgClient"
import { Effect, Layer, Option } from "effect"
import init from "./migrations/0001_init.js"
import webhookSecretRoll from "./migrations/0002_webhook_secret_roll.js"
import eventFanOut from "./migrations/0003_event_fan_out.js"
import chargePhases from "./migrations/0004_charge_phases.js"
import processorConfigs from "./migrations/0005_processor_configs.js"
import processorNotifications from "./migrations/0006_processor_notifications.js"
import feeConfigVersions from "./migrations/0007_fee_config_versions.js"
import webhookLimitsAndRetention from "./migrations/0008_webhook_limits_and_retention.js"
import processorConfigChanges from "./migrations/0009_processor_config_changes.js"
import rulesetNotices from "./migrations/0010_ruleset_notices.js"
import chargeEstimates from "./migrations/0011_charge_estimates.js"
import { StorageError } from "./StorageError.js"

/** Every migration, by `<number>_<name>`. */
export const migrations = {
  "0001_init": init,
  "0002_webhook_secret_roll": webhookSecretRoll,
  "0003_event_fan_out": eventFanOut,
  "0004_charge_phases": chargePhases,
  "0005_processor_configs": processorConfigs,
  "0006_processor_notifications": processorNotifications,
  "0007_fee_config_versions": feeConfigVersions,
  "0008_webhook_limits_and_retention": webhookLimitsAndRetention,
  "0009_processor_config_changes": processorConfigChanges,
  "0010_ruleset_notices": rulesetNotices,
  "0011_charge_estimates": chargeEstimates
}

/** The table that records applied migrations. */
export const TABLE = "levy_migrations"

const platform = NodeCommandExecutor.layer.pipe(
  Layer.provideMerge(Layer.merge(NodeFileSystem.layer, NodePath.layer))
)

/** Applies the migrations not yet applied; returns those it applied. */
export const migrate: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  StorageError,
  PgClient | SqlClient.SqlClient
> = PgMigrator.run({ loader: PgMigrator.fromRecord(migrations), table: TABLE }).pipe(
  Effect.provide(platform),
  Effect.mapError(
    (cause) => new StorageError({ message: `migration failed: ${cause.message}`, cause })
  )
)

/**
 * `migrate` on the SQL client an open store's context holds (a store layer typed by its
 * repositories only still carries it), or nothing to apply when it holds none (memory): what
 * `levy migrate` runs through a running `levy serve`, on the store the server has open.
 */
export const migrateOpenStore: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  StorageError
> = Effect.flatMap(
  Effect.serviceOption(PgClient),
  Option.match({
    onNone: () => Effect.succeed([]),
    onSome: (client) =>
      migrate.pipe(
        Effect.provideService(PgClient, client),
        Effect.provideService(SqlClient.SqlClient, client)
      )
  })
)

/** `migrate` as a layer, for composing at server start. */
export const layer = Layer.effectDiscard(migrate)

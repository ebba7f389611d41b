/**
 * The payment processor configured for each account and mode (docs/design.md §4): at most one
 * per (account, livemode). Its credentials are sealed by `SecretBox` like webhook signing
 * secrets (never stored in plain text), bound to the row and the processor, and opened only by
 * `open`, for building the adapter. Every save gets a new random `revision`, so a cache of
 * adapters can tell that the credentials changed without opening them.
 */
import { randomBytes } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option } from "effect"
import * as MemoryStore from "./memory/MemoryStore.js"
import { SecretBox, type SecretBoxService } from "./SecretBox.js"
import { RecordNotFound, StorageError } from "./StorageError.js"
import * as SqlSupport from "./sql/SqlSupport.js"
import type { Tenant } from "./Tenant.js"

/** A configuration as returned: without its credentials. */
export interface ProcessorConfig {
  readonly accountId: string
  readonly livemode: boolean
  /** The processor's name (`stripe`, `adyen`). */
  readonly processor: string
  /** Whether the adapter also sends the fee in the processor's surcharge field. */
  readonly surcharge: boolean
  /** Changes with every save (random): adapters are cached per revision. */
  readonly revision: string
  /** Unix seconds: first saved with this processor. */
  readonly created: number
  /** Unix seconds: last saved. */
  readonly updated: number
}

/** A configuration with its credentials opened. */
export interface OpenedProcessorConfig {
  readonly config: ProcessorConfig
  readonly credentials: Readonly<Record<string, string>>
}

/** What a save writes: the credentials in plain text (sealed before they are stored). */
export interface ProcessorConfigSave {
  readonly processor: string
  readonly credentials: Readonly<Record<string, string>>
  readonly surcharge: boolean
  /** Unix seconds. */
  readonly at: number
}

/** Processor configurations. */
export interface ProcessorConfigRepositoryService {
  readonly get: (tenant: Tenant) => Effect.Effect<Option.Option<ProcessorConfig>, StorageError>
  /** The configuration with its credentials opened (a wrong key is a `StorageError`). */
  readonly open: (
    tenant: Tenant
  ) => Effect.Effect<Option.Option<OpenedProcessorConfig>, StorageError>
  /**
   * Creates or replaces the tenant's configuration. `created` stays when the processor stays
   * the same and restarts when another processor replaces it.
   */
  readonly save: (
    tenant: Tenant,
    save: ProcessorConfigSave
  ) => Effect.Effect<ProcessorConfig, StorageError>
  readonly remove: (tenant: Tenant) => Effect.Effect<ProcessorConfig, RecordNotFound | StorageError>
}

/** The additional data the credentials are sealed with: their row and their processor. */
const sealContext = (accountId: string, livemode: boolean, processor: string) =>
  `processor_config:${accountId}:${livemode ? "live" : "test"}:${processor}`

const newRevision = () => randomBytes(12).toString("hex")

const notFound = (tenant: Tenant) =>
  new RecordNotFound({
    entity: "processor_config",
    id: `${tenant.accountId}/${tenant.livemode ? "live" : "test"}`
  })

/** Opens sealed credentials; anything but a JSON object of strings is a `StorageError`. */
const openCredentials = (
  box: SecretBoxService,
  sealed: string,
  config: ProcessorConfig
): Effect.Effect<Readonly<Record<string, string>>, StorageError> =>
  box.open(sealed, sealContext(config.accountId, config.livemode, config.processor)).pipe(
    Effect.flatMap((text) =>
      Effect.try({
        try: () => {
          const parsed: unknown = JSON.parse(text)
          if (
            typeof parsed !== "object" ||
            parsed === null ||
            Object.values(parsed).some((v) => typeof v !== "string")
          ) {
            throw new Error("not an object of strings")
          }
          return parsed as Readonly<Record<string, string>>
        },
        catch: (cause) =>
          new StorageError({ message: "stored processor credentials are malformed", cause })
      })
    )
  )

const seal = (box: SecretBoxService, tenant: Tenant, save: ProcessorConfigSave) =>
  box.seal(
    JSON.stringify(save.credentials),
    sealContext(tenant.accountId, tenant.livemode, save.processor)
  )

interface Row {
  account_id: string
  livemode: boolean
  processor: string
  credentials_ciphertext: string
  surcharge: boolean
  revision: string
  created: number
  updated: number
}

const fromRow = (r: Row): ProcessorConfig => ({
  accountId: r.account_id,
  livemode: r.livemode,
  processor: r.processor,
  surcharge: r.surcharge,
  revision: r.revision,
  created: r.created,
  updated: r.updated
})

/** The SQL implementation. */
export const makeSql = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const box = yield* SecretBox
  const select = (tenant: Tenant) =>
    sql<Row>`SELECT * FROM processor_configs
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}`.pipe(
      SqlSupport.orStorageError,
      Effect.map((rows) => Option.fromNullable(rows[0]))
    )
  const service: ProcessorConfigRepositoryService = {
    get: (tenant) => Effect.map(select(tenant), Option.map(fromRow)),
    open: (tenant) =>
      Effect.flatMap(select(tenant), (row) =>
        Option.isNone(row)
          ? Effect.succeedNone
          : Effect.map(
              openCredentials(box, row.value.credentials_ciphertext, fromRow(row.value)),
              (credentials) => Option.some({ config: fromRow(row.value), credentials })
            )
      ),
    save: (tenant, save) =>
      sql<Row>`INSERT INTO processor_configs AS c
          (account_id, livemode, processor, credentials_ciphertext, surcharge, revision, created, updated)
        VALUES (${tenant.accountId}, ${tenant.livemode}, ${save.processor}, ${seal(box, tenant, save)},
          ${save.surcharge}, ${newRevision()}, ${save.at}, ${save.at})
        ON CONFLICT (account_id, livemode) DO UPDATE SET
          processor = EXCLUDED.processor,
          credentials_ciphertext = EXCLUDED.credentials_ciphertext,
          surcharge = EXCLUDED.surcharge,
          revision = EXCLUDED.revision,
          created = CASE WHEN c.processor = EXCLUDED.processor THEN c.created ELSE EXCLUDED.created END,
          updated = EXCLUDED.updated
        RETURNING *`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => fromRow(rows[0]!))
      ),
    remove: (tenant) =>
      sql<Row>`DELETE FROM processor_configs
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
        RETURNING *`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows[0] ? Effect.succeed(fromRow(rows[0])) : Effect.fail(notFound(tenant))
        )
      )
  }
  return service
})

const TABLE = "processor_configs"

interface Stored extends ProcessorConfig {
  readonly sealed: string
}

/** The in-memory implementation. */
export const makeMemory = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const box = yield* SecretBox
  const configs = store.table<Stored>(TABLE)
  const key = (tenant: Tenant) => `${tenant.accountId}/${tenant.livemode}`
  const visible = ({ sealed: _, ...config }: Stored): ProcessorConfig => config
  const find = (tenant: Tenant) => store.read(() => Option.fromNullable(configs.get(key(tenant))))
  const service: ProcessorConfigRepositoryService = {
    get: (tenant) => Effect.map(find(tenant), Option.map(visible)),
    open: (tenant) =>
      Effect.flatMap(find(tenant), (found) =>
        Option.isNone(found)
          ? Effect.succeedNone
          : Effect.map(openCredentials(box, found.value.sealed, found.value), (credentials) =>
              Option.some({ config: visible(found.value), credentials })
            )
      ),
    save: (tenant, save) =>
      store.write((w) => {
        const before = configs.get(key(tenant))
        const stored: Stored = {
          accountId: tenant.accountId,
          livemode: tenant.livemode,
          processor: save.processor,
          surcharge: save.surcharge,
          revision: newRevision(),
          created:
            before !== undefined && before.processor === save.processor ? before.created : save.at,
          updated: save.at,
          sealed: seal(box, tenant, save)
        }
        w.put(TABLE, key(tenant), stored)
        return Effect.succeed(visible(stored))
      }),
    remove: (tenant) =>
      store.write((w) => {
        const before = configs.get(key(tenant))
        if (before === undefined) return Effect.fail(notFound(tenant))
        w.remove(TABLE, key(tenant))
        return Effect.succeed(visible(before))
      })
  }
  return service
})

/** Processor configurations, as a service. */
export class ProcessorConfigRepository extends Context.Tag(
  "@levy/storage/ProcessorConfigRepository"
)<ProcessorConfigRepository, ProcessorConfigRepositoryService>() {
  static readonly layerSql = Layer.effect(ProcessorConfigRepository, makeSql)
  static readonly layerMemory = Layer.effect(ProcessorConfigRepository, makeMemory)
}

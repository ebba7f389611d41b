/** Processor configurations and their held changes on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import {
  changeOf,
  newRevision,
  notFound,
  openChange,
  openCredentials,
  PENDING_CHANGE,
  type ProcessorChange,
  type ProcessorConfig,
  ProcessorConfigRepository,
  type ProcessorConfigRepositoryService,
  type ProcessorConfigSave,
  revisionConflict,
  type StoredProcessorChange,
  type StoredProcessorConfig,
  seal,
  sealChange
} from "../ProcessorConfigRepository.js"
import { SecretBox } from "../SecretBox.js"
import { RecordNotFound } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as SqlSupport from "./SqlSupport.js"
import { pendingProcessorChanges, processorConfigs } from "./Tables.js"

const visible = ({ credentialsCiphertext: _, ...config }: StoredProcessorConfig): ProcessorConfig =>
  config

const withoutCredentials = ({
  credentialsCiphertext: _,
  ...change
}: StoredProcessorChange): ProcessorChange => change

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const box = yield* SecretBox
  const columns = processorConfigs.select(sql)
  const changeColumns = pendingProcessorChanges.select(sql)
  const where = (tenant: Tenant) =>
    sql`account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}`
  const select = (tenant: Tenant, lock = false) =>
    sql`SELECT ${columns} FROM processor_configs WHERE ${where(tenant)}
      ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.flatMap(SqlSupport.maybeOne(processorConfigs)))
  const selectChange = (tenant: Tenant, lock = false) =>
    sql`SELECT ${changeColumns} FROM pending_processor_config_changes WHERE ${where(tenant)}
      ${lock ? sql`FOR UPDATE` : sql``}`.pipe(
      Effect.flatMap(SqlSupport.maybeOne(pendingProcessorChanges))
    )
  const opened = (stored: StoredProcessorChange) =>
    openChange(box, withoutCredentials(stored), stored.credentialsCiphertext)
  /** The row `save` makes: a new revision, its credentials sealed. */
  const rowOf = (tenant: Tenant, save: ProcessorConfigSave): StoredProcessorConfig => ({
    accountId: tenant.accountId,
    livemode: tenant.livemode,
    processor: save.processor,
    surcharge: save.surcharge,
    revision: newRevision(),
    created: save.at,
    updated: save.at,
    credentialsCiphertext: seal(box, tenant, save)
  })
  const upsert = (tenant: Tenant, save: ProcessorConfigSave) =>
    sql`INSERT INTO processor_configs AS c ${processorConfigs.insert(sql, rowOf(tenant, save))}
      ON CONFLICT (account_id, livemode) DO UPDATE SET
        processor = EXCLUDED.processor,
        credentials_ciphertext = EXCLUDED.credentials_ciphertext,
        surcharge = EXCLUDED.surcharge,
        revision = EXCLUDED.revision,
        created = CASE WHEN c.processor = EXCLUDED.processor THEN c.created ELSE EXCLUDED.created END,
        updated = EXCLUDED.updated
      RETURNING ${processorConfigs.select(sql, "c")}`.pipe(
      Effect.flatMap(SqlSupport.returned(processorConfigs)),
      Effect.map(visible)
    )
  /**
   * The configuration locked and checked to be at revision `expected` (null: none). With none
   * there is no row to lock: a write that means to create one inserts only if still none.
   */
  const atRevision = (tenant: Tenant, expected: string | null) =>
    Effect.gen(function* () {
      const locked = yield* select(tenant, true)
      const found = Option.match(locked, { onNone: () => null, onSome: (c) => c.revision })
      if (found !== expected) return yield* revisionConflict(tenant, expected, found)
      return locked
    })
  /** The held change applied; the caller locked the configuration at its base revision. */
  const apply = (tenant: Tenant, held: StoredProcessorChange, at: number) =>
    Effect.gen(function* () {
      const { change, credentials } = yield* opened(held)
      let config: ProcessorConfig
      if (change.action === "delete") {
        config = yield* sql`DELETE FROM processor_configs WHERE ${where(tenant)}
          RETURNING ${columns}`.pipe(
          Effect.flatMap(SqlSupport.one(processorConfigs, "processor_config", tenant.accountId)),
          Effect.map(visible)
        )
      } else {
        const save = {
          processor: change.processor,
          credentials: credentials ?? {},
          surcharge: change.surcharge,
          at
        }
        if (change.baseRevision !== null) config = yield* upsert(tenant, save)
        else {
          // None was configured: another writer may have created one since the lock found none.
          const inserted = yield* sql`INSERT INTO processor_configs
            ${processorConfigs.insert(sql, rowOf(tenant, save))}
            ON CONFLICT (account_id, livemode) DO NOTHING
            RETURNING ${columns}`.pipe(Effect.flatMap(SqlSupport.maybeOne(processorConfigs)))
          if (Option.isNone(inserted)) {
            const now = yield* select(tenant)
            return yield* revisionConflict(
              tenant,
              null,
              Option.match(now, { onNone: () => null, onSome: (c) => c.revision })
            )
          }
          config = visible(inserted.value)
        }
      }
      yield* sql`DELETE FROM pending_processor_config_changes WHERE ${where(tenant)}`
      return { change, credentials, config }
    })
  const service: ProcessorConfigRepositoryService = {
    get: (tenant) =>
      Effect.map(select(tenant), Option.map(visible)).pipe(SqlSupport.orStorageError),
    open: (tenant) =>
      Effect.flatMap(select(tenant).pipe(SqlSupport.orStorageError), (found) =>
        Option.isNone(found)
          ? Effect.succeedNone
          : Effect.map(
              openCredentials(box, found.value.credentialsCiphertext, found.value),
              (credentials) => Option.some({ config: visible(found.value), credentials })
            )
      ),
    save: (tenant, save) => upsert(tenant, save).pipe(SqlSupport.orStorageError),
    remove: (tenant) =>
      sql`DELETE FROM processor_configs WHERE ${where(tenant)} RETURNING ${columns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.maybeOne(processorConfigs)),
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.fail(notFound(tenant)),
            onSome: (stored) => Effect.succeed(visible(stored))
          })
        )
      ),
    request: (tenant, request) =>
      Effect.gen(function* () {
        yield* atRevision(tenant, request.expected)
        const change = changeOf(tenant, request)
        const stored: StoredProcessorChange = {
          ...change,
          credentialsCiphertext: sealChange(box, change, request.credentials)
        }
        yield* sql`INSERT INTO pending_processor_config_changes
          ${pendingProcessorChanges.insert(sql, stored)}`
        return change
      }).pipe(sql.withTransaction, SqlSupport.orDuplicate(PENDING_CHANGE, tenant.accountId)),
    pending: (tenant) =>
      selectChange(tenant).pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((held) =>
          Option.isNone(held) ? Effect.succeedNone : Effect.asSome(opened(held.value))
        )
      ),
    approve: (tenant, approval) =>
      Effect.gen(function* () {
        const held = yield* selectChange(tenant, true)
        if (Option.isNone(held) || held.value.id !== approval.id) {
          return yield* new RecordNotFound({ entity: PENDING_CHANGE, id: approval.id })
        }
        yield* atRevision(tenant, held.value.baseRevision)
        yield* approval.check(withoutCredentials(held.value))
        return yield* apply(tenant, held.value, approval.at)
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    cancel: (tenant) =>
      sql`DELETE FROM pending_processor_config_changes WHERE ${where(tenant)}
        RETURNING ${changeColumns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.one(pendingProcessorChanges, PENDING_CHANGE, tenant.accountId)),
        Effect.flatMap(opened)
      )
  }
  return service
})

export const layer = Layer.effect(ProcessorConfigRepository, make)

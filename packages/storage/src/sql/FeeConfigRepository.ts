/** Fee configurations and their changes on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import {
  type FeeConfigChange,
  FeeConfigRepository,
  type FeeConfigRepositoryService,
  PENDING
} from "../FeeConfigRepository.js"
import type { JsonObject } from "../Json.js"
import { DuplicateRecord, RecordNotFound } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as SqlSupport from "./SqlSupport.js"
import { feeConfigChanges, feeConfigs } from "./Tables.js"

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const configColumns = feeConfigs.select(sql)
  const changeColumns = feeConfigChanges.select(sql)
  const current = (tenant: Tenant, lock: boolean) =>
    sql`SELECT ${configColumns} FROM fee_configs
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
      ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.flatMap(SqlSupport.maybeOne(feeConfigs)))
  const pendingChange = (tenant: Tenant, lock: boolean) =>
    sql`SELECT ${changeColumns} FROM fee_config_changes
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND status = 'pending'
      ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.flatMap(SqlSupport.maybeOne(feeConfigChanges)))
  const upsert = (tenant: Tenant, config: JsonObject, at: number) =>
    sql`INSERT INTO fee_configs ${feeConfigs.insert(sql, { ...tenant, config, updated: at })}
      ON CONFLICT (account_id, livemode) DO UPDATE SET config = EXCLUDED.config, updated = EXCLUDED.updated
      RETURNING ${configColumns}`.pipe(Effect.flatMap(SqlSupport.returned(feeConfigs)))
  const applyMerged = (tenant: Tenant, changes: JsonObject, at: number) =>
    Effect.gen(function* () {
      const before = Option.match(yield* current(tenant, true), {
        onNone: (): JsonObject => ({}),
        onSome: (r) => r.config
      })
      const config = yield* upsert(tenant, { ...before, ...changes }, at)
      return { before, config }
    })
  const insertChange = (change: FeeConfigChange) =>
    sql`INSERT INTO fee_config_changes ${feeConfigChanges.insert(sql, change)}
      RETURNING ${changeColumns}`.pipe(Effect.flatMap(SqlSupport.returned(feeConfigChanges)))
  const service: FeeConfigRepositoryService = {
    get: (tenant) => current(tenant, false).pipe(SqlSupport.orStorageError),
    initialize: (tenant, config, at) =>
      sql`INSERT INTO fee_configs ${feeConfigs.insert(sql, { ...tenant, config, updated: at })}
        RETURNING ${configColumns}`.pipe(
        SqlSupport.orDuplicate("fee_config", tenant.accountId),
        Effect.flatMap(SqlSupport.returned(feeConfigs))
      ),
    apply: (tenant, change) =>
      Effect.gen(function* () {
        const { before, config } = yield* applyMerged(tenant, change.changes, change.at)
        const recorded = yield* insertChange({
          id: change.id,
          accountId: tenant.accountId,
          livemode: tenant.livemode,
          changes: change.changes,
          status: "applied",
          requestedBy: change.requestedBy ?? null,
          created: change.at,
          resolvedAt: change.at,
          resolvedBy: change.requestedBy ?? null,
          previous: before
        })
        return { config, change: recorded }
      }).pipe(sql.withTransaction, SqlSupport.orDuplicate("fee_config_change", change.id)),
    request: (tenant, change) =>
      insertChange({
        id: change.id,
        accountId: tenant.accountId,
        livemode: tenant.livemode,
        changes: change.changes,
        status: "pending",
        requestedBy: change.requestedBy ?? null,
        created: change.at,
        resolvedAt: null,
        resolvedBy: null,
        previous: null
      }).pipe(
        Effect.catchTag("SqlError", (e) =>
          Effect.fail(
            !SqlSupport.isUniqueViolation(e)
              ? SqlSupport.storageError(e)
              : SqlSupport.pgError(e).constraint === "fee_config_changes_one_pending"
                ? new DuplicateRecord({ entity: PENDING, id: tenant.accountId })
                : new DuplicateRecord({ entity: "fee_config_change", id: change.id })
          )
        )
      ),
    pending: (tenant) => pendingChange(tenant, false).pipe(SqlSupport.orStorageError),
    approve: (tenant, by) =>
      Effect.gen(function* () {
        const pending = yield* pendingChange(tenant, true)
        if (Option.isNone(pending) || pending.value.id !== by.id) {
          return yield* Effect.fail(new RecordNotFound({ entity: PENDING, id: by.id }))
        }
        const locked = Option.match(yield* current(tenant, true), {
          onNone: (): JsonObject => ({}),
          onSome: (r) => r.config
        })
        yield* by.check(pending.value, locked)
        const { before, config } = yield* applyMerged(tenant, pending.value.changes, by.at)
        const change = yield* sql`UPDATE fee_config_changes
          SET status = 'applied', resolved_at = ${by.at}, resolved_by = ${by.by},
            previous = ${SqlSupport.json(before)}
          WHERE account_id = ${tenant.accountId} AND id = ${pending.value.id}
          RETURNING ${changeColumns}`.pipe(Effect.flatMap(SqlSupport.returned(feeConfigChanges)))
        return { config, change }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    cancel: (tenant, by) =>
      sql`UPDATE fee_config_changes
        SET status = 'cancelled', resolved_at = ${by.at}, resolved_by = ${by.by}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND status = 'pending'
        RETURNING ${changeColumns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.one(feeConfigChanges, PENDING, tenant.accountId))
      ),
    history: (tenant, request) =>
      SqlSupport.list(sql, {
        table: feeConfigChanges,
        entity: "fee_config_change",
        tenant,
        request
      })
  }
  return service
})

export const layer = Layer.effect(FeeConfigRepository, make)

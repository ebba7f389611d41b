/** Fee configurations and their changes on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import {
  type FeeConfigChange,
  FeeConfigRepository,
  type FeeConfigRepositoryService,
  PENDING,
  STALE_BASE,
  UNSTORED_VERSION
} from "../FeeConfigRepository.js"
import type { JsonObject } from "../Json.js"
import { DuplicateRecord, RecordNotFound, VersionConflict } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as SqlSupport from "./SqlSupport.js"
import { feeConfigChanges, feeConfigs } from "./Tables.js"

const conflict = (tenant: Tenant, expected: number, found: number) =>
  Effect.fail(new VersionConflict({ entity: "fee_config", id: tenant.accountId, expected, found }))

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
  /**
   * The configuration locked for a write, checked to be at version `expected`, then written
   * as `config` at the next version: the compare-and-set every write goes through. No row yet
   * is version 0 (the defaults); a row inserted meanwhile by another write is a conflict.
   */
  const compareAndSet = (
    tenant: Tenant,
    expected: number,
    at: number,
    next: (before: JsonObject) => JsonObject
  ) =>
    Effect.gen(function* () {
      const locked = yield* current(tenant, true)
      const found = Option.match(locked, {
        onNone: () => UNSTORED_VERSION,
        onSome: (r) => r.version
      })
      if (found !== expected) return yield* conflict(tenant, expected, found)
      const before = Option.match(locked, {
        onNone: (): JsonObject => ({}),
        onSome: (r) => r.config
      })
      const config = next(before)
      const written = Option.isSome(locked)
        ? yield* sql`UPDATE fee_configs SET config = ${SqlSupport.json(config)}, updated = ${at},
            version = version + 1
            WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
            RETURNING ${configColumns}`.pipe(Effect.flatMap(SqlSupport.maybeOne(feeConfigs)))
        : yield* sql`INSERT INTO fee_configs ${feeConfigs.insert(sql, { ...tenant, config, updated: at, version: expected + 1 })}
            ON CONFLICT (account_id, livemode) DO NOTHING
            RETURNING ${configColumns}`.pipe(Effect.flatMap(SqlSupport.maybeOne(feeConfigs)))
      if (Option.isNone(written)) return yield* conflict(tenant, expected, expected + 1)
      return { before, config: written.value }
    })
  /** Locks the configuration and checks it is at `expected`, writing nothing. */
  const atVersion = (tenant: Tenant, expected: number) =>
    Effect.gen(function* () {
      const locked = yield* current(tenant, true)
      const found = Option.match(locked, {
        onNone: () => UNSTORED_VERSION,
        onSome: (r) => r.version
      })
      if (found !== expected) return yield* conflict(tenant, expected, found)
      return locked
    })
  const insertChange = (change: FeeConfigChange) =>
    sql`INSERT INTO fee_config_changes ${feeConfigChanges.insert(sql, change)}
      RETURNING ${changeColumns}`.pipe(Effect.flatMap(SqlSupport.returned(feeConfigChanges)))
  const service: FeeConfigRepositoryService = {
    get: (tenant) => current(tenant, false).pipe(SqlSupport.orStorageError),
    initialize: (tenant, config, at) =>
      sql`INSERT INTO fee_configs ${feeConfigs.insert(sql, { ...tenant, config, updated: at, version: UNSTORED_VERSION })}
        RETURNING ${configColumns}`.pipe(
        SqlSupport.orDuplicate("fee_config", tenant.accountId),
        Effect.flatMap(SqlSupport.returned(feeConfigs))
      ),
    apply: (tenant, change) =>
      Effect.gen(function* () {
        const { before, config } = yield* compareAndSet(
          tenant,
          change.expected,
          change.at,
          () => change.config
        )
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
          previous: before,
          baseVersion: change.expected
        })
        return { config, change: recorded }
      }).pipe(sql.withTransaction, SqlSupport.orDuplicate("fee_config_change", change.id)),
    request: (tenant, change) =>
      Effect.gen(function* () {
        yield* atVersion(tenant, change.expected)
        return yield* insertChange({
          id: change.id,
          accountId: tenant.accountId,
          livemode: tenant.livemode,
          changes: change.changes,
          status: "pending",
          requestedBy: change.requestedBy ?? null,
          created: change.at,
          resolvedAt: null,
          resolvedBy: null,
          previous: null,
          baseVersion: change.expected
        })
      }).pipe(
        sql.withTransaction,
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
        // Requested against another version than the one in force: what was judged is not what
        // applying it now would make.
        const base = pending.value.baseVersion ?? STALE_BASE
        const locked = Option.match(yield* atVersion(tenant, base), {
          onNone: (): JsonObject => ({}),
          onSome: (r) => r.config
        })
        yield* by.check(pending.value, locked)
        const { before, config } = yield* compareAndSet(tenant, base, by.at, (b) => ({
          ...b,
          ...pending.value.changes
        }))
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

/**
 * Fee configurations: the current one per account and mode, at most one pending change
 * (live-mode raises wait for approval, docs/design.md §6), and the history of every change.
 * The configuration itself is a JSON object owned by the caller; a change is a partial
 * object merged over it (shallow merge) when applied.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option } from "effect"
import type { JsonObject } from "./Json.js"
import * as MemoryStore from "./memory/MemoryStore.js"
import type * as Page from "./Page.js"
import { DuplicateRecord, RecordNotFound, type StorageError } from "./StorageError.js"
import * as SqlSupport from "./sql/SqlSupport.js"
import type { Tenant } from "./Tenant.js"

/** The configuration in force for one account and mode. */
export interface FeeConfig {
  readonly accountId: string
  readonly livemode: boolean
  readonly config: JsonObject
  /** Unix seconds of the last change. */
  readonly updated: number
}

/** A change: pending, applied or cancelled. */
export interface FeeConfigChange {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly changes: JsonObject
  readonly status: "pending" | "applied" | "cancelled"
  /** Who asked (an API key id, "cli", ...). */
  readonly requestedBy: string | null
  /** Unix seconds of the request. */
  readonly created: number
  readonly resolvedAt: number | null
  readonly resolvedBy: string | null
  /** The configuration just before this change was applied. */
  readonly previous: JsonObject | null
}

/** A change to record. */
export interface NewChange {
  readonly id: string
  readonly changes: JsonObject
  readonly requestedBy?: string | null | undefined
  readonly at: number
}

/** A resolution (approval or cancellation). */
export interface Resolution {
  readonly by: string | null
  readonly at: number
}

/**
 * An approval: the change it approves, by its id, and who approves it. `check` runs under
 * the lock that applies the change, with the pending change and the configuration it will be
 * merged over: what it fails with refuses the approval and nothing is written.
 */
export interface Approval<E> extends Resolution {
  readonly id: string
  readonly check: (pending: FeeConfigChange, config: JsonObject) => Effect.Effect<void, E>
}

/** The configuration after a change and the change as recorded. */
export interface Applied {
  readonly config: FeeConfig
  readonly change: FeeConfigChange
}

/** Fee configurations and their changes. */
export interface FeeConfigRepositoryService {
  readonly get: (tenant: Tenant) => Effect.Effect<Option.Option<FeeConfig>, StorageError>
  /** Sets the configuration outright (a new account's defaults); no history entry. */
  readonly initialize: (
    tenant: Tenant,
    config: JsonObject,
    at: number
  ) => Effect.Effect<FeeConfig, DuplicateRecord | StorageError>
  /** Applies a change at once (test mode, or a change that lowers the fee) and records it. */
  readonly apply: (
    tenant: Tenant,
    change: NewChange
  ) => Effect.Effect<Applied, DuplicateRecord | StorageError>
  /** Holds a change for approval; fails with `DuplicateRecord` when one is already pending. */
  readonly request: (
    tenant: Tenant,
    change: NewChange
  ) => Effect.Effect<FeeConfigChange, DuplicateRecord | StorageError>
  readonly pending: (tenant: Tenant) => Effect.Effect<Option.Option<FeeConfigChange>, StorageError>
  /**
   * Applies the pending change named by `approval.id` once `approval.check` passes, both
   * inside one locked transaction (so the change checked is the change applied);
   * `RecordNotFound` when that change is not the pending one.
   */
  readonly approve: <E>(
    tenant: Tenant,
    approval: Approval<E>
  ) => Effect.Effect<Applied, E | RecordNotFound | StorageError>
  /** Drops the pending change (kept in the history as cancelled). */
  readonly cancel: (
    tenant: Tenant,
    by: Resolution
  ) => Effect.Effect<FeeConfigChange, RecordNotFound | StorageError>
  /** Every change, newest first. */
  readonly history: (
    tenant: Tenant,
    request: Page.PageRequest
  ) => Effect.Effect<Page.Page<FeeConfigChange>, RecordNotFound | StorageError>
}

const PENDING = "pending_fee_config_change"

interface ConfigRow {
  account_id: string
  livemode: boolean
  config: JsonObject
  updated: number
}

interface ChangeRow {
  account_id: string
  id: string
  livemode: boolean
  changes: JsonObject
  status: FeeConfigChange["status"]
  requested_by: string | null
  created: number
  resolved_at: number | null
  resolved_by: string | null
  previous: JsonObject | null
}

const configFromRow = (r: ConfigRow): FeeConfig => ({
  accountId: r.account_id,
  livemode: r.livemode,
  config: r.config,
  updated: r.updated
})

const changeFromRow = (r: ChangeRow): FeeConfigChange => ({
  id: r.id,
  accountId: r.account_id,
  livemode: r.livemode,
  changes: r.changes,
  status: r.status,
  requestedBy: r.requested_by,
  created: r.created,
  resolvedAt: r.resolved_at,
  resolvedBy: r.resolved_by,
  previous: r.previous
})

/** The SQL implementation. */
export const makeSql = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const current = (tenant: Tenant, lock: boolean) =>
    sql<ConfigRow>`SELECT * FROM fee_configs
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
      ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])))
  const pendingRow = (tenant: Tenant, lock: boolean) =>
    sql<ChangeRow>`SELECT * FROM fee_config_changes
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND status = 'pending'
      ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])))
  const upsert = (tenant: Tenant, config: JsonObject, at: number) =>
    sql<ConfigRow>`INSERT INTO fee_configs (account_id, livemode, config, updated)
      VALUES (${tenant.accountId}, ${tenant.livemode}, ${SqlSupport.json(config)}, ${at})
      ON CONFLICT (account_id, livemode) DO UPDATE SET config = EXCLUDED.config, updated = EXCLUDED.updated
      RETURNING *`.pipe(Effect.map((rows) => configFromRow(rows[0]!)))
  const applyMerged = (tenant: Tenant, changes: JsonObject, at: number) =>
    Effect.gen(function* () {
      const before = Option.match(yield* current(tenant, true), {
        onNone: (): JsonObject => ({}),
        onSome: (r) => r.config
      })
      const config = yield* upsert(tenant, { ...before, ...changes }, at)
      return { before, config }
    })
  const service: FeeConfigRepositoryService = {
    get: (tenant) =>
      current(tenant, false).pipe(Effect.map(Option.map(configFromRow)), SqlSupport.orStorageError),
    initialize: (tenant, config, at) =>
      sql<ConfigRow>`INSERT INTO fee_configs (account_id, livemode, config, updated)
        VALUES (${tenant.accountId}, ${tenant.livemode}, ${SqlSupport.json(config)}, ${at}) RETURNING *`.pipe(
        Effect.map((rows) => configFromRow(rows[0]!)),
        SqlSupport.orDuplicate("fee_config", tenant.accountId)
      ),
    apply: (tenant, change) =>
      Effect.gen(function* () {
        const { before, config } = yield* applyMerged(tenant, change.changes, change.at)
        const rows = yield* sql<ChangeRow>`INSERT INTO fee_config_changes
          (account_id, id, livemode, changes, status, requested_by, created, resolved_at, resolved_by, previous)
          VALUES (${tenant.accountId}, ${change.id}, ${tenant.livemode}, ${SqlSupport.json(change.changes)}, 'applied',
                  ${change.requestedBy ?? null}, ${change.at}, ${change.at}, ${change.requestedBy ?? null},
                  ${SqlSupport.json(before)})
          RETURNING *`
        return { config, change: changeFromRow(rows[0]!) }
      }).pipe(sql.withTransaction, SqlSupport.orDuplicate("fee_config_change", change.id)),
    request: (tenant, change) =>
      sql<ChangeRow>`INSERT INTO fee_config_changes
        (account_id, id, livemode, changes, status, requested_by, created)
        VALUES (${tenant.accountId}, ${change.id}, ${tenant.livemode}, ${SqlSupport.json(change.changes)}, 'pending',
                ${change.requestedBy ?? null}, ${change.at})
        RETURNING *`.pipe(
        Effect.map((rows) => changeFromRow(rows[0]!)),
        Effect.mapError((e) =>
          !SqlSupport.isUniqueViolation(e)
            ? SqlSupport.storageError(e)
            : SqlSupport.pgError(e).constraint === "fee_config_changes_one_pending"
              ? new DuplicateRecord({ entity: PENDING, id: tenant.accountId })
              : new DuplicateRecord({ entity: "fee_config_change", id: change.id })
        )
      ),
    pending: (tenant) =>
      pendingRow(tenant, false).pipe(
        Effect.map(Option.map(changeFromRow)),
        SqlSupport.orStorageError
      ),
    approve: (tenant, by) =>
      Effect.gen(function* () {
        const pending = yield* pendingRow(tenant, true)
        if (Option.isNone(pending) || pending.value.id !== by.id) {
          return yield* Effect.fail(new RecordNotFound({ entity: PENDING, id: by.id }))
        }
        const locked = Option.match(yield* current(tenant, true), {
          onNone: (): JsonObject => ({}),
          onSome: (r) => r.config
        })
        yield* by.check(changeFromRow(pending.value), locked)
        const { before, config } = yield* applyMerged(tenant, pending.value.changes, by.at)
        const rows = yield* sql<ChangeRow>`UPDATE fee_config_changes
          SET status = 'applied', resolved_at = ${by.at}, resolved_by = ${by.by}, previous = ${SqlSupport.json(before)}
          WHERE account_id = ${tenant.accountId} AND id = ${pending.value.id} RETURNING *`
        return { config, change: changeFromRow(rows[0]!) }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    cancel: (tenant, by) =>
      sql<ChangeRow>`UPDATE fee_config_changes
        SET status = 'cancelled', resolved_at = ${by.at}, resolved_by = ${by.by}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND status = 'pending'
        RETURNING *`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows[0]
            ? Effect.succeed(changeFromRow(rows[0]))
            : Effect.fail(new RecordNotFound({ entity: PENDING, id: tenant.accountId }))
        )
      ),
    history: (tenant, request) =>
      SqlSupport.listRaw(sql, {
        table: "fee_config_changes",
        entity: "fee_config_change",
        tenant,
        request,
        decode: changeFromRow
      })
  }
  return service
})

const CONFIGS = "fee_configs"
const CHANGES = "fee_config_changes"

/** The in-memory implementation. */
export const makeMemory = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const configs = store.table<FeeConfig>(CONFIGS)
  const changes = store.table<FeeConfigChange>(CHANGES)
  const tenantKey = (t: Tenant) => `${t.accountId}/${t.livemode}`
  const changeKey = (t: Tenant, id: string) => `${t.accountId}/${id}`
  const findPending = (t: Tenant) =>
    [...changes.values()].find(
      (c) => c.accountId === t.accountId && c.livemode === t.livemode && c.status === "pending"
    )
  const merge = (w: MemoryStore.Writer, t: Tenant, delta: JsonObject, at: number) => {
    const before = configs.get(tenantKey(t))?.config ?? {}
    const config: FeeConfig = {
      accountId: t.accountId,
      livemode: t.livemode,
      config: { ...before, ...delta },
      updated: at
    }
    w.put(CONFIGS, tenantKey(t), config)
    return { before, config }
  }
  const service: FeeConfigRepositoryService = {
    get: (tenant) => store.read(() => Option.fromNullable(configs.get(tenantKey(tenant)))),
    initialize: (tenant, config, at) =>
      store.write((w) => {
        if (configs.has(tenantKey(tenant))) {
          return Effect.fail(new DuplicateRecord({ entity: "fee_config", id: tenant.accountId }))
        }
        const record: FeeConfig = {
          accountId: tenant.accountId,
          livemode: tenant.livemode,
          config,
          updated: at
        }
        w.put(CONFIGS, tenantKey(tenant), record)
        return Effect.succeed(record)
      }),
    apply: (tenant, change) =>
      store.write((w) => {
        if (changes.has(changeKey(tenant, change.id))) {
          return Effect.fail(new DuplicateRecord({ entity: "fee_config_change", id: change.id }))
        }
        const { before, config } = merge(w, tenant, change.changes, change.at)
        const record: FeeConfigChange = {
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
        }
        w.put(CHANGES, changeKey(tenant, change.id), record)
        return Effect.succeed({ config, change: record })
      }),
    request: (tenant, change) =>
      store.write((w) => {
        if (findPending(tenant))
          return Effect.fail(new DuplicateRecord({ entity: PENDING, id: tenant.accountId }))
        if (changes.has(changeKey(tenant, change.id))) {
          return Effect.fail(new DuplicateRecord({ entity: "fee_config_change", id: change.id }))
        }
        const record: FeeConfigChange = {
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
        }
        w.put(CHANGES, changeKey(tenant, change.id), record)
        return Effect.succeed(record)
      }),
    pending: (tenant) => store.read(() => Option.fromNullable(findPending(tenant))),
    approve: <E>(tenant: Tenant, by: Approval<E>) =>
      store.write<Applied, E | RecordNotFound>((w) => {
        const pending = findPending(tenant)
        if (!pending || pending.id !== by.id)
          return Effect.fail(new RecordNotFound({ entity: PENDING, id: by.id }))
        return Effect.map(by.check(pending, configs.get(tenantKey(tenant))?.config ?? {}), () => {
          const { before, config } = merge(w, tenant, pending.changes, by.at)
          const change: FeeConfigChange = {
            ...pending,
            status: "applied",
            resolvedAt: by.at,
            resolvedBy: by.by,
            previous: before
          }
          w.put(CHANGES, changeKey(tenant, pending.id), change)
          return { config, change }
        })
      }),
    cancel: (tenant, by) =>
      store.write((w) => {
        const pending = findPending(tenant)
        if (!pending)
          return Effect.fail(new RecordNotFound({ entity: PENDING, id: tenant.accountId }))
        const change: FeeConfigChange = {
          ...pending,
          status: "cancelled",
          resolvedAt: by.at,
          resolvedBy: by.by
        }
        w.put(CHANGES, changeKey(tenant, pending.id), change)
        return Effect.succeed(change)
      }),
    history: (tenant, request) =>
      MemoryStore.list<FeeConfigChange>(
        store,
        CHANGES,
        "fee_config_change",
        tenant,
        request,
        () => true
      )
  }
  return service
})

/** Fee configurations, as a service. */
export class FeeConfigRepository extends Context.Tag("@levy/storage/FeeConfigRepository")<
  FeeConfigRepository,
  FeeConfigRepositoryService
>() {
  static readonly layerSql = Layer.effect(FeeConfigRepository, makeSql)
  static readonly layerMemory = Layer.effect(FeeConfigRepository, makeMemory)
}

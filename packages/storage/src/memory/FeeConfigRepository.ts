/** Fee configurations and their changes in the in-memory store. */
import { Effect, Layer, Option } from "effect"
import {
  type Applied,
  type Approval,
  type FeeConfig,
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
import * as MemoryStore from "./MemoryStore.js"

const CONFIGS = "fee_configs"
const CHANGES = "fee_config_changes"

export const make = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const configs = store.table<FeeConfig>(CONFIGS)
  const changes = store.table<FeeConfigChange>(CHANGES)
  const tenantKey = (t: Tenant) => `${t.accountId}/${t.livemode}`
  const changeKey = (t: Tenant, id: string) => `${t.accountId}/${id}`
  const findPending = (t: Tenant) =>
    [...changes.values()].find(
      (c) => c.accountId === t.accountId && c.livemode === t.livemode && c.status === "pending"
    )
  /** The conflict of a write decided against `expected`, or undefined when it still holds. */
  const conflictAt = (t: Tenant, expected: number) => {
    const found = configs.get(tenantKey(t))?.version ?? UNSTORED_VERSION
    return found === expected
      ? undefined
      : new VersionConflict({ entity: "fee_config", id: t.accountId, expected, found })
  }
  /** Writes `next(before)` at the next version; the caller checked the version first. */
  const write = (
    w: MemoryStore.Writer,
    t: Tenant,
    at: number,
    next: (before: JsonObject) => JsonObject
  ) => {
    const stored = configs.get(tenantKey(t))
    const before = stored?.config ?? {}
    const config: FeeConfig = {
      accountId: t.accountId,
      livemode: t.livemode,
      config: next(before),
      updated: at,
      version: (stored?.version ?? UNSTORED_VERSION) + 1
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
          updated: at,
          version: UNSTORED_VERSION
        }
        w.put(CONFIGS, tenantKey(tenant), record)
        return Effect.succeed(record)
      }),
    apply: (tenant, change) =>
      store.write<Applied, DuplicateRecord | VersionConflict>((w) => {
        if (changes.has(changeKey(tenant, change.id))) {
          return Effect.fail(new DuplicateRecord({ entity: "fee_config_change", id: change.id }))
        }
        const stale = conflictAt(tenant, change.expected)
        if (stale) return Effect.fail(stale)
        const { before, config } = write(w, tenant, change.at, () => change.config)
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
          previous: before,
          baseVersion: change.expected
        }
        w.put(CHANGES, changeKey(tenant, change.id), record)
        return Effect.succeed({ config, change: record })
      }),
    request: (tenant, change) =>
      store.write<FeeConfigChange, DuplicateRecord | VersionConflict>((w) => {
        if (findPending(tenant))
          return Effect.fail(new DuplicateRecord({ entity: PENDING, id: tenant.accountId }))
        if (changes.has(changeKey(tenant, change.id))) {
          return Effect.fail(new DuplicateRecord({ entity: "fee_config_change", id: change.id }))
        }
        const stale = conflictAt(tenant, change.expected)
        if (stale) return Effect.fail(stale)
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
          previous: null,
          baseVersion: change.expected
        }
        w.put(CHANGES, changeKey(tenant, change.id), record)
        return Effect.succeed(record)
      }),
    pending: (tenant) => store.read(() => Option.fromNullable(findPending(tenant))),
    approve: <E>(tenant: Tenant, by: Approval<E>) =>
      store.write<Applied, E | RecordNotFound | VersionConflict>((w) => {
        const pending = findPending(tenant)
        if (!pending || pending.id !== by.id)
          return Effect.fail(new RecordNotFound({ entity: PENDING, id: by.id }))
        const stale = conflictAt(tenant, pending.baseVersion ?? STALE_BASE)
        if (stale) return Effect.fail(stale)
        return Effect.map(by.check(pending, configs.get(tenantKey(tenant))?.config ?? {}), () => {
          const { before, config } = write(w, tenant, by.at, (b) => ({ ...b, ...pending.changes }))
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

export const layer = Layer.effect(FeeConfigRepository, make)

/**
 * Fee configurations: the current one per account and mode, at most one pending change
 * (live-mode raises wait for approval, docs/design.md §6), and the history of every change.
 * The configuration itself is a JSON object owned by the caller; a change is a partial
 * object merged over it (shallow merge) when applied.
 */
import { Context, type Effect, type Option } from "effect"
import type { JsonObject } from "./Json.js"
import type * as Page from "./Page.js"
import type { DuplicateRecord, RecordNotFound, StorageError } from "./StorageError.js"
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

/** The entity of `DuplicateRecord` / `RecordNotFound` about the one pending change. */
export const PENDING = "pending_fee_config_change"

/** Fee configurations, as a service: `sql/FeeConfigRepository.ts` and `memory/FeeConfigRepository.ts`. */
export class FeeConfigRepository extends Context.Tag("@levy/storage/FeeConfigRepository")<
  FeeConfigRepository,
  FeeConfigRepositoryService
>() {}

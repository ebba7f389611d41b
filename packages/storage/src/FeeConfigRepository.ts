/**
 * Fee configurations: the current one per account and mode, at most one pending change
 * (live-mode raises wait for approval, docs/design.md §6), and the history of every change.
 * The configuration itself is a JSON object owned by the caller. Every write is a
 * compare-and-set on the configuration's `version`: a change is decided against one version
 * and applied only if the configuration is still at it, so two changes decided at once can
 * never combine into one that neither was judged as; a held change is bound to the version it
 * was requested against and can be approved only while the configuration is still there.
 */
import { Context, type Effect, type Option } from "effect"
import type { JsonObject } from "./Json.js"
import type * as Page from "./Page.js"
import type {
  DuplicateRecord,
  RecordNotFound,
  StorageError,
  VersionConflict
} from "./StorageError.js"
import type { Tenant } from "./Tenant.js"

/** The configuration in force for one account and mode. */
export interface FeeConfig {
  readonly accountId: string
  readonly livemode: boolean
  readonly config: JsonObject
  /** Unix seconds of the last change. */
  readonly updated: number
  /** How many changes were applied to it: 0 for the defaults, one more per applied change. */
  readonly version: number
}

/** The version of a configuration not stored yet: the defaults, which `initialize` stores. */
export const UNSTORED_VERSION = 0

/** The base version of a change held before versions were kept: matches no configuration. */
export const STALE_BASE = -1

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
  /**
   * The configuration's version the change was decided against: a pending change may be
   * applied only while the configuration is still at it. Null for changes recorded before
   * versions were kept (such a pending change can no longer be approved).
   */
  readonly baseVersion: number | null
}

/** A change to record, decided against version `expected` of the configuration. */
export interface NewChange {
  readonly id: string
  readonly changes: JsonObject
  readonly requestedBy?: string | null | undefined
  readonly at: number
  readonly expected: number
}

/** A change to apply at once: the whole configuration it makes, besides its changes. */
export interface ChangeToApply extends NewChange {
  readonly config: JsonObject
}

/** A resolution (approval or cancellation). */
export interface Resolution {
  readonly by: string | null
  readonly at: number
}

/**
 * An approval: the change it approves, by its id, and who approves it. `check` runs under
 * the lock that applies the change, with the pending change and the configuration it will be
 * merged over (the one it was requested against, or the approval fails with
 * `VersionConflict`): what it fails with refuses the approval and nothing is written.
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
  /**
   * Applies a change at once (test mode, or a change that lowers the fee) and records it: the
   * configuration becomes `change.config` if it is still at version `change.expected`, else
   * `VersionConflict` and nothing is written.
   */
  readonly apply: (
    tenant: Tenant,
    change: ChangeToApply
  ) => Effect.Effect<Applied, DuplicateRecord | VersionConflict | StorageError>
  /**
   * Holds a change for approval, bound to version `change.expected` (`VersionConflict` if the
   * configuration moved since); fails with `DuplicateRecord` when one is already pending.
   */
  readonly request: (
    tenant: Tenant,
    change: NewChange
  ) => Effect.Effect<FeeConfigChange, DuplicateRecord | VersionConflict | StorageError>
  readonly pending: (tenant: Tenant) => Effect.Effect<Option.Option<FeeConfigChange>, StorageError>
  /**
   * Applies the pending change named by `approval.id` once `approval.check` passes, both
   * inside one locked transaction (so the change checked is the change applied);
   * `RecordNotFound` when that change is not the pending one, `VersionConflict` when the
   * configuration moved since it was requested (the change stays pending, to be cancelled).
   */
  readonly approve: <E>(
    tenant: Tenant,
    approval: Approval<E>
  ) => Effect.Effect<Applied, E | RecordNotFound | VersionConflict | StorageError>
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

/**
 * What telling accounts about changes of the law needs from storage (docs/design.md §3 "Changes
 * announced"): the accounts in batches, the regions each tenant has charged in, the record of
 * every change announced (one row per account, mode, change and region, so a restart or a second
 * server process never announces a region twice: the row is written in the transaction of the
 * event, and a row already there fails it), and the ruleset releases the servers have run.
 */
import { Context, type Effect } from "effect"
import type { Account } from "./AccountRepository.js"
import type { DuplicateRecord, StorageError } from "./StorageError.js"
import type { Tenant } from "./Tenant.js"

/** One region of a change announced to a tenant. */
export interface RulesetNotice {
  readonly accountId: string
  readonly livemode: boolean
  /** Which change: `dated:<effective date>`, or `release:<version before>:<version after>`. */
  readonly changeId: string
  readonly region: string
  /** The ISO date the change takes effect. */
  readonly effectiveDate: string
  /** The ruleset version that answers after the change. */
  readonly rulesetVersion: string
  /** The event that announced it. */
  readonly eventId: string
  /** Unix seconds. */
  readonly created: number
}

/** A ruleset release some server ran, and when one first did (Unix seconds). */
export interface RulesetRelease {
  readonly version: string
  readonly firstSeen: number
}

export interface RulesetNoticeRepositoryService {
  /** At most `limit` accounts with ids after `after` (from the first when null), by id. */
  readonly accounts: (
    after: string | null,
    limit: number
  ) => Effect.Effect<ReadonlyArray<Account>, StorageError>
  /** The regions of the tenant's charges, each once, sorted; charges without a region are left out. */
  readonly chargedRegions: (tenant: Tenant) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /** The regions already announced to the tenant for a change. */
  readonly announced: (
    tenant: Tenant,
    changeId: string
  ) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /**
   * Records notices, all or none: `DuplicateRecord` when one is recorded already (another
   * process announced it), and the caller's transaction then writes nothing.
   */
  readonly record: (
    notices: ReadonlyArray<RulesetNotice>
  ) => Effect.Effect<void, DuplicateRecord | StorageError>
  /**
   * Records that a server runs `version` (kept from the first time, at `now`), and answers every
   * release recorded.
   */
  readonly releasesSeen: (
    version: string,
    now: number
  ) => Effect.Effect<ReadonlyArray<RulesetRelease>, StorageError>
}

/** Notices of ruleset changes, as a service: `sql/` and `memory/RulesetNoticeRepository.ts`. */
export class RulesetNoticeRepository extends Context.Tag("@levy/storage/RulesetNoticeRepository")<
  RulesetNoticeRepository,
  RulesetNoticeRepositoryService
>() {}

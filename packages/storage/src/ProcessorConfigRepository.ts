/**
 * The payment processor configured for each account and mode (docs/design.md §4): at most one
 * per (account, livemode). Its credentials are sealed by `SecretBox` like webhook signing
 * secrets (never stored in plain text), bound to the row and the processor, and opened only by
 * `open`, for building the adapter. Every save gets a new random `revision`, so a cache of
 * adapters can tell that the credentials changed without opening them.
 *
 * A live-mode change may be held for approval by another key: at most one per account and
 * mode, its credentials sealed too (bound to the change), and bound to the revision in force
 * when it was requested (or to none configured), so it can be approved only while that is
 * still what is in force (`RevisionConflict` otherwise).
 */
import { randomBytes } from "node:crypto"
import { Context, Effect, type Option } from "effect"
import type { SecretBoxService } from "./SecretBox.js"
import {
  type DuplicateRecord,
  RecordNotFound,
  RevisionConflict,
  StorageError
} from "./StorageError.js"
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

/** What a held change does once approved. */
export type ProcessorChangeAction = "save" | "delete"

/** A change held for approval, as returned: without its credentials. */
export interface ProcessorChange {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly action: ProcessorChangeAction
  /** The processor to save, or the one to delete. */
  readonly processor: string
  readonly surcharge: boolean
  /** The revision in force when it was requested; null: none was configured. */
  readonly baseRevision: string | null
  /** Who asked (an API key id, or whoever the embedding app names). */
  readonly requestedBy: string
  /** Unix seconds. */
  readonly requestedAt: number
}

/** A held change with its credentials opened (none for a delete). */
export interface OpenedProcessorChange {
  readonly change: ProcessorChange
  readonly credentials: Readonly<Record<string, string>> | null
}

/** A change to hold, decided against revision `expected` (null: none configured). */
export interface ProcessorChangeRequest {
  readonly id: string
  readonly action: ProcessorChangeAction
  readonly processor: string
  /** In plain text (sealed before they are stored); null for a delete. */
  readonly credentials: Readonly<Record<string, string>> | null
  readonly surcharge: boolean
  readonly requestedBy: string
  /** Unix seconds. */
  readonly at: number
  readonly expected: string | null
}

/**
 * An approval of the held change named `id`, `by` someone. `check` runs under the lock that
 * applies it, with the held change: what it fails with refuses the approval, nothing written.
 */
export interface ProcessorApproval<E> {
  readonly id: string
  readonly by: string
  /** Unix seconds. */
  readonly at: number
  readonly check: (pending: ProcessorChange) => Effect.Effect<void, E>
}

/** An approved change: the change, and the configuration it saved or the one it removed. */
export interface AppliedProcessorChange extends OpenedProcessorChange {
  readonly config: ProcessorConfig
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
  /**
   * Holds a change for approval, if the configuration is still at revision `request.expected`
   * (`RevisionConflict` otherwise); `DuplicateRecord` when one is already held.
   */
  readonly request: (
    tenant: Tenant,
    request: ProcessorChangeRequest
  ) => Effect.Effect<ProcessorChange, DuplicateRecord | RevisionConflict | StorageError>
  /** The held change, its credentials opened. */
  readonly pending: (
    tenant: Tenant
  ) => Effect.Effect<Option.Option<OpenedProcessorChange>, StorageError>
  /**
   * Applies the held change named by `approval.id` once `approval.check` passes, in one locked
   * transaction, and drops it: `RecordNotFound` when that change is not the one held,
   * `RevisionConflict` when the configuration moved since it was requested (it stays held,
   * to be cancelled).
   */
  readonly approve: <E>(
    tenant: Tenant,
    approval: ProcessorApproval<E>
  ) => Effect.Effect<AppliedProcessorChange, E | RecordNotFound | RevisionConflict | StorageError>
  /** Drops the held change. */
  readonly cancel: (
    tenant: Tenant
  ) => Effect.Effect<OpenedProcessorChange, RecordNotFound | StorageError>
}

/** The entity of `DuplicateRecord` / `RecordNotFound` about the one held change. */
export const PENDING_CHANGE = "pending_processor_config_change"

/** The additional data the credentials are sealed with: their row and their processor. */
export const sealContext = (accountId: string, livemode: boolean, processor: string) =>
  `processor_config:${accountId}:${livemode ? "live" : "test"}:${processor}`

export const newRevision = () => randomBytes(12).toString("hex")

export const notFound = (tenant: Tenant) =>
  new RecordNotFound({
    entity: "processor_config",
    id: `${tenant.accountId}/${tenant.livemode ? "live" : "test"}`
  })

/** The configuration is not at the revision a held change was decided against. */
export const revisionConflict = (tenant: Tenant, expected: string | null, found: string | null) =>
  new RevisionConflict({
    entity: "processor_config",
    id: `${tenant.accountId}/${tenant.livemode ? "live" : "test"}`,
    expected,
    found
  })

/** Opens sealed credentials; anything but a JSON object of strings is a `StorageError`. */
export const openCredentials = (
  box: SecretBoxService,
  sealed: string,
  config: ProcessorConfig
): Effect.Effect<Readonly<Record<string, string>>, StorageError> =>
  box
    .open(sealed, sealContext(config.accountId, config.livemode, config.processor))
    .pipe(Effect.flatMap(parseCredentials))

const parseCredentials = (text: string) =>
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

export const seal = (box: SecretBoxService, tenant: Tenant, save: ProcessorConfigSave) =>
  box.seal(
    JSON.stringify(save.credentials),
    sealContext(tenant.accountId, tenant.livemode, save.processor)
  )

/**
 * The additional data a held change's credentials are sealed with: their change (so they do
 * not open as another change's, nor as a configuration's) and its processor.
 */
export const changeSealContext = (change: ProcessorChange) =>
  `processor_config_change:${change.accountId}:${change.livemode ? "live" : "test"}:${change.id}:${change.processor}`

/** A held change's credentials sealed, or null for a delete. */
export const sealChange = (
  box: SecretBoxService,
  change: ProcessorChange,
  credentials: Readonly<Record<string, string>> | null
) =>
  credentials === null ? null : box.seal(JSON.stringify(credentials), changeSealContext(change))

/** A held change as the request makes it. */
export const changeOf = (tenant: Tenant, request: ProcessorChangeRequest): ProcessorChange => ({
  id: request.id,
  accountId: tenant.accountId,
  livemode: tenant.livemode,
  action: request.action,
  processor: request.processor,
  surcharge: request.surcharge,
  baseRevision: request.expected,
  requestedBy: request.requestedBy,
  requestedAt: request.at
})

/** A held change with its credentials opened. */
export const openChange = (
  box: SecretBoxService,
  change: ProcessorChange,
  sealed: string | null
): Effect.Effect<OpenedProcessorChange, StorageError> =>
  sealed === null
    ? Effect.succeed({ change, credentials: null })
    : Effect.map(
        box.open(sealed, changeSealContext(change)).pipe(Effect.flatMap(parseCredentials)),
        (credentials) => ({ change, credentials })
      )

/** A held change as stored: with its sealed credentials (null for a delete). */
export interface StoredProcessorChange extends ProcessorChange {
  readonly credentialsCiphertext: string | null
}

/** A configuration as stored: with its sealed credentials. */
export interface StoredProcessorConfig extends ProcessorConfig {
  readonly credentialsCiphertext: string
}

/** Processor configurations, as a service: `sql/` and `memory/ProcessorConfigRepository.ts`. */
export class ProcessorConfigRepository extends Context.Tag(
  "@levy/storage/ProcessorConfigRepository"
)<ProcessorConfigRepository, ProcessorConfigRepositoryService>() {}

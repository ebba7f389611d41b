/**
 * The payment processor configured for each account and mode (docs/design.md §4): at most one
 * per (account, livemode). Its credentials are sealed by `SecretBox` like webhook signing
 * secrets (never stored in plain text), bound to the row and the processor, and opened only by
 * `open`, for building the adapter. Every save gets a new random `revision`, so a cache of
 * adapters can tell that the credentials changed without opening them.
 */
import { randomBytes } from "node:crypto"
import { Context, Effect, type Option } from "effect"
import type { SecretBoxService } from "./SecretBox.js"
import { RecordNotFound, StorageError } from "./StorageError.js"
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
export const sealContext = (accountId: string, livemode: boolean, processor: string) =>
  `processor_config:${accountId}:${livemode ? "live" : "test"}:${processor}`

export const newRevision = () => randomBytes(12).toString("hex")

export const notFound = (tenant: Tenant) =>
  new RecordNotFound({
    entity: "processor_config",
    id: `${tenant.accountId}/${tenant.livemode ? "live" : "test"}`
  })

/** Opens sealed credentials; anything but a JSON object of strings is a `StorageError`. */
export const openCredentials = (
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

export const seal = (box: SecretBoxService, tenant: Tenant, save: ProcessorConfigSave) =>
  box.seal(
    JSON.stringify(save.credentials),
    sealContext(tenant.accountId, tenant.livemode, save.processor)
  )

/** A configuration as stored: with its sealed credentials. */
export interface StoredProcessorConfig extends ProcessorConfig {
  readonly credentialsCiphertext: string
}

/** Processor configurations, as a service: `sql/` and `memory/ProcessorConfigRepository.ts`. */
export class ProcessorConfigRepository extends Context.Tag(
  "@levy/storage/ProcessorConfigRepository"
)<ProcessorConfigRepository, ProcessorConfigRepositoryService>() {}

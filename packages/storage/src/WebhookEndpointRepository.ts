/**
 * Webhook endpoints. Signing secrets are stored sealed by `SecretBox` (never in plain
 * text) and read back only through `secret` / `secrets`, for signing. An endpoint holds its
 * current secret and, after a roll, the previous one with an expiry: until then deliveries
 * are signed with both so receivers can switch over (docs/design.md §8).
 */
import { Context, type Effect } from "effect"
import type * as Page from "./Page.js"
import type { DuplicateRecord, LimitReached, RecordNotFound, StorageError } from "./StorageError.js"
import type { Tenant } from "./Tenant.js"

/** An endpoint as returned: without its secret. */
export interface WebhookEndpoint {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly url: string
  /** Event types, or `["*"]` for all. */
  readonly enabledEvents: ReadonlyArray<string>
  readonly status: "enabled" | "disabled"
  readonly description: string | null
  readonly created: number
}

/** A new endpoint with its plain signing secret (sealed before it is stored). */
export interface NewWebhookEndpoint extends WebhookEndpoint {
  readonly secret: string
}

/** A roll: the new plain secret, and until when (Unix milliseconds) the replaced one stays valid. */
export interface SecretRoll {
  readonly secret: string
  readonly previousExpiresAtMs: number
}

/** What an update may change. */
export interface WebhookEndpointPatch {
  readonly url?: string | undefined
  readonly enabledEvents?: ReadonlyArray<string> | undefined
  readonly status?: "enabled" | "disabled" | undefined
  readonly description?: string | null | undefined
}

/**
 * Endpoints an account may have in each mode, disabled ones included (Stripe's limit): every
 * enabled endpoint turns each event into one more POST, and a disabled one can be enabled at
 * any time. The store enforces it, creates of one account and mode taking turns.
 */
export const MAX_ENDPOINTS = 16

/** Webhook endpoints. */
export interface WebhookEndpointRepositoryService {
  /** Stores a new endpoint; `LimitReached` when its account and mode have `MAX_ENDPOINTS`. */
  readonly create: (
    endpoint: NewWebhookEndpoint
  ) => Effect.Effect<WebhookEndpoint, DuplicateRecord | LimitReached | StorageError>
  readonly get: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<WebhookEndpoint, RecordNotFound | StorageError>
  readonly list: (
    tenant: Tenant,
    request: Page.PageRequest
  ) => Effect.Effect<Page.Page<WebhookEndpoint>, RecordNotFound | StorageError>
  readonly update: (
    tenant: Tenant,
    id: string,
    patch: WebhookEndpointPatch
  ) => Effect.Effect<WebhookEndpoint, RecordNotFound | StorageError>
  /** Deletes the endpoint and its deliveries. */
  readonly remove: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<WebhookEndpoint, RecordNotFound | StorageError>
  /** The plain current signing secret. */
  readonly secret: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<string, RecordNotFound | StorageError>
  /**
   * Every secret valid at `nowMs` (Unix milliseconds), to sign a delivery with: the current
   * one first, then the one it replaced while that has not expired.
   */
  readonly secrets: (
    tenant: Tenant,
    id: string,
    nowMs: number
  ) => Effect.Effect<ReadonlyArray<string>, RecordNotFound | StorageError>
  /** Makes `roll.secret` current; the replaced secret stays valid until `roll.previousExpiresAtMs`. */
  readonly rollSecret: (
    tenant: Tenant,
    id: string,
    roll: SecretRoll
  ) => Effect.Effect<WebhookEndpoint, RecordNotFound | StorageError>
  /** Enabled endpoints that subscribe to `type` (or to `*`). */
  readonly subscribedTo: (
    tenant: Tenant,
    type: string
  ) => Effect.Effect<ReadonlyArray<WebhookEndpoint>, StorageError>
}

/** The additional data a secret is sealed with: its row. */
export const sealContext = (accountId: string, id: string) => `webhook_endpoint:${accountId}:${id}`

/** A sealed secret replaced by a roll, valid until `expiresAtMs`. */
export interface Previous {
  readonly sealed: string
  readonly expiresAtMs: number
}

/** The sealed secrets valid at `nowMs`, current first. */
export const validSealed = (current: string, previous: Previous | null, nowMs: number) =>
  previous !== null && nowMs < previous.expiresAtMs ? [current, previous.sealed] : [current]

export const subscribes = (e: WebhookEndpoint, type: string) =>
  e.status === "enabled" && (e.enabledEvents.includes("*") || e.enabledEvents.includes(type))

export const strip = ({ secret: _, ...endpoint }: NewWebhookEndpoint): WebhookEndpoint => endpoint

/** Why a process must not start with a key that cannot open the secrets stored here. */
export const WRONG_KEY =
  "The secret key cannot open the webhook signing secrets stored in this database: another process sealed them with a different key. " +
  "Set LEVY_SECRET_KEY (base64, 32 bytes) to the key those processes use, the same on every host (without it each host makes its own secret.key)."

/** An endpoint as stored: its current sealed secret and, after a roll, the previous one. */
export interface StoredWebhookEndpoint extends WebhookEndpoint {
  readonly secretCiphertext: string
  readonly previousSecretCiphertext: string | null
  readonly previousSecretExpiresAtMs: number | null
}

/** Webhook endpoints, as a service: `sql/` and `memory/WebhookEndpointRepository.ts`. */
export class WebhookEndpointRepository extends Context.Tag(
  "@levy/storage/WebhookEndpointRepository"
)<WebhookEndpointRepository, WebhookEndpointRepositoryService>() {}

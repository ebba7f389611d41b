/**
 * Webhook deliveries (one per endpoint and event) and their attempts. Workers claim due
 * deliveries with a lease: PostgreSQL's `FOR UPDATE SKIP LOCKED` plus a lease column, so
 * two workers never hold the same delivery, and a delivery whose worker died (lease
 * expired) is claimable again. Several server processes can share one database.
 */
import { Context, type Effect } from "effect"
import type * as Page from "./Page.js"
import type { LeaseLost, RecordNotFound, StorageError } from "./StorageError.js"
import type { Tenant } from "./Tenant.js"

/** A delivery. `created` in Unix seconds; the other times in Unix milliseconds. */
export interface WebhookDelivery {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly endpointId: string
  readonly eventId: string
  readonly status: "pending" | "succeeded" | "failed"
  readonly attempts: number
  /**
   * `attempts` when the delivery was last queued: 0, or what it had when it was resent. The
   * backoff and the cap on attempts count from there, as the give-up horizon counts from
   * `created` (which a resend also moves).
   */
  readonly attemptsAtQueue: number
  readonly nextAttemptAtMs: number
  readonly leaseOwner: string | null
  readonly leaseExpiresAtMs: number | null
  readonly created: number
}

/** One attempt to deliver. */
export interface WebhookAttempt {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly deliveryId: string
  /** 1 for the first attempt. */
  readonly attempt: number
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
  readonly created: number
}

/** What happened on an attempt and what to do next. */
export interface AttemptOutcome {
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
  /** `succeeded` (2xx), `failed` (given up) or a retry at the given Unix milliseconds. */
  readonly next: "succeeded" | "failed" | { readonly retryAtMs: number }
}

/** One attempt to record: which delivery, and what happened. */
export interface AttemptRecord {
  readonly tenant: Tenant
  readonly deliveryId: string
  readonly outcome: AttemptOutcome
}

/** A claim request. */
export interface Claim {
  readonly owner: string
  readonly limit: number
  readonly leaseMs: number
}

/** Rows per multi-row INSERT of the fan-out. */
export const INSERT_CHUNK = 1000

/** What one `fanOut` call did. */
export interface FanOut {
  /** Events taken and marked fanned out (0: none was waiting). */
  readonly events: number
  /** Deliveries created for them. */
  readonly deliveries: number
}

/** Whether an endpoint with these subscriptions receives events of `type`. */
export const subscribes = (enabledEvents: ReadonlyArray<string>, type: string) =>
  enabledEvents.includes("*") || enabledEvents.includes(type)

/** Webhook deliveries and attempts. */
export interface WebhookDeliveryRepositoryService {
  /**
   * Fans out up to `limit` events not yet fanned out (of every account, oldest first): one
   * pending delivery, due now, per enabled endpoint of the event's account and mode that
   * subscribes to its type; the events are marked in the same transaction, so each is
   * fanned out once. Concurrent callers (other processes) take different events.
   */
  readonly fanOut: (limit: number) => Effect.Effect<FanOut, StorageError>
  /** Creates a pending delivery of `eventId` to each endpoint (none twice), due now. */
  readonly enqueue: (
    tenant: Tenant,
    eventId: string,
    endpointIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<WebhookDelivery>, RecordNotFound | StorageError>
  /**
   * Queues `eventId` again to each endpoint (`POST /v1/events/{id}/resend`): a new pending
   * delivery, or the existing one made pending and due now, counted from now for the give-up
   * horizon and the cap on attempts (its attempts so far are kept and listed). One being
   * attempted right now is left to finish.
   */
  readonly redeliver: (
    tenant: Tenant,
    eventId: string,
    endpointIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<WebhookDelivery>, RecordNotFound | StorageError>
  /** Leases up to `limit` due deliveries of any account to `owner`; never one leased to another. */
  readonly claim: (claim: Claim) => Effect.Effect<ReadonlyArray<WebhookDelivery>, StorageError>
  /** Records an attempt by the lease holder and moves the delivery on; releases the lease. */
  readonly recordAttempt: (
    tenant: Tenant,
    deliveryId: string,
    owner: string,
    outcome: AttemptOutcome
  ) => Effect.Effect<
    { readonly delivery: WebhookDelivery; readonly attempt: WebhookAttempt },
    RecordNotFound | LeaseLost | StorageError
  >
  /**
   * `recordAttempt` for many deliveries in one statement (the dispatcher's hot path). Those
   * not leased to `owner` (lease lost, or deleted) are skipped; returns the ids recorded.
   */
  readonly recordAttempts: (
    owner: string,
    attempts: ReadonlyArray<AttemptRecord>
  ) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /**
   * Deletes up to `limit` attempts (of any account) made before `before` (Unix seconds), oldest
   * first; returns how many. The retention purge (docs/storage.md "Retention").
   */
  readonly purgeAttempts: (before: number, limit: number) => Effect.Effect<number, StorageError>
  /**
   * Deletes up to `limit` deliveries (of any account) no longer pending, created (or last
   * resent) before `before` (Unix seconds), with their attempts; returns how many. A pending
   * delivery is never deleted: it is still being retried.
   */
  readonly purgeFinished: (before: number, limit: number) => Effect.Effect<number, StorageError>
  readonly get: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<WebhookDelivery, RecordNotFound | StorageError>
  readonly list: (
    tenant: Tenant,
    request: Page.PageRequest & { readonly endpoint?: string | undefined }
  ) => Effect.Effect<Page.Page<WebhookDelivery>, RecordNotFound | StorageError>
  readonly listAttempts: (
    tenant: Tenant,
    deliveryId: string,
    request: Page.PageRequest
  ) => Effect.Effect<Page.Page<WebhookAttempt>, RecordNotFound | StorageError>
}

export const statusOf = (next: AttemptOutcome["next"]): WebhookDelivery["status"] =>
  next === "succeeded" ? "succeeded" : next === "failed" ? "failed" : "pending"

/** Webhook deliveries, as a service: `sql/` and `memory/WebhookDeliveryRepository.ts`. */
export class WebhookDeliveryRepository extends Context.Tag(
  "@levy/storage/WebhookDeliveryRepository"
)<WebhookDeliveryRepository, WebhookDeliveryRepositoryService>() {}

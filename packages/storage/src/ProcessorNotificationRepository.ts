/**
 * What applying a processor's notifications needs from storage (docs/design.md §8): the record
 * of each notification applied (so a redelivery changes nothing twice), the charge, refund or
 * dispute a processor reference names, and disputes that carry the processor's reference and
 * the processor's time of their last status. Every method is meant to run inside the
 * transaction of the change the notification causes (`Transactions.run`); the lookups lock
 * what they find (PostgreSQL: `FOR UPDATE`) so that two deliveries about one payment apply
 * one after the other.
 */
import { Context, type Effect, type Option } from "effect"
import type { Dispute, StoredCharge, StoredRefund } from "./ChargeRepository.js"
import type { DuplicateRecord, RecordNotFound, StorageError } from "./StorageError.js"
import type { Tenant } from "./Tenant.js"

/** One notification as received: which processor said it, its stable id, when (Unix ms). */
export interface ReceivedNotification {
  readonly accountId: string
  readonly livemode: boolean
  readonly processor: string
  readonly notificationId: string
  readonly receivedMs: number
}

/** A dispute a processor reported, with its reference and the time of its last status. */
export interface ProcessorDispute extends Dispute {
  readonly processorReference: string
  /** The processor's time (Unix seconds) of the status the dispute has. */
  readonly processorUpdatedAt: number
}

export interface ProcessorNotificationRepositoryService {
  /**
   * Records a notification as applied: true the first time, false when it was already
   * recorded (a redelivery: the caller changes nothing).
   */
  readonly record: (notification: ReceivedNotification) => Effect.Effect<boolean, StorageError>
  /**
   * Deletes up to `limit` notification records (of any account) received before `beforeMs`
   * (Unix milliseconds), oldest first; returns how many. The retention purge (docs/storage.md
   * "Retention"), which keeps them at least as long as a processor may redeliver.
   */
  readonly purge: (beforeMs: number, limit: number) => Effect.Effect<number, StorageError>
  /** The charge whose payment has this processor reference, locked. */
  readonly chargeByReference: (
    tenant: Tenant,
    reference: string
  ) => Effect.Effect<Option.Option<StoredCharge>, StorageError>
  /** The charge whose processor idempotency key is `key`, locked. */
  readonly chargeByProcessorKey: (
    tenant: Tenant,
    key: string
  ) => Effect.Effect<Option.Option<StoredCharge>, StorageError>
  /** The refund the processor knows by this reference. */
  readonly refundByReference: (
    tenant: Tenant,
    reference: string
  ) => Effect.Effect<Option.Option<StoredRefund>, StorageError>
  /** The refund whose processor idempotency key is `key`. */
  readonly refundByProcessorKey: (
    tenant: Tenant,
    key: string
  ) => Effect.Effect<Option.Option<StoredRefund>, StorageError>
  /** The dispute the processor knows by this reference, locked. */
  readonly disputeByReference: (
    tenant: Tenant,
    reference: string
  ) => Effect.Effect<Option.Option<ProcessorDispute>, StorageError>
  /**
   * Records a dispute the processor opened and marks its charge disputed, atomically.
   * `DuplicateRecord` when the account and mode already have a dispute with its reference.
   */
  readonly openDispute: (
    dispute: ProcessorDispute
  ) => Effect.Effect<ProcessorDispute, DuplicateRecord | RecordNotFound | StorageError>
  /** Sets a dispute's status as of the processor's time `processorUpdatedAt`. */
  readonly updateDispute: (
    tenant: Tenant,
    id: string,
    change: {
      readonly status: Dispute["status"]
      readonly processorUpdatedAt: number
      readonly updated: number
    }
  ) => Effect.Effect<ProcessorDispute, RecordNotFound | StorageError>
}

/** The processor-notification side of storage, as a service: `sql/` and `memory/ProcessorNotificationRepository.ts`. */
export class ProcessorNotificationRepository extends Context.Tag(
  "@levy/storage/ProcessorNotificationRepository"
)<ProcessorNotificationRepository, ProcessorNotificationRepositoryService>() {}

/**
 * What applying a processor's notifications needs from storage (docs/design.md §8): the record
 * of each notification applied (so a redelivery changes nothing twice), the charge, refund or
 * dispute a processor reference names, and disputes that carry the processor's reference and
 * the processor's time of their last status. Every method is meant to run inside the
 * transaction of the change the notification causes (`Transactions.run`); the lookups lock
 * what they find (PostgreSQL: `FOR UPDATE`) so that two deliveries about one payment apply
 * one after the other.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option } from "effect"
import {
  type ChargeRow,
  chargeFromRow,
  type Dispute,
  type DisputeRow,
  disputeFromRow,
  type RefundRow,
  refundFromRow,
  type StoredCharge,
  type StoredRefund
} from "./ChargeRepository.js"
import * as MemoryStore from "./memory/MemoryStore.js"
import { DuplicateRecord, RecordNotFound, type StorageError } from "./StorageError.js"
import * as SqlSupport from "./sql/SqlSupport.js"
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

interface ProcessorDisputeRow extends DisputeRow {
  processor_reference: string
  processor_updated_at: number
}

const processorDisputeFromRow = (r: ProcessorDisputeRow): ProcessorDispute => ({
  ...disputeFromRow(r),
  processorReference: r.processor_reference,
  processorUpdatedAt: r.processor_updated_at
})

const firstOption = <R, A>(decode: (r: R) => A) =>
  Effect.map((rows: ReadonlyArray<R>) => Option.map(Option.fromNullable(rows[0]), decode))

/** The SQL implementation. */
export const makeSql = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const service: ProcessorNotificationRepositoryService = {
    record: (n) =>
      sql<{ notification_id: string }>`INSERT INTO processor_notifications
          (account_id, livemode, processor, notification_id, received)
        VALUES (${n.accountId}, ${n.livemode}, ${n.processor}, ${n.notificationId}, ${n.receivedMs})
        ON CONFLICT DO NOTHING
        RETURNING notification_id`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => rows.length === 1)
      ),
    chargeByReference: (tenant, reference) =>
      sql<ChargeRow>`SELECT * FROM charges
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
          AND processor_reference = ${reference}
        ORDER BY created, id LIMIT 1 FOR UPDATE`.pipe(
        SqlSupport.orStorageError,
        firstOption(chargeFromRow)
      ),
    chargeByProcessorKey: (tenant, key) =>
      sql<ChargeRow>`SELECT * FROM charges
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
          AND processor_key = ${key}
        FOR UPDATE`.pipe(SqlSupport.orStorageError, firstOption(chargeFromRow)),
    refundByReference: (tenant, reference) =>
      sql<RefundRow>`SELECT * FROM refunds
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
          AND processor_reference = ${reference}
        ORDER BY created, id LIMIT 1`.pipe(SqlSupport.orStorageError, firstOption(refundFromRow)),
    refundByProcessorKey: (tenant, key) =>
      sql<RefundRow>`SELECT * FROM refunds
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
          AND processor_key = ${key}`.pipe(SqlSupport.orStorageError, firstOption(refundFromRow)),
    disputeByReference: (tenant, reference) =>
      sql<ProcessorDisputeRow>`SELECT * FROM disputes
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
          AND processor_reference = ${reference}
        FOR UPDATE`.pipe(SqlSupport.orStorageError, firstOption(processorDisputeFromRow)),
    openDispute: (d) =>
      Effect.gen(function* () {
        const marked = yield* sql`UPDATE charges SET disputed = true
          WHERE account_id = ${d.accountId} AND livemode = ${d.livemode} AND id = ${d.chargeId}
          RETURNING id`
        if (marked.length === 0) {
          return yield* Effect.fail(new RecordNotFound({ entity: "charge", id: d.chargeId }))
        }
        const rows = yield* sql<ProcessorDisputeRow>`INSERT INTO disputes (account_id, id, livemode,
            charge_id, amount, status, reason, created, updated, processor_reference, processor_updated_at)
          VALUES (${d.accountId}, ${d.id}, ${d.livemode}, ${d.chargeId}, ${d.amount}, ${d.status},
            ${d.reason}, ${d.created}, ${d.updated}, ${d.processorReference}, ${d.processorUpdatedAt})
          RETURNING *`.pipe(
          Effect.mapError((error) =>
            SqlSupport.isUniqueViolation(error)
              ? new DuplicateRecord({ entity: "dispute", id: d.processorReference })
              : SqlSupport.storageError(error)
          )
        )
        return processorDisputeFromRow(rows[0]!)
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    updateDispute: (tenant, id, change) =>
      sql<ProcessorDisputeRow>`UPDATE disputes SET status = ${change.status},
          processor_updated_at = ${change.processorUpdatedAt}, updated = ${change.updated}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING *`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows[0] === undefined
            ? Effect.fail(new RecordNotFound({ entity: "dispute", id }))
            : Effect.succeed(processorDisputeFromRow(rows[0]))
        )
      )
  }
  return service
})

/** The tables of the in-memory store this repository shares with ChargeRepository. */
const NOTIFICATIONS = "processor_notifications"
const CHARGES = "charges"
const REFUNDS = "refunds"
const DISPUTES = "disputes"

/** The in-memory implementation: scans, as the memory store is for tests and demos. */
export const makeMemory = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const notifications = store.table<ReceivedNotification>(NOTIFICATIONS)
  const charges = store.table<StoredCharge>(CHARGES)
  const refunds = store.table<StoredRefund>(REFUNDS)
  const disputes = store.table<Partial<ProcessorDispute> & Dispute>(DISPUTES)
  const key = (accountId: string, id: string) => `${accountId}/${id}`
  const mine =
    (tenant: Tenant) => (r: { readonly accountId: string; readonly livemode: boolean }) =>
      r.accountId === tenant.accountId && r.livemode === tenant.livemode
  const findIn = <A extends { readonly accountId: string; readonly livemode: boolean }>(
    table: MemoryStore.Table<A>,
    tenant: Tenant,
    matches: (a: A) => boolean
  ) =>
    store.read(() =>
      Option.fromNullable([...table.values()].find((a) => mine(tenant)(a) && matches(a)))
    )
  const asProcessorDispute = (
    d: Partial<ProcessorDispute> & Dispute
  ): Option.Option<ProcessorDispute> =>
    d.processorReference === undefined || d.processorReference === null
      ? Option.none()
      : Option.some({
          ...d,
          processorReference: d.processorReference,
          processorUpdatedAt: d.processorUpdatedAt ?? 0
        })
  const service: ProcessorNotificationRepositoryService = {
    record: (n) =>
      store.write((w) => {
        const k = `${n.accountId}/${n.livemode}/${n.processor}/${n.notificationId}`
        if (notifications.has(k)) return Effect.succeed(false)
        w.put(NOTIFICATIONS, k, n)
        return Effect.succeed(true)
      }),
    chargeByReference: (tenant, reference) =>
      findIn(charges, tenant, (c) => c.processorReference === reference),
    chargeByProcessorKey: (tenant, k) => findIn(charges, tenant, (c) => c.processorKey === k),
    refundByReference: (tenant, reference) =>
      findIn(refunds, tenant, (r) => r.processorReference === reference),
    refundByProcessorKey: (tenant, k) => findIn(refunds, tenant, (r) => r.processorKey === k),
    disputeByReference: (tenant, reference) =>
      Effect.map(
        findIn(disputes, tenant, (d) => d.processorReference === reference),
        Option.flatMap(asProcessorDispute)
      ),
    openDispute: (d) =>
      store.write((w): Effect.Effect<ProcessorDispute, DuplicateRecord | RecordNotFound> => {
        const charge = charges.get(key(d.accountId, d.chargeId))
        if (charge === undefined || charge.livemode !== d.livemode) {
          return Effect.fail(new RecordNotFound({ entity: "charge", id: d.chargeId }))
        }
        const taken = [...disputes.values()].some(
          (other) => mine(d)(other) && other.processorReference === d.processorReference
        )
        if (taken || disputes.has(key(d.accountId, d.id))) {
          return Effect.fail(new DuplicateRecord({ entity: "dispute", id: d.processorReference }))
        }
        w.put(CHARGES, key(d.accountId, d.chargeId), { ...charge, disputed: true })
        w.put(DISPUTES, key(d.accountId, d.id), d)
        return Effect.succeed(d)
      }),
    updateDispute: (tenant, id, change) =>
      store.write((w) => {
        const found = disputes.get(key(tenant.accountId, id))
        const current =
          found !== undefined && mine(tenant)(found) ? asProcessorDispute(found) : Option.none()
        if (Option.isNone(current))
          return Effect.fail(new RecordNotFound({ entity: "dispute", id }))
        const updated: ProcessorDispute = { ...current.value, ...change }
        w.put(DISPUTES, key(tenant.accountId, id), updated)
        return Effect.succeed(updated)
      })
  }
  return service
})

/** The processor-notification side of storage, as a service. */
export class ProcessorNotificationRepository extends Context.Tag(
  "@levy/storage/ProcessorNotificationRepository"
)<ProcessorNotificationRepository, ProcessorNotificationRepositoryService>() {
  static readonly layerSql = Layer.effect(ProcessorNotificationRepository, makeSql)
  static readonly layerMemory = Layer.effect(ProcessorNotificationRepository, makeMemory)
}

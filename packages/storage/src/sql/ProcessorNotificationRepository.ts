/** What applying a processor's notifications needs, on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import {
  type ProcessorDispute,
  ProcessorNotificationRepository,
  type ProcessorNotificationRepositoryService
} from "../ProcessorNotificationRepository.js"
import { DuplicateRecord, RecordNotFound, StorageError } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as SqlSupport from "./SqlSupport.js"
import { charges, disputes, processorNotifications, refunds, type StoredDispute } from "./Tables.js"

/** A dispute row as a processor's dispute: one without a processor's reference is not one. */
const asProcessorDispute = (d: StoredDispute): Effect.Effect<ProcessorDispute, StorageError> =>
  d.processorReference === null
    ? Effect.fail(new StorageError({ message: `dispute ${d.id} has no processor reference` }))
    : Effect.succeed({
        ...d,
        processorReference: d.processorReference,
        processorUpdatedAt: d.processorUpdatedAt ?? 0
      })

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const mine = (tenant: Tenant) =>
    sql`account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}`
  const service: ProcessorNotificationRepositoryService = {
    record: (n) =>
      sql<{ notification_id: string }>`INSERT INTO processor_notifications
          ${processorNotifications.insert(sql, n)}
        ON CONFLICT DO NOTHING
        RETURNING notification_id`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => rows.length === 1)
      ),
    purge: (beforeMs, limit) =>
      sql`DELETE FROM processor_notifications
        WHERE (account_id, livemode, processor, notification_id) IN (
          SELECT account_id, livemode, processor, notification_id FROM processor_notifications
          WHERE received < ${beforeMs} ORDER BY received LIMIT ${limit})
        RETURNING 1`.pipe(SqlSupport.rowCount),
    chargeByReference: (tenant, reference) =>
      sql`SELECT ${charges.select(sql)} FROM charges
        WHERE ${mine(tenant)} AND processor_reference = ${reference}
        ORDER BY created, id LIMIT 1 FOR UPDATE`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.maybeOne(charges))
      ),
    chargeByProcessorKey: (tenant, key) =>
      sql`SELECT ${charges.select(sql)} FROM charges
        WHERE ${mine(tenant)} AND processor_key = ${key}
        FOR UPDATE`.pipe(SqlSupport.orStorageError, Effect.flatMap(SqlSupport.maybeOne(charges))),
    refundByReference: (tenant, reference) =>
      sql`SELECT ${refunds.select(sql)} FROM refunds
        WHERE ${mine(tenant)} AND processor_reference = ${reference}
        ORDER BY created, id LIMIT 1`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.maybeOne(refunds))
      ),
    refundByProcessorKey: (tenant, key) =>
      sql`SELECT ${refunds.select(sql)} FROM refunds
        WHERE ${mine(tenant)} AND processor_key = ${key}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.maybeOne(refunds))
      ),
    disputeByReference: (tenant, reference) =>
      sql`SELECT ${disputes.select(sql)} FROM disputes
        WHERE ${mine(tenant)} AND processor_reference = ${reference}
        FOR UPDATE`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.maybeOne(disputes)),
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.succeedNone,
            onSome: (d) => Effect.asSome(asProcessorDispute(d))
          })
        )
      ),
    openDispute: (d) =>
      Effect.gen(function* () {
        const marked = yield* sql`UPDATE charges SET disputed = true
          WHERE ${mine(d)} AND id = ${d.chargeId}
          RETURNING id`
        if (marked.length === 0) {
          return yield* Effect.fail(new RecordNotFound({ entity: "charge", id: d.chargeId }))
        }
        yield* sql`INSERT INTO disputes ${disputes.insert(sql, d)}`.pipe(
          Effect.mapError((error) =>
            SqlSupport.isUniqueViolation(error)
              ? new DuplicateRecord({ entity: "dispute", id: d.processorReference })
              : SqlSupport.storageError(error)
          )
        )
        return d
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    updateDispute: (tenant, id, change) =>
      sql`UPDATE disputes SET status = ${change.status},
          processor_updated_at = ${change.processorUpdatedAt}, updated = ${change.updated}
        WHERE ${mine(tenant)} AND id = ${id} AND processor_reference IS NOT NULL
        RETURNING ${disputes.select(sql)}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.one(disputes, "dispute", id)),
        Effect.flatMap(asProcessorDispute)
      )
  }
  return service
})

export const layer = Layer.effect(ProcessorNotificationRepository, make)

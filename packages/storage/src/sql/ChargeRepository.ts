/** Charges, refunds and disputes on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import {
  ChargeRepository,
  type ChargeRepositoryService,
  type Dispute,
  moved,
  newRecord,
  newRefundRecord,
  released,
  writeEffects
} from "../ChargeRepository.js"
import { EventRepository } from "../EventRepository.js"
import { bodyColumn, IdempotencyRepository, statusColumn } from "../IdempotencyRepository.js"
import { DuplicateRecord, RecordNotFound, RefundTooLarge, StaleCharge } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as SqlSupport from "./SqlSupport.js"
import { charges, disputes, events, refunds, type StoredDispute } from "./Tables.js"

/** A dispute as `ChargeRepository` returns it: without the processor's fields. */
export const toDispute = ({
  processorReference: _,
  processorUpdatedAt: __,
  ...dispute
}: StoredDispute): Dispute => dispute

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const eventRepository = yield* EventRepository
  const idempotency = yield* IdempotencyRepository
  const chargeColumns = charges.select(sql)
  const refundColumns = refunds.select(sql)
  const disputeColumns = disputes.select(sql)
  const chargeNotFound = (id: string) => SqlSupport.one(charges, "charge", id)
  const refundNotFound = (id: string) => SqlSupport.one(refunds, "refund", id)
  const disputeNotFound = (id: string) => SqlSupport.one(disputes, "dispute", id)
  // The charge write's statement is written once, from the tables' columns, and sent with its
  // values: composing it on every write from a typed fragment a column cost the busiest write
  // path tens of microseconds of node CPU (profiled, bench/storage.bench.ts).
  const chargeAndEvent = (first: number) => `charge AS (
      INSERT INTO charges (${charges.list})
      SELECT ${charges.placeholders(first)} FROM idem
      RETURNING 1
    )
    INSERT INTO events (${events.list})
    SELECT ${events.placeholders(first + charges.columns.length)} FROM charge
    RETURNING 1 AS one`
  const createUnclaimed = `WITH idem AS (SELECT 1), ${chargeAndEvent(1)}`
  const createClaimed = `WITH idem AS (
      UPDATE idempotency_records
      SET state = 'done', response_status = $1::integer, response_body = $2::jsonb
      WHERE account_id = $3 AND livemode = $4 AND key = $5
      RETURNING 1
    ), ${chargeAndEvent(6)}`
  const mine = (tenant: Tenant) =>
    sql`account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}`
  const service: ChargeRepositoryService = {
    beginCharge: (c) =>
      sql`INSERT INTO charges ${charges.insert(sql, newRecord(c))} RETURNING ${chargeColumns}`.pipe(
        Effect.mapError((error) => {
          if (!SqlSupport.isUniqueViolation(error)) return SqlSupport.storageError(error)
          const constraint = SqlSupport.pgError(error).constraint
          return constraint === "charges_idempotency_key"
            ? new DuplicateRecord({ entity: "charge_idempotency_key", id: c.idempotencyKey ?? "" })
            : constraint === "charges_processor_key"
              ? new DuplicateRecord({ entity: "charge_processor_key", id: c.processorKey ?? "" })
              : constraint === "charges_estimate"
                ? new DuplicateRecord({ entity: "charge_estimate", id: c.estimate ?? "" })
                : new DuplicateRecord({ entity: "charge", id: c.id })
        }),
        Effect.flatMap(SqlSupport.returned(charges))
      ),
    findByIdempotencyKey: (tenant, key) =>
      sql`SELECT ${chargeColumns} FROM charges WHERE ${mine(tenant)} AND idempotency_key = ${key}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.maybeOne(charges))
      ),
    leaseCharge: (tenant, id, untilMs) =>
      sql`UPDATE charges
        SET recover_after = CASE WHEN status = 'pending' THEN ${untilMs}::bigint ELSE recover_after END
        WHERE ${mine(tenant)} AND id = ${id}
        RETURNING ${chargeColumns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(chargeNotFound(id))
      ),
    settleCharge: (tenant, id, o, effects) =>
      Effect.gen(function* () {
        const rows = yield* sql`UPDATE charges SET status = ${o.status},
            failure_code = ${o.failureCode === undefined ? sql`failure_code` : o.failureCode},
            failure_message = ${o.failureMessage === undefined ? sql`failure_message` : o.failureMessage},
            details = ${o.details === undefined ? sql`details` : sql`${SqlSupport.json(o.details)}::jsonb`},
            processor_reference = ${o.processorReference}, recover_after = NULL
          WHERE ${mine(tenant)} AND id = ${id} AND status = 'pending'
          RETURNING ${chargeColumns}`
        if (rows[0] === undefined) {
          const current =
            yield* sql`SELECT ${chargeColumns} FROM charges WHERE ${mine(tenant)} AND id = ${id}`
          return { won: false, record: yield* chargeNotFound(id)(current) }
        }
        const settled = yield* charges.decode(rows[0])
        const fx = effects(settled)
        yield* writeEffects(eventRepository, idempotency, service.openDispute, tenant, fx)
        return {
          won: true,
          record: fx.dispute === undefined ? settled : { ...settled, disputed: true }
        }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    claimPendingCharges: ({ now, leaseMs, limit }) =>
      sql`UPDATE charges c SET recover_after = ${now + leaseMs}
        FROM (SELECT account_id, id FROM charges
              WHERE status = 'pending' AND recover_after <= ${now}
              ORDER BY recover_after LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
        WHERE c.account_id = due.account_id AND c.id = due.id
        RETURNING ${charges.select(sql, "c")}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(charges.decodeAll)
      ),
    findRefundByIdempotencyKey: (tenant, key) =>
      sql`SELECT ${refundColumns} FROM refunds WHERE ${mine(tenant)} AND idempotency_key = ${key}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.maybeOne(refunds))
      ),
    leaseRefund: (tenant, id, untilMs) =>
      sql`UPDATE refunds
        SET recover_after = CASE WHEN status = 'pending' THEN ${untilMs}::bigint ELSE recover_after END
        WHERE ${mine(tenant)} AND id = ${id}
        RETURNING ${refundColumns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(refundNotFound(id))
      ),
    settleRefund: (tenant, id, o, effects) =>
      Effect.gen(function* () {
        // The charge first, as `refund` locks it: refunds of one charge settle one at a time.
        const locked = yield* sql`SELECT ${charges.select(sql, "c")} FROM charges c JOIN refunds r
            ON r.account_id = c.account_id AND r.charge_id = c.id
          WHERE r.account_id = ${tenant.accountId} AND r.livemode = ${tenant.livemode} AND r.id = ${id}
          FOR UPDATE OF c`
        const charge = yield* SqlSupport.one(charges, "refund", id)(locked)
        const refund = yield* sql`SELECT ${refundColumns} FROM refunds
          WHERE account_id = ${tenant.accountId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(SqlSupport.returned(refunds))
        )
        if (refund.status !== "pending") return { won: false, record: { refund, charge } }
        const kept = o.status === "succeeded" && o.amount > 0
        const settled = yield* sql`UPDATE refunds SET status = ${o.status},
            amount = ${kept ? o.amount : refund.amount}, fee_amount = ${kept ? o.feeAmount : refund.feeAmount},
            processor_reference = ${o.processorReference}, failure_code = ${o.failureCode ?? null},
            failure_message = ${o.failureMessage ?? null}, recover_after = NULL
          WHERE account_id = ${tenant.accountId} AND id = ${id}
          RETURNING ${refundColumns}`.pipe(Effect.flatMap(SqlSupport.returned(refunds)))
        const back = released(refund, o)
        const updated = yield* sql`UPDATE charges
          SET amount_refunded = amount_refunded - ${back.amount}, fee_refunded = fee_refunded - ${back.fee},
              refunded = (amount_refunded - ${back.amount} = total_amount)
          WHERE account_id = ${charge.accountId} AND id = ${charge.id}
          RETURNING ${chargeColumns}`.pipe(Effect.flatMap(SqlSupport.returned(charges)))
        const record = { refund: settled, charge: updated }
        yield* writeEffects(
          eventRepository,
          idempotency,
          service.openDispute,
          tenant,
          effects(record.refund, record.charge)
        )
        return { won: true, record }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    failRefund: (tenant, id, failure, effects) =>
      Effect.gen(function* () {
        // The charge first, as `refund` and `settleRefund` lock it.
        const locked = yield* sql`SELECT ${charges.select(sql, "c")} FROM charges c JOIN refunds r
            ON r.account_id = c.account_id AND r.charge_id = c.id
          WHERE r.account_id = ${tenant.accountId} AND r.livemode = ${tenant.livemode} AND r.id = ${id}
          FOR UPDATE OF c`
        const charge = yield* SqlSupport.one(charges, "refund", id)(locked)
        const refund = yield* sql`SELECT ${refundColumns} FROM refunds
          WHERE account_id = ${tenant.accountId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(SqlSupport.returned(refunds))
        )
        if (refund.status !== "succeeded") return { won: false, record: { refund, charge } }
        const failed = yield* sql`UPDATE refunds SET status = 'failed',
            failure_code = ${failure.failureCode}, failure_message = ${failure.failureMessage}
          WHERE account_id = ${tenant.accountId} AND id = ${id}
          RETURNING ${refundColumns}`.pipe(Effect.flatMap(SqlSupport.returned(refunds)))
        const updated = yield* sql`UPDATE charges
          SET amount_refunded = amount_refunded - ${refund.amount},
              fee_refunded = fee_refunded - ${refund.feeAmount},
              refunded = (amount_refunded - ${refund.amount} = total_amount)
          WHERE account_id = ${charge.accountId} AND id = ${charge.id}
          RETURNING ${chargeColumns}`.pipe(Effect.flatMap(SqlSupport.returned(charges)))
        const record = { refund: failed, charge: updated }
        yield* writeEffects(
          eventRepository,
          idempotency,
          service.openDispute,
          tenant,
          effects(record.refund, record.charge)
        )
        return { won: true, record }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    claimPendingRefunds: ({ now, leaseMs, limit }) =>
      sql`UPDATE refunds r SET recover_after = ${now + leaseMs}
        FROM (SELECT account_id, id FROM refunds
              WHERE status = 'pending' AND recover_after <= ${now}
              ORDER BY recover_after LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
        WHERE r.account_id = due.account_id AND r.id = due.id
        RETURNING ${refunds.select(sql, "r")}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(refunds.decodeAll)
      ),
    insert: (c) => {
      const charge = newRecord(c)
      return sql`INSERT INTO charges ${charges.insert(sql, charge)}`.pipe(
        SqlSupport.orDuplicate("charge", c.id),
        Effect.as(charge)
      )
    },
    // One statement: the idempotency response, the charge and its event, each written only
    // when the one before it was (so an unclaimed key writes nothing).
    create: ({ charge: c, event: e, idempotency: idem }) => {
      const record = newRecord(c)
      const values = [...charges.values(record), ...events.values(e)]
      return (
        idem === undefined
          ? sql.unsafe<{ one: number }>(createUnclaimed, values)
          : sql.unsafe<{ one: number }>(createClaimed, [
              statusColumn(idem.response),
              SqlSupport.json(bodyColumn(idem.response)),
              c.accountId,
              c.livemode,
              idem.key,
              ...values
            ])
      ).pipe(
        Effect.mapError((error) => {
          if (!SqlSupport.isUniqueViolation(error)) return SqlSupport.storageError(error)
          return SqlSupport.pgError(error).constraint === "events_pkey"
            ? new DuplicateRecord({ entity: "event", id: e.id })
            : new DuplicateRecord({ entity: "charge", id: c.id })
        }),
        Effect.flatMap((rows) =>
          rows.length === 1
            ? Effect.succeed(record)
            : Effect.fail(new RecordNotFound({ entity: "idempotency_record", id: idem?.key ?? "" }))
        )
      )
    },
    get: (tenant, id) =>
      sql`SELECT ${chargeColumns} FROM charges WHERE ${mine(tenant)} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(chargeNotFound(id))
      ),
    getMany: (tenant, ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql`SELECT ${chargeColumns} FROM charges
            WHERE ${mine(tenant)} AND id IN ${sql.in([...new Set(ids)])}`.pipe(
            SqlSupport.orStorageError,
            Effect.flatMap(charges.decodeAll)
          ),
    list: (tenant, request) =>
      SqlSupport.list(sql, {
        table: charges,
        entity: "charge",
        tenant,
        request,
        filters: request.customer !== undefined ? [sql`customer = ${request.customer}`] : []
      }),
    editNotes: (tenant, id, expected, next) =>
      Effect.gen(function* () {
        const rows = yield* sql`UPDATE charges
          SET description = ${next.description}, metadata = ${SqlSupport.json(next.metadata)}::jsonb
          WHERE ${mine(tenant)} AND id = ${id}
            AND description IS NOT DISTINCT FROM ${expected.description}::text
            AND metadata = ${SqlSupport.json(expected.metadata)}::jsonb
          RETURNING ${chargeColumns}`
        if (rows[0] !== undefined) return yield* charges.decode(rows[0])
        const current =
          yield* sql`SELECT ${chargeColumns} FROM charges WHERE ${mine(tenant)} AND id = ${id}`
        yield* chargeNotFound(id)(current)
        return yield* new StaleCharge({ chargeId: id })
      }).pipe(SqlSupport.orStorageError),
    settle: (tenant, id, o) =>
      sql`UPDATE charges SET status = ${o.status},
          failure_code = ${o.failureCode === undefined ? sql`failure_code` : o.failureCode},
          failure_message = ${o.failureMessage === undefined ? sql`failure_message` : o.failureMessage},
          details = ${o.details === undefined ? sql`details` : sql`${SqlSupport.json(o.details)}::jsonb`}
        WHERE ${mine(tenant)} AND id = ${id}
        RETURNING ${chargeColumns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(chargeNotFound(id))
      ),
    refund: (r, expected) =>
      Effect.gen(function* () {
        const charge = yield* sql`SELECT ${chargeColumns} FROM charges
          WHERE ${mine(r)} AND id = ${r.chargeId} FOR UPDATE`.pipe(
          Effect.flatMap(chargeNotFound(r.chargeId))
        )
        if (moved(charge, expected)) return yield* new StaleCharge({ chargeId: r.chargeId })
        const refundable = charge.totalAmount - charge.amountRefunded
        if (r.amount > refundable || r.feeAmount > charge.convenienceFee - charge.feeRefunded) {
          return yield* Effect.fail(
            new RefundTooLarge({ chargeId: r.chargeId, requested: r.amount, refundable })
          )
        }
        const stored = newRefundRecord(r)
        const inserted = yield* sql`INSERT INTO refunds ${refunds.insert(sql, stored)}
          RETURNING ${refundColumns}`.pipe(
          SqlSupport.orDuplicate("refund", r.id),
          Effect.flatMap(SqlSupport.returned(refunds))
        )
        const updated = yield* sql`UPDATE charges
          SET amount_refunded = amount_refunded + ${r.amount}, fee_refunded = fee_refunded + ${r.feeAmount},
              refunded = (amount_refunded + ${r.amount} = total_amount)
          WHERE account_id = ${r.accountId} AND id = ${r.chargeId}
          RETURNING ${chargeColumns}`.pipe(Effect.flatMap(SqlSupport.returned(charges)))
        return { refund: inserted, charge: updated }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    getRefund: (tenant, id) =>
      sql`SELECT ${refundColumns} FROM refunds WHERE ${mine(tenant)} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(refundNotFound(id))
      ),
    listRefunds: (tenant, request) =>
      SqlSupport.list(sql, {
        table: refunds,
        entity: "refund",
        tenant,
        request,
        filters: request.charge !== undefined ? [sql`charge_id = ${request.charge}`] : []
      }),
    openDispute: (d) =>
      Effect.gen(function* () {
        const marked = yield* sql`UPDATE charges SET disputed = true
          WHERE ${mine(d)} AND id = ${d.chargeId} RETURNING id`
        if (marked.length === 0)
          return yield* Effect.fail(new RecordNotFound({ entity: "charge", id: d.chargeId }))
        const stored: StoredDispute = { ...d, processorReference: null, processorUpdatedAt: null }
        yield* sql`INSERT INTO disputes ${disputes.insert(sql, stored)}`.pipe(
          SqlSupport.orDuplicate("dispute", d.id)
        )
        return d
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    updateDispute: (tenant, id, status, at) =>
      sql`UPDATE disputes SET status = ${status}, updated = ${at}
        WHERE ${mine(tenant)} AND id = ${id}
        RETURNING ${disputeColumns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(disputeNotFound(id)),
        Effect.map(toDispute)
      ),
    getDispute: (tenant, id) =>
      sql`SELECT ${disputeColumns} FROM disputes WHERE ${mine(tenant)} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(disputeNotFound(id)),
        Effect.map(toDispute)
      ),
    listDisputes: (tenant, request) =>
      SqlSupport.list(sql, {
        table: disputes,
        entity: "dispute",
        tenant,
        request,
        filters: [
          ...(request.charge !== undefined ? [sql`charge_id = ${request.charge}`] : []),
          ...(request.status !== undefined ? [sql`status = ${request.status}`] : [])
        ]
      }).pipe(Effect.map((page) => ({ data: page.data.map(toDispute), hasMore: page.hasMore })))
  }
  return service
})

export const layer = Layer.effect(ChargeRepository, make)

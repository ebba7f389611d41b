/**
 * Charges with their refunds and disputes. A charge keeps what the engine decided (fee
 * breakdown, compliance verdict) as plain JSON next to the money columns.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import { type Event, EventRepository } from "./EventRepository.js"
import { IdempotencyRepository, type StoredResponse } from "./IdempotencyRepository.js"
import type { Json, JsonObject } from "./Json.js"
import * as MemoryStore from "./MemoryStore.js"
import type * as Page from "./Page.js"
import * as SqlSupport from "./SqlSupport.js"
import {
  DuplicateRecord,
  RecordNotFound,
  RefundTooLarge,
  StaleCharge,
  type StorageError
} from "./StorageError.js"
import type { Tenant } from "./Tenant.js"

/** A charge as stored. Amounts in minor units; `created` in Unix seconds. */
export interface Charge {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly created: number
  readonly amount: number
  readonly convenienceFee: number
  readonly totalAmount: number
  readonly currency: string
  readonly status: "pending" | "succeeded" | "failed"
  readonly customer: string | null
  readonly description: string | null
  readonly metadata: Readonly<Record<string, string>>
  readonly region: string | null
  readonly cardType: string | null
  /** The applied fee: `{percentage, flatFee, adjustment}` in minor units. */
  readonly feeBreakdown: JsonObject
  /** `{compliant, reasonCode, reason, rulesetVersion}`, or null when no rules applied. */
  readonly compliance: JsonObject | null
  readonly failureCode: string | null
  readonly failureMessage: string | null
  /** Total refunded so far (base and fee), minor units. */
  readonly amountRefunded: number
  /** The fee part of `amountRefunded`. */
  readonly feeRefunded: number
  readonly refunded: boolean
  readonly disputed: boolean
  /** Everything else the server keeps (source, billingMode, transactions, ...). */
  readonly details: JsonObject
}

/** A new charge: the refund and dispute fields start at zero. */
export type NewCharge = Omit<Charge, "amountRefunded" | "feeRefunded" | "refunded" | "disputed">

/** A refund. */
export interface Refund {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly chargeId: string
  /** Total given back (base and fee), minor units. */
  readonly amount: number
  /** The fee part of `amount`. */
  readonly feeAmount: number
  readonly reason: string | null
  readonly status: string
  readonly created: number
  readonly metadata: Readonly<Record<string, string>>
}

/** A dispute. */
export interface Dispute {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly chargeId: string
  readonly amount: number
  readonly status: "needs_response" | "won" | "lost"
  readonly reason: string
  readonly created: number
  readonly updated: number
}

/**
 * A charge with the event it causes and, when the request carried an idempotency key
 * (already claimed with `IdempotencyRepository.begin`), the response to store for it.
 */
export interface ChargeWrite {
  readonly charge: NewCharge
  readonly event: Event
  readonly idempotency?: { readonly key: string; readonly response: StoredResponse } | undefined
}

/** What may change on a charge after it is written: the processor's outcome. */
export interface ChargeOutcome {
  readonly status: Charge["status"]
  readonly failureCode?: string | null | undefined
  readonly failureMessage?: string | null | undefined
  /** Replaces `details` when given. */
  readonly details?: JsonObject | undefined
}

/** What a charge had refunded when a refund was planned on it. */
export type RefundedSoFar = Pick<Charge, "amountRefunded" | "feeRefunded">

/** Whether the charge's refunds moved away from `expected`. */
const moved = (charge: Charge, expected: RefundedSoFar | undefined): boolean =>
  expected !== undefined &&
  (charge.amountRefunded !== expected.amountRefunded || charge.feeRefunded !== expected.feeRefunded)

/** Charge list filters beyond the page. */
export interface ChargeFilter {
  readonly customer?: string | undefined
}

/** Dispute list filters beyond the page. */
export interface DisputeFilter {
  readonly charge?: string | undefined
  readonly status?: Dispute["status"] | undefined
}

/** Charges, refunds and disputes. */
export interface ChargeRepositoryService {
  readonly insert: (charge: NewCharge) => Effect.Effect<Charge, DuplicateRecord | StorageError>
  /**
   * Writes a charge, its event and its idempotency response together, all or nothing
   * (PostgreSQL: one statement, so one round trip instead of three). Fails with
   * `RecordNotFound` when the idempotency key was not claimed first.
   */
  readonly create: (
    write: ChargeWrite
  ) => Effect.Effect<Charge, DuplicateRecord | RecordNotFound | StorageError>
  readonly get: (tenant: Tenant, id: string) => Effect.Effect<Charge, RecordNotFound | StorageError>
  /** The tenant's charges among `ids`, in one read (ids it does not hold are left out). */
  readonly getMany: (
    tenant: Tenant,
    ids: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<Charge>, StorageError>
  readonly list: (
    tenant: Tenant,
    request: Page.PageRequest & ChargeFilter
  ) => Effect.Effect<Page.Page<Charge>, RecordNotFound | StorageError>
  /** Records the processor's outcome on a pending charge (status, failure, details). */
  readonly settle: (
    tenant: Tenant,
    id: string,
    outcome: ChargeOutcome
  ) => Effect.Effect<Charge, RecordNotFound | StorageError>
  /**
   * Records a refund and adds it to its charge, atomically; never over the charge's total
   * or its fee. With `expected` (the charge's refunded amounts the refund was planned on),
   * fails with `StaleCharge` when another refund changed them first.
   */
  readonly refund: (
    refund: Refund,
    expected?: RefundedSoFar
  ) => Effect.Effect<
    { readonly refund: Refund; readonly charge: Charge },
    RecordNotFound | RefundTooLarge | StaleCharge | DuplicateRecord | StorageError
  >
  readonly getRefund: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<Refund, RecordNotFound | StorageError>
  readonly listRefunds: (
    tenant: Tenant,
    request: Page.PageRequest & { readonly charge?: string | undefined }
  ) => Effect.Effect<Page.Page<Refund>, RecordNotFound | StorageError>
  /** Records a dispute and marks its charge disputed, atomically. */
  readonly openDispute: (
    dispute: Dispute
  ) => Effect.Effect<Dispute, RecordNotFound | DuplicateRecord | StorageError>
  readonly updateDispute: (
    tenant: Tenant,
    id: string,
    status: Dispute["status"],
    at: number
  ) => Effect.Effect<Dispute, RecordNotFound | StorageError>
  readonly getDispute: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<Dispute, RecordNotFound | StorageError>
  readonly listDisputes: (
    tenant: Tenant,
    request: Page.PageRequest & DisputeFilter
  ) => Effect.Effect<Page.Page<Dispute>, RecordNotFound | StorageError>
}

interface ChargeRow {
  account_id: string
  id: string
  livemode: boolean
  created: number
  amount: number
  convenience_fee: number
  total_amount: number
  currency: string
  status: Charge["status"]
  customer: string | null
  description: string | null
  metadata: Record<string, string>
  region: string | null
  card_type: string | null
  fee_breakdown: JsonObject
  compliance: JsonObject | null
  failure_code: string | null
  failure_message: string | null
  amount_refunded: number
  fee_refunded: number
  refunded: boolean
  disputed: boolean
  details: JsonObject
}

const chargeFromRow = (r: ChargeRow): Charge => ({
  id: r.id,
  accountId: r.account_id,
  livemode: r.livemode,
  created: r.created,
  amount: r.amount,
  convenienceFee: r.convenience_fee,
  totalAmount: r.total_amount,
  currency: r.currency,
  status: r.status,
  customer: r.customer,
  description: r.description,
  metadata: r.metadata,
  region: r.region,
  cardType: r.card_type,
  feeBreakdown: r.fee_breakdown,
  compliance: r.compliance,
  failureCode: r.failure_code,
  failureMessage: r.failure_message,
  amountRefunded: r.amount_refunded,
  feeRefunded: r.fee_refunded,
  refunded: r.refunded,
  disputed: r.disputed,
  details: r.details
})

interface RefundRow {
  account_id: string
  id: string
  livemode: boolean
  charge_id: string
  amount: number
  fee_amount: number
  reason: string | null
  status: string
  created: number
  metadata: Record<string, string>
}

const refundFromRow = (r: RefundRow): Refund => ({
  id: r.id,
  accountId: r.account_id,
  livemode: r.livemode,
  chargeId: r.charge_id,
  amount: r.amount,
  feeAmount: r.fee_amount,
  reason: r.reason,
  status: r.status,
  created: r.created,
  metadata: r.metadata
})

interface DisputeRow {
  account_id: string
  id: string
  livemode: boolean
  charge_id: string
  amount: number
  status: Dispute["status"]
  reason: string
  created: number
  updated: number
}

const disputeFromRow = (r: DisputeRow): Dispute => ({
  id: r.id,
  accountId: r.account_id,
  livemode: r.livemode,
  chargeId: r.charge_id,
  amount: r.amount,
  status: r.status,
  reason: r.reason,
  created: r.created,
  updated: r.updated
})

/** A new charge as stored: nothing refunded or disputed yet. */
const newRecord = (c: NewCharge): Charge => ({
  ...c,
  amountRefunded: 0,
  feeRefunded: 0,
  refunded: false,
  disputed: false
})

const first =
  <R, A>(entity: string, id: string, decode: (r: R) => A) =>
  (rows: ReadonlyArray<R>): Effect.Effect<A, RecordNotFound> =>
    rows[0] !== undefined
      ? Effect.succeed(decode(rows[0]))
      : Effect.fail(new RecordNotFound({ entity, id }))

/** The SQL implementation. */
export const makeSql = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const json = (value: Json) => SqlSupport.json(value)
  const service: ChargeRepositoryService = {
    insert: (c) =>
      sql`INSERT INTO charges (account_id, id, livemode, created, amount, convenience_fee,
          total_amount, currency, status, customer, description, metadata, region, card_type, fee_breakdown,
          compliance, failure_code, failure_message, details)
        VALUES (${c.accountId}, ${c.id}, ${c.livemode}, ${c.created}, ${c.amount}, ${c.convenienceFee},
          ${c.totalAmount}, ${c.currency}, ${c.status}, ${c.customer}, ${c.description}, ${json(c.metadata)},
          ${c.region}, ${c.cardType}, ${json(c.feeBreakdown)}, ${c.compliance === null ? null : json(c.compliance)},
          ${c.failureCode}, ${c.failureMessage}, ${json(c.details)})`.pipe(
        SqlSupport.orDuplicate("charge", c.id),
        Effect.as(newRecord(c))
      ),
    create: ({ charge: c, event: e, idempotency }) =>
      sql<{ one: number }>`WITH idem AS (
          ${
            idempotency === undefined
              ? sql`SELECT 1`
              : sql`UPDATE idempotency_records
                  SET state = 'done', response_status = ${idempotency.response.status}::integer,
                      response_body = ${json(idempotency.response.body)}::jsonb
                  WHERE account_id = ${c.accountId} AND livemode = ${c.livemode} AND key = ${idempotency.key}
                  RETURNING 1`
          }
        ), charge AS (
          INSERT INTO charges (account_id, id, livemode, created, amount, convenience_fee, total_amount,
            currency, status, customer, description, metadata, region, card_type, fee_breakdown, compliance,
            failure_code, failure_message, details)
          SELECT ${c.accountId}::text, ${c.id}::text, ${c.livemode}::boolean, ${c.created}::bigint,
            ${c.amount}::bigint, ${c.convenienceFee}::bigint, ${c.totalAmount}::bigint, ${c.currency}::text,
            ${c.status}::text, ${c.customer}::text, ${c.description}::text, ${json(c.metadata)}::jsonb,
            ${c.region}::text, ${c.cardType}::text, ${json(c.feeBreakdown)}::jsonb,
            ${c.compliance === null ? null : json(c.compliance)}::jsonb, ${c.failureCode}::text,
            ${c.failureMessage}::text, ${json(c.details)}::jsonb
          FROM idem
          RETURNING 1
        )
        INSERT INTO events (account_id, id, livemode, type, data, request, created)
        SELECT ${e.accountId}::text, ${e.id}::text, ${e.livemode}::boolean, ${e.type}::text,
          ${json(e.data)}::jsonb, ${e.request === null ? null : json(e.request)}::jsonb, ${e.created}::bigint
        FROM charge
        RETURNING 1 AS one`.pipe(
        Effect.mapError((error) => {
          if (!SqlSupport.isUniqueViolation(error)) return SqlSupport.storageError(error)
          return SqlSupport.pgError(error).constraint === "events_pkey"
            ? new DuplicateRecord({ entity: "event", id: e.id })
            : new DuplicateRecord({ entity: "charge", id: c.id })
        }),
        Effect.flatMap((rows) =>
          rows.length === 1
            ? Effect.succeed(newRecord(c))
            : Effect.fail(
                new RecordNotFound({ entity: "idempotency_record", id: idempotency?.key ?? "" })
              )
        )
      ),
    get: (tenant, id) =>
      sql<ChargeRow>`SELECT * FROM charges
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(first("charge", id, chargeFromRow))
      ),
    getMany: (tenant, ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql<ChargeRow>`SELECT * FROM charges
            WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
              AND id IN ${sql.in([...new Set(ids)])}`.pipe(
            SqlSupport.orStorageError,
            Effect.map((rows) => rows.map(chargeFromRow))
          ),
    list: (tenant, request) =>
      SqlSupport.list(sql, {
        table: "charges",
        entity: "charge",
        tenant,
        request,
        filters: request.customer !== undefined ? [sql`customer = ${request.customer}`] : [],
        decode: chargeFromRow
      }),
    settle: (tenant, id, o) =>
      sql<ChargeRow>`UPDATE charges SET status = ${o.status},
          failure_code = ${o.failureCode === undefined ? sql`failure_code` : o.failureCode},
          failure_message = ${o.failureMessage === undefined ? sql`failure_message` : o.failureMessage},
          details = ${o.details === undefined ? sql`details` : sql`${json(o.details)}::jsonb`}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING *`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(first("charge", id, chargeFromRow))
      ),
    refund: (r, expected) =>
      Effect.gen(function* () {
        const charges = yield* sql<ChargeRow>`SELECT * FROM charges
          WHERE account_id = ${r.accountId} AND livemode = ${r.livemode} AND id = ${r.chargeId} FOR UPDATE`
        const charge = yield* first("charge", r.chargeId, chargeFromRow)(charges)
        if (moved(charge, expected)) return yield* new StaleCharge({ chargeId: r.chargeId })
        const refundable = charge.totalAmount - charge.amountRefunded
        if (r.amount > refundable || r.feeAmount > charge.convenienceFee - charge.feeRefunded) {
          return yield* Effect.fail(
            new RefundTooLarge({ chargeId: r.chargeId, requested: r.amount, refundable })
          )
        }
        const inserted =
          yield* sql<RefundRow>`INSERT INTO refunds (account_id, id, livemode, charge_id, amount,
            fee_amount, reason, status, created, metadata)
          VALUES (${r.accountId}, ${r.id}, ${r.livemode}, ${r.chargeId}, ${r.amount}, ${r.feeAmount}, ${r.reason},
            ${r.status}, ${r.created}, ${json(r.metadata)})
          RETURNING *`.pipe(SqlSupport.orDuplicate("refund", r.id))
        const updated = yield* sql<ChargeRow>`UPDATE charges
          SET amount_refunded = amount_refunded + ${r.amount}, fee_refunded = fee_refunded + ${r.feeAmount},
              refunded = (amount_refunded + ${r.amount} = total_amount)
          WHERE account_id = ${r.accountId} AND id = ${r.chargeId} RETURNING *`
        return { refund: refundFromRow(inserted[0]!), charge: chargeFromRow(updated[0]!) }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    getRefund: (tenant, id) =>
      sql<RefundRow>`SELECT * FROM refunds
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(first("refund", id, refundFromRow))
      ),
    listRefunds: (tenant, request) =>
      SqlSupport.list(sql, {
        table: "refunds",
        entity: "refund",
        tenant,
        request,
        filters: request.charge !== undefined ? [sql`charge_id = ${request.charge}`] : [],
        decode: refundFromRow
      }),
    openDispute: (d) =>
      Effect.gen(function* () {
        const marked = yield* sql`UPDATE charges SET disputed = true
          WHERE account_id = ${d.accountId} AND livemode = ${d.livemode} AND id = ${d.chargeId} RETURNING id`
        if (marked.length === 0)
          return yield* Effect.fail(new RecordNotFound({ entity: "charge", id: d.chargeId }))
        const rows =
          yield* sql<DisputeRow>`INSERT INTO disputes (account_id, id, livemode, charge_id, amount,
            status, reason, created, updated)
          VALUES (${d.accountId}, ${d.id}, ${d.livemode}, ${d.chargeId}, ${d.amount}, ${d.status}, ${d.reason},
            ${d.created}, ${d.updated})
          RETURNING *`.pipe(SqlSupport.orDuplicate("dispute", d.id))
        return disputeFromRow(rows[0]!)
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    updateDispute: (tenant, id, status, at) =>
      sql<DisputeRow>`UPDATE disputes SET status = ${status}, updated = ${at}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING *`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(first("dispute", id, disputeFromRow))
      ),
    getDispute: (tenant, id) =>
      sql<DisputeRow>`SELECT * FROM disputes
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(first("dispute", id, disputeFromRow))
      ),
    listDisputes: (tenant, request) =>
      SqlSupport.list(sql, {
        table: "disputes",
        entity: "dispute",
        tenant,
        request,
        filters: [
          ...(request.charge !== undefined ? [sql`charge_id = ${request.charge}`] : []),
          ...(request.status !== undefined ? [sql`status = ${request.status}`] : [])
        ],
        decode: disputeFromRow
      })
  }
  return service
})

const CHARGES = "charges"
const REFUNDS = "refunds"
const DISPUTES = "disputes"

/** The in-memory implementation. */
export const makeMemory = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const events = yield* EventRepository
  const idempotency = yield* IdempotencyRepository
  const charges = store.table<Charge>(CHARGES)
  const refunds = store.table<Refund>(REFUNDS)
  const disputes = store.table<Dispute>(DISPUTES)
  const key = (accountId: string, id: string) => `${accountId}/${id}`
  const scoped = <A extends { readonly livemode: boolean }>(
    table: MemoryStore.Table<A>,
    entity: string,
    tenant: Tenant,
    id: string
  ): Effect.Effect<A, RecordNotFound> => {
    const found = table.get(key(tenant.accountId, id))
    return found !== undefined && found.livemode === tenant.livemode
      ? Effect.succeed(found)
      : Effect.fail(new RecordNotFound({ entity, id }))
  }
  const service: ChargeRepositoryService = {
    insert: (c) =>
      store.write((w) => {
        if (charges.has(key(c.accountId, c.id)))
          return Effect.fail(new DuplicateRecord({ entity: "charge", id: c.id }))
        const charge = newRecord(c)
        w.put(CHARGES, key(c.accountId, c.id), charge)
        return Effect.succeed(charge)
      }),
    create: ({ charge, event, idempotency: idem }) =>
      store.transaction(
        Effect.gen(function* () {
          if (idem !== undefined) yield* idempotency.complete(charge, idem.key, idem.response)
          const inserted = yield* service.insert(charge)
          yield* events.insert(event)
          return inserted
        })
      ),
    get: (tenant, id) => Effect.flatten(store.read(() => scoped(charges, "charge", tenant, id))),
    getMany: (tenant, ids) =>
      store.read(() =>
        [...new Set(ids)].flatMap((id) => {
          const found = charges.get(key(tenant.accountId, id))
          return found !== undefined && found.livemode === tenant.livemode ? [found] : []
        })
      ),
    list: (tenant, request) =>
      MemoryStore.list<Charge>(
        store,
        CHARGES,
        "charge",
        tenant,
        request,
        (c) => request.customer === undefined || c.customer === request.customer
      ),
    settle: (tenant, id, o) =>
      store.write((w) =>
        Effect.map(scoped(charges, "charge", tenant, id), (charge) => {
          const settled: Charge = {
            ...charge,
            status: o.status,
            ...(o.failureCode !== undefined ? { failureCode: o.failureCode } : {}),
            ...(o.failureMessage !== undefined ? { failureMessage: o.failureMessage } : {}),
            ...(o.details !== undefined ? { details: o.details } : {})
          }
          w.put(CHARGES, key(tenant.accountId, id), settled)
          return settled
        })
      ),
    refund: (r, expected) =>
      store.write((w) =>
        Effect.gen(function* () {
          const charge = yield* scoped(charges, "charge", r, r.chargeId)
          if (moved(charge, expected)) return yield* new StaleCharge({ chargeId: r.chargeId })
          const refundable = charge.totalAmount - charge.amountRefunded
          if (r.amount > refundable || r.feeAmount > charge.convenienceFee - charge.feeRefunded) {
            return yield* Effect.fail(
              new RefundTooLarge({ chargeId: r.chargeId, requested: r.amount, refundable })
            )
          }
          if (refunds.has(key(r.accountId, r.id))) {
            return yield* Effect.fail(new DuplicateRecord({ entity: "refund", id: r.id }))
          }
          const amountRefunded = charge.amountRefunded + r.amount
          const updated: Charge = {
            ...charge,
            amountRefunded,
            feeRefunded: charge.feeRefunded + r.feeAmount,
            refunded: amountRefunded === charge.totalAmount
          }
          w.put(REFUNDS, key(r.accountId, r.id), r)
          w.put(CHARGES, key(r.accountId, r.chargeId), updated)
          return { refund: r, charge: updated }
        })
      ),
    getRefund: (tenant, id) =>
      Effect.flatten(store.read(() => scoped(refunds, "refund", tenant, id))),
    listRefunds: (tenant, request) =>
      MemoryStore.list<Refund>(
        store,
        REFUNDS,
        "refund",
        tenant,
        request,
        (r) => request.charge === undefined || r.chargeId === request.charge
      ),
    openDispute: (d) =>
      store.write((w) =>
        Effect.gen(function* () {
          const charge = yield* scoped(charges, "charge", d, d.chargeId)
          if (disputes.has(key(d.accountId, d.id))) {
            return yield* Effect.fail(new DuplicateRecord({ entity: "dispute", id: d.id }))
          }
          w.put(CHARGES, key(d.accountId, d.chargeId), { ...charge, disputed: true })
          w.put(DISPUTES, key(d.accountId, d.id), d)
          return d
        })
      ),
    updateDispute: (tenant, id, status, at) =>
      store.write((w) =>
        Effect.map(scoped(disputes, "dispute", tenant, id), (d) => {
          const updated: Dispute = { ...d, status, updated: at }
          w.put(DISPUTES, key(tenant.accountId, id), updated)
          return updated
        })
      ),
    getDispute: (tenant, id) =>
      Effect.flatten(store.read(() => scoped(disputes, "dispute", tenant, id))),
    listDisputes: (tenant, request) =>
      MemoryStore.list<Dispute>(
        store,
        DISPUTES,
        "dispute",
        tenant,
        request,
        (d) =>
          (request.charge === undefined || d.chargeId === request.charge) &&
          (request.status === undefined || d.status === request.status)
      )
  }
  return service
})

/** Charges, refunds and disputes, as a service. */
export class ChargeRepository extends Context.Tag("@levy/storage/ChargeRepository")<
  ChargeRepository,
  ChargeRepositoryService
>() {
  static readonly layerSql = Layer.effect(ChargeRepository, makeSql)
  static readonly layerMemory = Layer.effect(ChargeRepository, makeMemory)
}

/**
 * Charges with their refunds and disputes. A charge keeps what the engine decided (fee
 * breakdown, compliance verdict) as plain JSON next to the money columns.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option } from "effect"
import { type Event, EventRepository, type EventRepositoryService } from "./EventRepository.js"
import {
  IdempotencyRepository,
  type IdempotencyRepositoryService,
  type StoredResponse
} from "./IdempotencyRepository.js"
import type { Json, JsonObject } from "./Json.js"
import * as MemoryStore from "./memory/MemoryStore.js"
import type * as Page from "./Page.js"
import {
  DuplicateRecord,
  RecordNotFound,
  RefundTooLarge,
  StaleCharge,
  StorageError
} from "./StorageError.js"
import * as SqlSupport from "./sql/SqlSupport.js"
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

/**
 * Where a charge or a refund stands with its processor (docs/design.md §4): written with the
 * `pending` row before the processor is called, so the call can be repeated with the same key
 * after a crash. Null on records made before the phased path (and on test seeds).
 */
export interface Processing {
  /** The processor's name (`simulator`, `stripe`, `adyen`). */
  readonly processor: string | null
  /** The processor idempotency key: unique per (account, mode). */
  readonly processorKey: string | null
  /** The client's Idempotency-Key, when the request had one: unique per (account, mode). */
  readonly idempotencyKey: string | null
  /** What the request was (method, path, body digest): a retry with another body is refused. */
  readonly requestFingerprint: string | null
  /** The processor's id of the payment or refund, once known. */
  readonly processorReference: string | null
  /** While pending: when the recovery sweeper may take it (Unix ms). */
  readonly recoverAfterMs: number | null
}

const NO_PROCESSING: Processing = {
  processor: null,
  processorKey: null,
  idempotencyKey: null,
  requestFingerprint: null,
  processorReference: null,
  recoverAfterMs: null
}

/** A charge as stored, with its processing fields. */
export interface StoredCharge extends Charge, Processing {}

/** A new charge: the refund and dispute fields start at zero; processing fields default to null. */
export type NewCharge = Omit<Charge, "amountRefunded" | "feeRefunded" | "refunded" | "disputed"> &
  Partial<Processing>

/** A refund. */
export interface Refund extends Partial<Processing> {
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
  /** Why the processor refused it (`failed`). */
  readonly failureCode?: string | null | undefined
  readonly failureMessage?: string | null | undefined
}

/** A dispute. */
export interface Dispute {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly chargeId: string
  readonly amount: number
  readonly status: "needs_response" | "under_review" | "won" | "lost"
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

/** A refund as stored, with its processing fields. */
export type StoredRefund = Omit<Refund, keyof Processing | "failureCode" | "failureMessage"> &
  Processing & {
    readonly failureCode: string | null
    readonly failureMessage: string | null
  }

/**
 * The response to store for a client's Idempotency-Key when a pending charge or refund settles:
 * the claim's record is completed, or written anew when the claim was forgotten meanwhile (a
 * 503 released it); a record of another request under the key (another fingerprint) is left.
 */
export interface IdempotencyCompletion {
  readonly key: string
  readonly fingerprint: string | null
  readonly response: StoredResponse
}

/** What settling writes besides the record itself, made from the record as settled. */
export interface SettleEffects {
  readonly events: ReadonlyArray<Event>
  /** A dispute the processor reported with the payment (the simulator's `tok_chargeDispute`). */
  readonly dispute?: Dispute | undefined
  readonly idempotency?: IdempotencyCompletion | undefined
}

/** The processor's outcome for a pending charge. */
export interface ChargeSettlement extends ChargeOutcome {
  readonly status: "succeeded" | "failed"
  readonly processorReference: string | null
}

/** The processor's outcome for a pending refund, and what of it is kept on the charge. */
export interface RefundSettlement {
  readonly status: "succeeded" | "failed"
  /** What was given back (base and fee), minor units: the reservation's rest is released. */
  readonly amount: number
  readonly feeAmount: number
  readonly processorReference: string | null
  readonly failureCode?: string | null | undefined
  readonly failureMessage?: string | null | undefined
}

/** A settle's result: whether this caller settled it, and the record as stored either way. */
export interface Settled<A> {
  readonly won: boolean
  readonly record: A
}

/** What the recovery sweeper takes: pending records whose lease expired, leased again. */
export interface RecoveryClaim {
  /** Now, Unix ms: records with `recoverAfterMs <= now` are due. */
  readonly now: number
  /** The new lease: taken records are not due again before `now + leaseMs`. */
  readonly leaseMs: number
  readonly limit: number
}

/** Charges, refunds and disputes. */
export interface ChargeRepositoryService {
  /**
   * Phase 1 of a charge (docs/design.md §4): writes it `pending` with its processing fields.
   * `DuplicateRecord` when its idempotency key or processor key is taken.
   */
  readonly beginCharge: (
    charge: NewCharge & Processing
  ) => Effect.Effect<StoredCharge, DuplicateRecord | StorageError>
  /** The charge made for the client's Idempotency-Key, pending or settled. */
  readonly findByIdempotencyKey: (
    tenant: Tenant,
    key: string
  ) => Effect.Effect<Option.Option<StoredCharge>, StorageError>
  /**
   * Moves a pending charge's lease to `untilMs` (a request resuming it); the charge as it
   * stands, whatever its status.
   */
  readonly leaseCharge: (
    tenant: Tenant,
    id: string,
    untilMs: number
  ) => Effect.Effect<StoredCharge, RecordNotFound | StorageError>
  /**
   * Phase 3: settles a charge if it is still pending, with the events, dispute and idempotency
   * response `effects` makes from it as settled, all in one transaction. `won: false` (nothing
   * written) when someone settled it first; the stored charge either way.
   */
  readonly settleCharge: (
    tenant: Tenant,
    id: string,
    settlement: ChargeSettlement,
    effects: (settled: StoredCharge) => SettleEffects
  ) => Effect.Effect<Settled<StoredCharge>, RecordNotFound | StorageError>
  /**
   * Pending charges whose lease expired, leased again for `leaseMs`, for the recovery sweeper.
   * Safe with several processes (PostgreSQL: `FOR UPDATE SKIP LOCKED`): none is taken twice
   * within a lease.
   */
  readonly claimPendingCharges: (
    claim: RecoveryClaim
  ) => Effect.Effect<ReadonlyArray<StoredCharge>, StorageError>
  /** The refund made for the client's Idempotency-Key, pending or settled. */
  readonly findRefundByIdempotencyKey: (
    tenant: Tenant,
    key: string
  ) => Effect.Effect<Option.Option<StoredRefund>, StorageError>
  /** `leaseCharge` for a refund. */
  readonly leaseRefund: (
    tenant: Tenant,
    id: string,
    untilMs: number
  ) => Effect.Effect<StoredRefund, RecordNotFound | StorageError>
  /**
   * Settles a pending refund (write it `pending` with `refund`, which reserves its amounts on
   * the charge): keeps `settlement.amount`/`feeAmount` on the charge and releases the rest of
   * the reservation (all of it when failed), with the effects made from the refund and charge
   * as settled, in one transaction.
   */
  readonly settleRefund: (
    tenant: Tenant,
    id: string,
    settlement: RefundSettlement,
    effects: (refund: StoredRefund, charge: StoredCharge) => SettleEffects
  ) => Effect.Effect<
    Settled<{ readonly refund: StoredRefund; readonly charge: StoredCharge }>,
    RecordNotFound | StorageError
  >
  /** `claimPendingCharges` for refunds. */
  readonly claimPendingRefunds: (
    claim: RecoveryClaim
  ) => Effect.Effect<ReadonlyArray<StoredRefund>, StorageError>
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

export interface ChargeRow {
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
  processor: string | null
  processor_key: string | null
  idempotency_key: string | null
  request_fingerprint: string | null
  processor_reference: string | null
  recover_after: number | null
}

const processingFromRow = (r: {
  processor: string | null
  processor_key: string | null
  idempotency_key: string | null
  request_fingerprint: string | null
  processor_reference: string | null
  recover_after: number | null
}): Processing => ({
  processor: r.processor ?? null,
  processorKey: r.processor_key ?? null,
  idempotencyKey: r.idempotency_key ?? null,
  requestFingerprint: r.request_fingerprint ?? null,
  processorReference: r.processor_reference ?? null,
  recoverAfterMs: r.recover_after ?? null
})

export const chargeFromRow = (r: ChargeRow): StoredCharge => ({
  ...processingFromRow(r),
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

export interface RefundRow {
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
  processor: string | null
  processor_key: string | null
  idempotency_key: string | null
  request_fingerprint: string | null
  processor_reference: string | null
  recover_after: number | null
  failure_code: string | null
  failure_message: string | null
}

export const refundFromRow = (r: RefundRow): StoredRefund => ({
  ...processingFromRow(r),
  failureCode: r.failure_code ?? null,
  failureMessage: r.failure_message ?? null,
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

export interface DisputeRow {
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

export const disputeFromRow = (r: DisputeRow): Dispute => ({
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
const newRecord = (c: NewCharge): StoredCharge => ({
  ...NO_PROCESSING,
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

/** A write the store's own rules make impossible (a fresh event id taken): a store failure. */
const asStorageError = (error: DuplicateRecord | RecordNotFound) =>
  new StorageError({ message: `settle failed: ${error._tag} ${error.entity} ${error.id}` })

/**
 * What settling writes beside the record: its events, its dispute and the idempotency
 * response, inside the caller's transaction (the same on every store).
 */
const writeEffects = (
  events: EventRepositoryService,
  idempotency: IdempotencyRepositoryService,
  openDispute: ChargeRepositoryService["openDispute"],
  tenant: Tenant,
  fx: SettleEffects
): Effect.Effect<void, StorageError> =>
  Effect.gen(function* () {
    for (const event of fx.events) yield* events.insert(event)
    if (fx.dispute !== undefined) yield* openDispute(fx.dispute)
    if (fx.idempotency !== undefined) {
      const { key, fingerprint, response } = fx.idempotency
      yield* idempotency.settle(tenant, key, fingerprint, response)
    }
  }).pipe(
    Effect.catchTags({
      DuplicateRecord: (e) => Effect.fail(asStorageError(e)),
      RecordNotFound: (e) => Effect.fail(asStorageError(e))
    })
  )

/** The part of a refund's reservation on its charge a settlement releases. */
const released = (refund: Refund, s: RefundSettlement) =>
  s.status === "failed"
    ? { amount: refund.amount, fee: refund.feeAmount }
    : { amount: refund.amount - s.amount, fee: refund.feeAmount - s.feeAmount }

/** The SQL implementation. */
export const makeSql = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const events = yield* EventRepository
  const idempotency = yield* IdempotencyRepository
  const json = (value: Json) => SqlSupport.json(value)
  const chargeByKey = (tenant: Tenant, key: string) =>
    sql<ChargeRow>`SELECT * FROM charges
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND idempotency_key = ${key}`
  const service: ChargeRepositoryService = {
    beginCharge: (c) =>
      sql<ChargeRow>`INSERT INTO charges (account_id, id, livemode, created, amount, convenience_fee,
          total_amount, currency, status, customer, description, metadata, region, card_type, fee_breakdown,
          compliance, failure_code, failure_message, details, processor, processor_key, idempotency_key,
          request_fingerprint, processor_reference, recover_after)
        VALUES (${c.accountId}, ${c.id}, ${c.livemode}, ${c.created}, ${c.amount}, ${c.convenienceFee},
          ${c.totalAmount}, ${c.currency}, ${c.status}, ${c.customer}, ${c.description}, ${json(c.metadata)},
          ${c.region}, ${c.cardType}, ${json(c.feeBreakdown)}, ${c.compliance === null ? null : json(c.compliance)},
          ${c.failureCode}, ${c.failureMessage}, ${json(c.details)}, ${c.processor}, ${c.processorKey},
          ${c.idempotencyKey}, ${c.requestFingerprint}, ${c.processorReference}, ${c.recoverAfterMs})
        RETURNING *`.pipe(
        Effect.mapError((error) => {
          if (!SqlSupport.isUniqueViolation(error)) return SqlSupport.storageError(error)
          const constraint = SqlSupport.pgError(error).constraint
          return constraint === "charges_idempotency_key"
            ? new DuplicateRecord({ entity: "charge_idempotency_key", id: c.idempotencyKey ?? "" })
            : constraint === "charges_processor_key"
              ? new DuplicateRecord({ entity: "charge_processor_key", id: c.processorKey ?? "" })
              : new DuplicateRecord({ entity: "charge", id: c.id })
        }),
        Effect.map((rows) => chargeFromRow(rows[0]!))
      ),
    findByIdempotencyKey: (tenant, key) =>
      chargeByKey(tenant, key).pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), chargeFromRow))
      ),
    leaseCharge: (tenant, id, untilMs) =>
      sql<ChargeRow>`UPDATE charges
        SET recover_after = CASE WHEN status = 'pending' THEN ${untilMs}::bigint ELSE recover_after END
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING *`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(first("charge", id, chargeFromRow))
      ),
    settleCharge: (tenant, id, o, effects) =>
      Effect.gen(function* () {
        const rows = yield* sql<ChargeRow>`UPDATE charges SET status = ${o.status},
            failure_code = ${o.failureCode === undefined ? sql`failure_code` : o.failureCode},
            failure_message = ${o.failureMessage === undefined ? sql`failure_message` : o.failureMessage},
            details = ${o.details === undefined ? sql`details` : sql`${json(o.details)}::jsonb`},
            processor_reference = ${o.processorReference}, recover_after = NULL
          WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
            AND status = 'pending'
          RETURNING *`
        if (rows[0] === undefined) {
          const current = yield* sql<ChargeRow>`SELECT * FROM charges
            WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`
          const charge = yield* first("charge", id, chargeFromRow)(current)
          return { won: false, record: charge }
        }
        const settled = chargeFromRow(rows[0])
        const fx = effects(settled)
        yield* writeEffects(events, idempotency, service.openDispute, tenant, fx)
        return {
          won: true,
          record: fx.dispute === undefined ? settled : { ...settled, disputed: true }
        }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    claimPendingCharges: ({ now, leaseMs, limit }) =>
      sql<ChargeRow>`UPDATE charges c SET recover_after = ${now + leaseMs}
        FROM (SELECT account_id, id FROM charges
              WHERE status = 'pending' AND recover_after <= ${now}
              ORDER BY recover_after LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
        WHERE c.account_id = due.account_id AND c.id = due.id
        RETURNING c.*`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => rows.map(chargeFromRow))
      ),
    findRefundByIdempotencyKey: (tenant, key) =>
      sql<RefundRow>`SELECT * FROM refunds
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND idempotency_key = ${key}`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), refundFromRow))
      ),
    leaseRefund: (tenant, id, untilMs) =>
      sql<RefundRow>`UPDATE refunds
        SET recover_after = CASE WHEN status = 'pending' THEN ${untilMs}::bigint ELSE recover_after END
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING *`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(first("refund", id, refundFromRow))
      ),
    settleRefund: (tenant, id, o, effects) =>
      Effect.gen(function* () {
        // The charge first, as `refund` locks it: refunds of one charge settle one at a time.
        const locked = yield* sql<ChargeRow>`SELECT c.* FROM charges c JOIN refunds r
            ON r.account_id = c.account_id AND r.charge_id = c.id
          WHERE r.account_id = ${tenant.accountId} AND r.livemode = ${tenant.livemode} AND r.id = ${id}
          FOR UPDATE OF c`
        const charge = yield* first("refund", id, chargeFromRow)(locked)
        const refunds = yield* sql<RefundRow>`SELECT * FROM refunds
          WHERE account_id = ${tenant.accountId} AND id = ${id} FOR UPDATE`
        const refund = refundFromRow(refunds[0]!)
        if (refund.status !== "pending") return { won: false, record: { refund, charge } }
        const kept = o.status === "succeeded" && o.amount > 0
        const rows = yield* sql<RefundRow>`UPDATE refunds SET status = ${o.status},
            amount = ${kept ? o.amount : refund.amount}, fee_amount = ${kept ? o.feeAmount : refund.feeAmount},
            processor_reference = ${o.processorReference}, failure_code = ${o.failureCode ?? null},
            failure_message = ${o.failureMessage ?? null}, recover_after = NULL
          WHERE account_id = ${tenant.accountId} AND id = ${id} RETURNING *`
        const back = released(refund, o)
        const charges = yield* sql<ChargeRow>`UPDATE charges
          SET amount_refunded = amount_refunded - ${back.amount}, fee_refunded = fee_refunded - ${back.fee},
              refunded = (amount_refunded - ${back.amount} = total_amount)
          WHERE account_id = ${charge.accountId} AND id = ${charge.id} RETURNING *`
        const record = { refund: refundFromRow(rows[0]!), charge: chargeFromRow(charges[0]!) }
        yield* writeEffects(
          events,
          idempotency,
          service.openDispute,
          tenant,
          effects(record.refund, record.charge)
        )
        return { won: true, record }
      }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    claimPendingRefunds: ({ now, leaseMs, limit }) =>
      sql<RefundRow>`UPDATE refunds r SET recover_after = ${now + leaseMs}
        FROM (SELECT account_id, id FROM refunds
              WHERE status = 'pending' AND recover_after <= ${now}
              ORDER BY recover_after LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
        WHERE r.account_id = due.account_id AND r.id = due.id
        RETURNING r.*`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => rows.map(refundFromRow))
      ),
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
      SqlSupport.listRaw(sql, {
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
            fee_amount, reason, status, created, metadata, processor, processor_key, idempotency_key,
            request_fingerprint, processor_reference, recover_after)
          VALUES (${r.accountId}, ${r.id}, ${r.livemode}, ${r.chargeId}, ${r.amount}, ${r.feeAmount}, ${r.reason},
            ${r.status}, ${r.created}, ${json(r.metadata)}, ${r.processor ?? null}, ${r.processorKey ?? null},
            ${r.idempotencyKey ?? null}, ${r.requestFingerprint ?? null}, ${r.processorReference ?? null},
            ${r.recoverAfterMs ?? null})
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
      SqlSupport.listRaw(sql, {
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
      SqlSupport.listRaw(sql, {
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
const CHARGE_KEYS = "charges_by_key"
const REFUND_KEYS = "refunds_by_key"
const DISPUTES = "disputes"

/** The in-memory implementation. */
export const makeMemory = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const events = yield* EventRepository
  const idempotency = yield* IdempotencyRepository
  const charges = store.table<StoredCharge>(CHARGES)
  const refunds = store.table<StoredRefund>(REFUNDS)
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
  /** The unique indexes of the SQL schema, as tables of ids. */
  const byKey = (t: Tenant, key: string) => `${t.accountId}/${t.livemode}/${key}`
  const chargeKeys = store.table<string>(CHARGE_KEYS)
  const refundKeys = store.table<string>(REFUND_KEYS)
  const lookupBy =
    <A>(index: MemoryStore.Table<string>, table: MemoryStore.Table<A>) =>
    (tenant: Tenant, k: string) =>
      store.read(() =>
        Option.flatMap(Option.fromNullable(index.get(byKey(tenant, `i:${k}`))), (id) =>
          Option.fromNullable(table.get(key(tenant.accountId, id)))
        )
      )
  const lease =
    <
      A extends {
        readonly livemode: boolean
        readonly status: string
        readonly recoverAfterMs: number | null
      }
    >(
      tableName: string,
      table: MemoryStore.Table<A>,
      entity: string
    ) =>
    (tenant: Tenant, id: string, untilMs: number) =>
      store.write((w) =>
        Effect.map(scoped(table, entity, tenant, id), (found) => {
          if (found.status !== "pending") return found
          const leased = { ...found, recoverAfterMs: untilMs }
          w.put(tableName, key(tenant.accountId, id), leased)
          return leased
        })
      )
  const claimDue = <
    A extends {
      readonly accountId: string
      readonly id: string
      readonly status: string
      readonly recoverAfterMs: number | null
    }
  >(
    tableName: string,
    table: MemoryStore.Table<A>,
    { now, leaseMs, limit }: RecoveryClaim
  ) =>
    store.write((w) => {
      const due = [...table.values()]
        .filter(
          (r) => r.status === "pending" && r.recoverAfterMs != null && r.recoverAfterMs <= now
        )
        .sort((a, b) => (a.recoverAfterMs ?? 0) - (b.recoverAfterMs ?? 0))
        .slice(0, limit)
        .map((r) => ({ ...r, recoverAfterMs: now + leaseMs }))
      for (const r of due) w.put(tableName, key(r.accountId, r.id), r)
      return Effect.succeed(due)
    })
  const service: ChargeRepositoryService = {
    beginCharge: (c) =>
      store.write((w) => {
        const tenant = { accountId: c.accountId, livemode: c.livemode }
        if (charges.has(key(c.accountId, c.id)))
          return Effect.fail(new DuplicateRecord({ entity: "charge", id: c.id }))
        if (c.idempotencyKey !== null && chargeKeys.has(byKey(tenant, `i:${c.idempotencyKey}`)))
          return Effect.fail(
            new DuplicateRecord({ entity: "charge_idempotency_key", id: c.idempotencyKey })
          )
        if (c.processorKey !== null && chargeKeys.has(byKey(tenant, `p:${c.processorKey}`)))
          return Effect.fail(
            new DuplicateRecord({ entity: "charge_processor_key", id: c.processorKey })
          )
        const charge = newRecord(c)
        w.put(CHARGES, key(c.accountId, c.id), charge)
        if (c.idempotencyKey !== null)
          w.put(CHARGE_KEYS, byKey(tenant, `i:${c.idempotencyKey}`), c.id)
        if (c.processorKey !== null) w.put(CHARGE_KEYS, byKey(tenant, `p:${c.processorKey}`), c.id)
        return Effect.succeed(charge)
      }),
    findByIdempotencyKey: lookupBy(chargeKeys, charges),
    leaseCharge: lease(CHARGES, charges, "charge"),
    settleCharge: (tenant, id, o, effects) =>
      store.transaction(
        Effect.gen(function* () {
          const charge = yield* scoped(charges, "charge", tenant, id)
          if (charge.status !== "pending") return { won: false, record: charge }
          const settled: StoredCharge = {
            ...charge,
            status: o.status,
            ...(o.failureCode !== undefined ? { failureCode: o.failureCode } : {}),
            ...(o.failureMessage !== undefined ? { failureMessage: o.failureMessage } : {}),
            ...(o.details !== undefined ? { details: o.details } : {}),
            processorReference: o.processorReference,
            recoverAfterMs: null
          }
          yield* store.write((w) => {
            w.put(CHARGES, key(tenant.accountId, id), settled)
            return Effect.void
          })
          const fx = effects(settled)
          yield* writeEffects(events, idempotency, service.openDispute, tenant, fx)
          return {
            won: true,
            record: fx.dispute === undefined ? settled : { ...settled, disputed: true }
          }
        })
      ),
    claimPendingCharges: (claim) => claimDue(CHARGES, charges, claim),
    findRefundByIdempotencyKey: lookupBy(refundKeys, refunds),
    leaseRefund: lease(REFUNDS, refunds, "refund"),
    settleRefund: (tenant, id, o, effects) =>
      store.transaction(
        Effect.gen(function* () {
          const refund = yield* scoped(refunds, "refund", tenant, id)
          const charge = yield* scoped(charges, "refund", tenant, refund.chargeId)
          if (refund.status !== "pending") return { won: false, record: { refund, charge } }
          const kept = o.status === "succeeded" && o.amount > 0
          const back = released(refund, o)
          const record = {
            refund: {
              ...refund,
              status: o.status,
              amount: kept ? o.amount : refund.amount,
              feeAmount: kept ? o.feeAmount : refund.feeAmount,
              processorReference: o.processorReference,
              failureCode: o.failureCode ?? null,
              failureMessage: o.failureMessage ?? null,
              recoverAfterMs: null
            },
            charge: {
              ...charge,
              amountRefunded: charge.amountRefunded - back.amount,
              feeRefunded: charge.feeRefunded - back.fee,
              refunded: charge.amountRefunded - back.amount === charge.totalAmount
            }
          }
          yield* store.write((w) => {
            w.put(REFUNDS, key(tenant.accountId, id), record.refund)
            w.put(CHARGES, key(tenant.accountId, charge.id), record.charge)
            return Effect.void
          })
          const fx = effects(record.refund, record.charge)
          yield* writeEffects(events, idempotency, service.openDispute, tenant, fx)
          return { won: true, record }
        })
      ),
    claimPendingRefunds: (claim) => claimDue(REFUNDS, refunds, claim),
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
          const indexed = [
            ...(r.idempotencyKey ? [`i:${r.idempotencyKey}`] : []),
            ...(r.processorKey ? [`p:${r.processorKey}`] : [])
          ].map((k) => byKey(r, k))
          if (indexed.some((k) => refundKeys.has(k))) {
            return yield* Effect.fail(new DuplicateRecord({ entity: "refund_key", id: r.id }))
          }
          const amountRefunded = charge.amountRefunded + r.amount
          const updated: StoredCharge = {
            ...charge,
            amountRefunded,
            feeRefunded: charge.feeRefunded + r.feeAmount,
            refunded: amountRefunded === charge.totalAmount
          }
          const stored: StoredRefund = {
            ...NO_PROCESSING,
            failureCode: null,
            failureMessage: null,
            ...r
          } as StoredRefund
          w.put(REFUNDS, key(r.accountId, r.id), stored)
          for (const k of indexed) w.put(REFUND_KEYS, k, r.id)
          w.put(CHARGES, key(r.accountId, r.chargeId), updated)
          return { refund: stored, charge: updated }
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

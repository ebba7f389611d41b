/**
 * Charges with their refunds and disputes. A charge keeps what the engine decided (fee
 * breakdown, compliance verdict) as plain JSON next to the money columns.
 */
import { Context, Effect, type Option } from "effect"
import type { Event, EventRepositoryService } from "./EventRepository.js"
import type { IdempotencyRepositoryService, StoredResponse } from "./IdempotencyRepository.js"
import type { JsonObject } from "./Json.js"
import type * as Page from "./Page.js"
import {
  type DuplicateRecord,
  type RecordNotFound,
  type RefundTooLarge,
  type StaleCharge,
  StorageError
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
  /**
   * The quote (estimate id) the charge honours, when it named one: at most one pending or
   * succeeded charge per quote and mode (a failed one leaves the quote usable).
   */
  readonly estimate: string | null
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

/** A charge as stored, with its processing fields. */
export interface StoredCharge extends Charge, Processing {}

/** A new charge: the refund and dispute fields start at zero; processing fields default to null. */
export type NewCharge = Omit<
  Charge,
  "amountRefunded" | "feeRefunded" | "refunded" | "disputed" | "estimate"
> &
  Partial<Processing> & { readonly estimate?: string | null | undefined }

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
export const moved = (charge: Charge, expected: RefundedSoFar | undefined): boolean =>
  expected !== undefined &&
  (charge.amountRefunded !== expected.amountRefunded || charge.feeRefunded !== expected.feeRefunded)

/** What a charge's owner may change after it is made: its description and metadata. */
export interface ChargeNotes {
  readonly description: string | null
  readonly metadata: Readonly<Record<string, string>>
}

/** Whether two charges' notes are the same (metadata compared as a set of pairs). */
export const sameNotes = (a: ChargeNotes, b: ChargeNotes): boolean => {
  const keys = Object.keys(a.metadata)
  return (
    a.description === b.description &&
    keys.length === Object.keys(b.metadata).length &&
    keys.every((k) => b.metadata[k] === a.metadata[k])
  )
}

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

/** Why the processor failed a refund it had accepted (docs/design.md §8). */
export interface RefundFailure {
  readonly failureCode: string
  readonly failureMessage: string
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
  /**
   * Fails a `succeeded` refund the processor reported failed after accepting it (docs/design.md
   * §8): the refund becomes `failed` with `failure`, its amounts go back to the charge (which
   * is no longer fully refunded), with the effects made from both as they now are, in one
   * transaction. `won: false` (nothing written) when the refund is not `succeeded` (already
   * failed, or still pending: its own phases settle it).
   */
  readonly failRefund: (
    tenant: Tenant,
    id: string,
    failure: RefundFailure,
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
  /**
   * Replaces a charge's description and metadata with `next` if they are still `expected`: a
   * compare-and-set, so two edits at once never lose one's keys. `StaleCharge` when they moved
   * since the caller read them (read again and retry).
   */
  readonly editNotes: (
    tenant: Tenant,
    id: string,
    expected: ChargeNotes,
    next: ChargeNotes
  ) => Effect.Effect<Charge, RecordNotFound | StaleCharge | StorageError>
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

/** The processing fields of a new record: null unless given. */
const processingOf = (p: Partial<Processing>): Processing => ({
  processor: p.processor ?? null,
  processorKey: p.processorKey ?? null,
  idempotencyKey: p.idempotencyKey ?? null,
  requestFingerprint: p.requestFingerprint ?? null,
  processorReference: p.processorReference ?? null,
  recoverAfterMs: p.recoverAfterMs ?? null
})

/**
 * A new charge as stored: nothing refunded or disputed yet. Written field by field, not as
 * `{ ...defaults, ...c }`: V8 builds an object that starts with two spreads on a slow path,
 * tens of microseconds a charge against under one, most of what the charge write had lost in
 * node CPU (bench/storage.bench.ts). The return type keeps the list complete.
 */
export const newRecord = (c: NewCharge): StoredCharge => ({
  id: c.id,
  accountId: c.accountId,
  livemode: c.livemode,
  created: c.created,
  amount: c.amount,
  convenienceFee: c.convenienceFee,
  totalAmount: c.totalAmount,
  currency: c.currency,
  status: c.status,
  customer: c.customer,
  description: c.description,
  metadata: c.metadata,
  region: c.region,
  cardType: c.cardType,
  feeBreakdown: c.feeBreakdown,
  compliance: c.compliance,
  failureCode: c.failureCode,
  failureMessage: c.failureMessage,
  amountRefunded: 0,
  feeRefunded: 0,
  refunded: false,
  disputed: false,
  details: c.details,
  estimate: c.estimate ?? null,
  ...processingOf(c)
})

/** A new refund as stored: failure and processing fields null unless given (field by field, as `newRecord`). */
export const newRefundRecord = (r: Refund): StoredRefund => ({
  id: r.id,
  accountId: r.accountId,
  livemode: r.livemode,
  chargeId: r.chargeId,
  amount: r.amount,
  feeAmount: r.feeAmount,
  reason: r.reason,
  status: r.status,
  created: r.created,
  metadata: r.metadata,
  failureCode: r.failureCode ?? null,
  failureMessage: r.failureMessage ?? null,
  ...processingOf(r)
})

/** A write the store's own rules make impossible (a fresh event id taken): a store failure. */
export const asStorageError = (error: DuplicateRecord | RecordNotFound) =>
  new StorageError({ message: `settle failed: ${error._tag} ${error.entity} ${error.id}` })

/**
 * What settling writes beside the record: its events, its dispute and the idempotency
 * response, inside the caller's transaction (the same on every store).
 */
export const writeEffects = (
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
export const released = (refund: Refund, s: RefundSettlement) =>
  s.status === "failed"
    ? { amount: refund.amount, fee: refund.feeAmount }
    : { amount: refund.amount - s.amount, fee: refund.feeAmount - s.feeAmount }

/** Charges, refunds and disputes, as a service: `sql/` and `memory/ChargeRepository.ts`. */
export class ChargeRepository extends Context.Tag("@levy/storage/ChargeRepository")<
  ChargeRepository,
  ChargeRepositoryService
>() {}

/** Charges, refunds and disputes in the in-memory store. */
import { Effect, Layer, Option } from "effect"
import {
  type Charge,
  ChargeRepository,
  type ChargeRepositoryService,
  type Dispute,
  moved,
  newRecord,
  newRefundRecord,
  type RecoveryClaim,
  type Refund,
  released,
  type StoredCharge,
  type StoredRefund,
  sameNotes,
  writeEffects
} from "../ChargeRepository.js"
import { EventRepository } from "../EventRepository.js"
import { IdempotencyRepository } from "../IdempotencyRepository.js"
import { DuplicateRecord, RecordNotFound, RefundTooLarge, StaleCharge } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as MemoryStore from "./MemoryStore.js"

const CHARGES = "charges"
const REFUNDS = "refunds"
const CHARGE_KEYS = "charges_by_key"
const REFUND_KEYS = "refunds_by_key"
const DISPUTES = "disputes"

export const make = Effect.gen(function* () {
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
        // A quote is in use while a charge that named it is pending or succeeded.
        const quoted =
          c.estimate == null ? undefined : chargeKeys.get(byKey(tenant, `e:${c.estimate}`))
        if (quoted !== undefined && charges.get(key(c.accountId, quoted))?.status !== "failed")
          return Effect.fail(
            new DuplicateRecord({ entity: "charge_estimate", id: c.estimate ?? "" })
          )
        const charge = newRecord(c)
        w.put(CHARGES, key(c.accountId, c.id), charge)
        if (c.estimate != null) w.put(CHARGE_KEYS, byKey(tenant, `e:${c.estimate}`), c.id)
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
    failRefund: (tenant, id, failure, effects) =>
      store.transaction(
        Effect.gen(function* () {
          const refund = yield* scoped(refunds, "refund", tenant, id)
          const charge = yield* scoped(charges, "refund", tenant, refund.chargeId)
          if (refund.status !== "succeeded") return { won: false, record: { refund, charge } }
          const amountRefunded = charge.amountRefunded - refund.amount
          const record = {
            refund: { ...refund, status: "failed", ...failure },
            charge: {
              ...charge,
              amountRefunded,
              feeRefunded: charge.feeRefunded - refund.feeAmount,
              refunded: amountRefunded === charge.totalAmount
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
    editNotes: (tenant, id, expected, next) =>
      store.write((w) =>
        Effect.gen(function* () {
          const charge = yield* scoped(charges, "charge", tenant, id)
          if (!sameNotes(charge, expected)) return yield* new StaleCharge({ chargeId: id })
          const edited: StoredCharge = { ...charge, ...next }
          w.put(CHARGES, key(tenant.accountId, id), edited)
          return edited
        })
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
          const stored = newRefundRecord(r)
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

export const layer = Layer.effect(ChargeRepository, make)

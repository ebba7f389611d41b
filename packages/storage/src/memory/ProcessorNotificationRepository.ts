/** What applying a processor's notifications needs, in the in-memory store. */
import { Effect, Layer, Option } from "effect"
import type { Dispute, StoredCharge, StoredRefund } from "../ChargeRepository.js"
import {
  type ProcessorDispute,
  ProcessorNotificationRepository,
  type ProcessorNotificationRepositoryService,
  type ReceivedNotification
} from "../ProcessorNotificationRepository.js"
import { DuplicateRecord, RecordNotFound } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as MemoryStore from "./MemoryStore.js"

/** The tables of the in-memory store this repository shares with ChargeRepository. */
const NOTIFICATIONS = "processor_notifications"
const CHARGES = "charges"
const REFUNDS = "refunds"
const DISPUTES = "disputes"

/** Scans, as the memory store is for tests and demos. */
export const make = Effect.gen(function* () {
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
    purge: (beforeMs, limit) =>
      MemoryStore.purge<ReceivedNotification>(
        store,
        NOTIFICATIONS,
        (n) => n.receivedMs < beforeMs,
        (n) => n.receivedMs,
        limit
      ),
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

export const layer = Layer.effect(ProcessorNotificationRepository, make)

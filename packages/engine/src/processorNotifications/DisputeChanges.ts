/**
 * Disputes from processor notifications (docs/design.md §8): a dispute the processor opened on
 * a charge Levy made becomes a Levy dispute (`dispute.created`, the charge marked disputed);
 * its later status changes apply in the processor's order (DisputeOrder.ts) with
 * `dispute.updated`, or `dispute.closed` when won or lost. A dispute whose opening notification
 * has not arrived yet is opened from its first update, with the status that update says.
 */
import { Dispute as DisputeApi } from "@levy/api"
import {
  type EventRepository,
  Ids,
  type ProcessorDispute,
  ProcessorNotificationRepository,
  type StorageError,
  type StoredCharge,
  Tenant
} from "@levy/storage"
import { Effect, Option, Schema } from "effect"
import * as DisputeWire from "../disputes/DisputeWire.js"
import * as Outbox from "../events/Outbox.js"
import type { DisputeOpened, DisputeUpdated } from "../processors/PaymentProcessor.js"
import type { Change } from "./Change.js"
import * as DisputeOrder from "./DisputeOrder.js"

const encodeDispute = Schema.encodeSync(DisputeApi.Dispute)
const now = () => Math.floor(Date.now() / 1000)

/** Writes the event of a dispute as it now is. */
const eventOf = (type: string, dispute: ProcessorDispute, charge: StoredCharge, at: number) =>
  Outbox.record(
    Tenant.make(dispute.accountId, dispute.livemode),
    type,
    encodeDispute(DisputeWire.toWire(dispute, charge.currency)),
    at
  )

/** Opens the dispute a notification reports on `charge`, with its `dispute.created`. */
const open = (charge: StoredCharge, n: DisputeOpened | DisputeUpdated) =>
  Effect.gen(function* () {
    const repo = yield* ProcessorNotificationRepository
    const at = now()
    const dispute = yield* repo
      .openDispute({
        id: yield* Effect.flatMap(Ids, (ids) => ids.make("dp")),
        accountId: charge.accountId,
        livemode: charge.livemode,
        chargeId: charge.id,
        amount: n.amount,
        status: n.status,
        reason: n.reason,
        created: at,
        updated: at,
        processorReference: n.disputeReference,
        processorUpdatedAt: n.occurredAt
      })
      .pipe(
        // The charge was locked and the reference looked up in this transaction: neither can be.
        Effect.catchTags({ DuplicateRecord: Effect.die, RecordNotFound: Effect.die })
      )
    yield* eventOf("dispute.created", dispute, charge, at)
    return "applied" as const
  })

/** The charge a dispute notification is about, locked; none when Levy did not make it. */
const chargeOf = (tenant: Tenant.Tenant, n: DisputeOpened | DisputeUpdated) =>
  Effect.flatMap(ProcessorNotificationRepository, (repo) =>
    repo.chargeByReference(tenant, n.paymentReference)
  )

/** Applies a processor's dispute notification to `tenant`'s state. */
export const apply = (
  tenant: Tenant.Tenant,
  n: DisputeOpened | DisputeUpdated
): Effect.Effect<Change, StorageError, ProcessorNotificationRepository | Ids | EventRepository> =>
  Effect.gen(function* () {
    const repo = yield* ProcessorNotificationRepository
    // The charge first: every change to one payment takes its lock in the same order.
    const charge = yield* chargeOf(tenant, n)
    if (Option.isNone(charge)) return "unknown_payment"
    const known = yield* repo.disputeByReference(tenant, n.disputeReference)
    if (Option.isNone(known)) return yield* open(charge.value, n)
    if (n._tag === "DisputeOpened") return "known"
    const dispute = known.value
    const decision = DisputeOrder.decide(dispute, n)
    if (decision === "stale") return "known"
    const at = now()
    const updated = yield* repo
      .updateDispute(tenant, dispute.id, {
        status: n.status,
        processorUpdatedAt: n.occurredAt,
        updated: at
      })
      .pipe(Effect.catchTag("RecordNotFound", Effect.die))
    if (decision === "same") return "applied"
    const type = DisputeOrder.isClosed(n.status) ? "dispute.closed" : "dispute.updated"
    yield* eventOf(type, updated, charge.value, at)
    return "applied"
  })

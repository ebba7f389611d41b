/**
 * Phases 2 and 3 of a charge (docs/design.md §4), shared by the request that wrote it pending,
 * a retry with the same Idempotency-Key, and the recovery sweeper: collect with the keys fixed
 * in the pending row (Collect.ts), then settle it in one transaction with its event, the
 * processor's dispute if any, and the response the request answers, stored for its key. The
 * settle is conditional, so whoever comes second writes nothing and answers what the first
 * stored: the response is a function of the stored charge alone (`responseOf`).
 */
import { Dispute as DisputeApi, Charge as Wire } from "@levy/api"
import {
  ChargeRepository,
  type ChargeSettlement,
  type Dispute,
  type Event,
  Ids,
  type Json,
  type JsonObject,
  StorageError,
  type Charge as Stored,
  type StoredCharge,
  type StoredResponse,
  storedFailure,
  storedSuccess
} from "@levy/storage"
import { Effect, Schema } from "effect"
import * as DisputeWire from "../disputes/DisputeWire.js"
import type {
  ChargeSucceeded,
  PaymentProcessor,
  ProcessorUnavailable
} from "../processors/PaymentProcessor.js"
import * as ChargeWire from "./ChargeWire.js"
import * as Collect from "./Collect.js"
import * as ProcessorRefusals from "./ProcessorRefusals.js"
import * as TestCrash from "./TestCrash.js"

/**
 * How long a pending charge or refund is left to the request working on it before the recovery
 * sweeper may take it: well beyond the longest a request runs (idempotency/Deadline.ts, 20 s),
 * so the sweeper never races a live request.
 */
export const LEASE_MS = 60_000

const encodeCharge = Schema.encodeSync(Wire.Charge)
const encodeDispute = Schema.encodeSync(DisputeApi.Dispute)
const now = () => Math.floor(Date.now() / 1000)

/**
 * The metadata recorded on the payment: every key of the charge's (the request's were checked
 * against the processors' limits with room for Levy's own, `MetadataCreate`), and Levy's
 * charge id and account.
 */
const processorMetadata = (charge: Stored): Record<string, string> => ({
  ...charge.metadata,
  levy_charge: charge.id,
  levy_account: charge.accountId
})

/** What to collect for a pending charge: its stored amounts, never a new quote. */
export const planOf = (charge: StoredCharge, resumed: boolean): Collect.Plan => {
  const details = ChargeWire.detailsOf(charge)
  return {
    key: charge.processorKey ?? `levy_${charge.id}`,
    source: details.source,
    currency: charge.currency,
    billingMode: details.billingMode,
    base: charge.amount,
    fee: charge.convenienceFee,
    description: charge.description ?? undefined,
    metadata: processorMetadata(charge),
    resumed,
    createdMs: charge.created * 1000
  }
}

/** Why a charge failed, kept in `details.failure`: what its request's error says, at every door. */
export interface Failure {
  /**
   * `declined` by the card's issuer; or refused by the processor: as a whole (`refused`), for
   * one of the request's fields (`request_refused`), or for its source (`source_invalid`).
   */
  readonly kind: "declined" | "refused" | "request_refused" | "source_invalid"
  readonly declineCode?: string | undefined
  /** The request's field the processor refused (`request_refused`). */
  readonly param?: string | undefined
}

/** Why a failed charge failed, as its settle kept it (a charge settled before it was kept: none). */
export const failureOf = (charge: Stored): Failure | undefined =>
  (charge.details as { failure?: Failure }).failure

/**
 * The response a settled charge's request stores for its key: the charge, or its failure (read
 * back from the charge on replay); `encoded` is the charge as the wire encodes it when the
 * caller has it already (a charge is encoded once per settle).
 */
export const responseOf = (charge: Stored, encoded?: Json): StoredResponse =>
  charge.status === "failed"
    ? storedFailure("charge")
    : storedSuccess(encoded ?? (encodeCharge(ChargeWire.toWire(charge)) as unknown as Json))

/** The stored outcome of a collection that ended. */
const settlementOf = (
  charge: StoredCharge,
  collected: Exclude<Collect.Collected, { readonly _tag: "Pending" }>
): ChargeSettlement => {
  const details = charge.details
  const unwind = collected._tag === "Succeeded" ? undefined : collected.unwind
  const failed = (failure: Failure, code: string, message: string): ChargeSettlement => ({
    status: "failed",
    failureCode: code,
    failureMessage: message,
    processorReference: null,
    details: {
      ...details,
      failure: failure as unknown as JsonObject,
      ...(unwind === undefined ? {} : { unwind: unwind as unknown as JsonObject })
    }
  })
  switch (collected._tag) {
    case "Succeeded":
      return {
        status: "succeeded",
        processorReference: collected.reference,
        details: { ...details, transactions: collected.transactions as unknown as Json }
      }
    case "Declined":
      return failed(
        { kind: "declined", declineCode: collected.declineCode },
        collected.code,
        collected.message
      )
    case "Refused": {
      const error =
        collected.error._tag === "SourceInvalid"
          ? ProcessorRefusals.sourceInvalid(collected.error)
          : ProcessorRefusals.refused(collected.error)
      const failure: Failure =
        collected.error._tag === "SourceInvalid"
          ? { kind: "source_invalid" }
          : collected.error.param === undefined
            ? { kind: "refused" }
            : { kind: "request_refused", param: collected.error.param }
      return failed(failure, error.code, error.message)
    }
  }
}

/** An event of a charge, naming the request's key as the request's own events do. */
const eventOf = (
  charge: Stored & { readonly idempotencyKey: string | null },
  id: string,
  type: string,
  object: unknown,
  created: number
): Event => ({
  id,
  accountId: charge.accountId,
  livemode: charge.livemode,
  type,
  data: { object: object as Json },
  request: charge.idempotencyKey === null ? null : { idempotencyKey: charge.idempotencyKey },
  created
})

/** Ids for the dispute a processor reported with the payment, and its events. */
interface DisputeIds {
  readonly dispute: string
  readonly created: string
  readonly closed: string
}

/**
 * The dispute a processor reported with the payment (only the simulator does), as stored: open,
 * or already won or lost; and its events, `dispute.created` with the dispute as it opened, then
 * `dispute.closed` when it ended.
 */
const reportedDispute = (
  settled: StoredCharge,
  reported: NonNullable<ChargeSucceeded["dispute"]>,
  ids: DisputeIds,
  at: number
): { readonly dispute: Dispute; readonly events: ReadonlyArray<Event> } => {
  const opened: Dispute = {
    id: ids.dispute,
    accountId: settled.accountId,
    livemode: settled.livemode,
    chargeId: settled.id,
    amount: settled.totalAmount,
    status: "needs_response",
    reason: reported.reason,
    created: at,
    updated: at
  }
  const eventOfDispute = (id: string, type: string, dispute: Dispute) =>
    eventOf(settled, id, type, encodeDispute(DisputeWire.toWire(dispute, settled.currency)), at)
  if (reported.outcome === undefined)
    return { dispute: opened, events: [eventOfDispute(ids.created, "dispute.created", opened)] }
  const closed: Dispute = { ...opened, status: reported.outcome }
  return {
    dispute: closed,
    events: [
      eventOfDispute(ids.created, "dispute.created", opened),
      eventOfDispute(ids.closed, "dispute.closed", closed)
    ]
  }
}

/**
 * Phase 3: settles the pending charge with what the processor did, its events, the
 * processor's dispute and the stored response, if nobody settled it first.
 */
export const settle = (
  charge: StoredCharge,
  collected: Exclude<Collect.Collected, { readonly _tag: "Pending" }>
) =>
  Effect.gen(function* () {
    const ids = yield* Ids
    const charges = yield* ChargeRepository
    const eventId = yield* ids.make("evt")
    const reported = collected._tag === "Succeeded" ? collected.dispute : undefined
    // Ids for a dispute only when the processor reported one (most charges have none).
    const disputeIds: DisputeIds | undefined =
      reported === undefined
        ? undefined
        : {
            dispute: yield* ids.make("dp"),
            created: yield* ids.make("evt"),
            closed: yield* ids.make("evt")
          }
    const at = now()
    return yield* charges.settleCharge(
      charge,
      charge.id,
      settlementOf(charge, collected),
      (row) => {
        const found =
          reported === undefined || disputeIds === undefined
            ? undefined
            : reportedDispute(row, reported, disputeIds, at)
        // The dispute is written in the same transaction: the charge answered is disputed.
        const settled = found === undefined ? row : { ...row, disputed: true }
        const body = encodeCharge(ChargeWire.toWire(settled)) as unknown as Json
        const type = settled.status === "succeeded" ? "charge.succeeded" : "charge.failed"
        return {
          events: [eventOf(settled, eventId, type, body, at), ...(found?.events ?? [])],
          dispute: found?.dispute,
          idempotency:
            settled.idempotencyKey === null
              ? undefined
              : {
                  key: settled.idempotencyKey,
                  fingerprint: settled.requestFingerprint,
                  response: responseOf(settled, body)
                }
        }
      }
    )
  }).pipe(
    Effect.catchTag("RecordNotFound", (e) =>
      Effect.fail(new StorageError({ message: `pending charge ${e.id} vanished` }))
    )
  )

/**
 * Phases 2 and 3 for a pending charge. The charge as stored afterwards: settled (by this call
 * or by whoever came first), or still pending when the processor left the payment pending.
 * Fails `ProcessorUnavailable` (outcome unknown: the charge stays pending) or `StorageError`.
 */
export const run = (
  processor: PaymentProcessor,
  charge: StoredCharge,
  resumed: boolean
): Effect.Effect<StoredCharge, ProcessorUnavailable | StorageError, ChargeRepository | Ids> =>
  Effect.gen(function* () {
    const collected = yield* Collect.collect(processor, planOf(charge, resumed))
    yield* TestCrash.afterProcessor(charge.idempotencyKey)
    if (collected._tag === "Pending") return charge
    return (yield* settle(charge, collected)).record
  })

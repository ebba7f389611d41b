/**
 * Refunding part or all of a charge (docs/design.md §4), free of HTTP, in three phases:
 * (1) planned on the charge as it stands (`RefundPlan`) and written `pending` with its
 * processor key, its amounts reserved on the charge, only if no other refund of the charge
 * committed since (else planned again), so concurrent refunds never give back more than was
 * charged nor keep a cent of the fee; (2) given back through the processor under that key;
 * (3) settled with `charge.refunded` and the response for the request's key, or failed,
 * releasing the reservation (RefundPhases.ts). A charge whose dispute is open, or was lost, is
 * not refunded.
 */
import type { RefundCreate, Refund as Wire } from "@levy/api"
import {
  type Charge,
  ChargeRepository,
  IdempotencyKeyInUse,
  type IdempotencyKeyReused,
  IdempotencyRepository,
  Ids,
  StorageError,
  type StoredCharge,
  type StoredRefund,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, Option } from "effect"
import { ChargeNotFound, OutcomeUnknown } from "../charges/ChargeErrors.js"
import * as ChargePhases from "../charges/ChargePhases.js"
import * as TenantCharge from "../charges/TenantCharge.js"
import * as Payment from "../estimates/Payment.js"
import type { ProcessorNotConfigured } from "../estimates/PaymentErrors.js"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import type { PaymentProcessor } from "../processors/PaymentProcessor.js"
import { PaymentProcessors } from "../processors/PaymentProcessors.js"
import {
  ChargeDisputed,
  RefundContended,
  RefundExceedsCharge,
  RefundFailed,
  type RefundNotPossible
} from "./RefundErrors.js"
import * as RefundPhases from "./RefundPhases.js"
import * as RefundPlan from "./RefundPlan.js"
import * as RefundWire from "./RefundWire.js"

export type CreateRefundError =
  | ChargeNotFound
  | ChargeDisputed
  | RefundNotPossible
  | RefundExceedsCharge
  | RefundContended
  | RefundFailed
  | ProcessorNotConfigured
  | OutcomeUnknown
  | IdempotencyKeyReused
  | IdempotencyKeyInUse
  | StorageError

export type CreateRefundServices =
  | ChargeRepository
  | IdempotencyRepository
  | Ids
  | PaymentProcessors
  | Transactions

const now = () => Math.floor(Date.now() / 1000)

/** How often a refund is planned again; each time means another refund of its charge committed first. */
const STALE_RETRIES = 10

/** Dispute statuses that are still open. */
const OPEN_DISPUTES: ReadonlyArray<string> = ["needs_response", "under_review"]

/** Whether `statuses` (of a charge's disputes) forbid refunding it: one open, or one lost. */
const disputeBlocking = (statuses: ReadonlyArray<string>): "open" | "lost" | undefined =>
  statuses.some((status) => OPEN_DISPUTES.includes(status))
    ? "open"
    : statuses.includes("lost")
      ? "lost"
      : undefined

/**
 * Refuses a refund of a charge under an open dispute, or whose dispute was lost (the network
 * paid the cardholder back, as Stripe refuses a charged-back charge); one won may be refunded.
 */
const checkNotDisputed = (tenant: Tenant.Tenant, charge: Charge) =>
  !charge.disputed
    ? Effect.void
    : Effect.flatMap(ChargeRepository, (charges) =>
        Effect.flatMap(charges.listDisputes(tenant, { charge: charge.id, limit: 100 }), (page) => {
          const dispute = disputeBlocking(page.data.map((d) => d.status))
          return dispute === undefined
            ? Effect.void
            : Effect.fail(new ChargeDisputed({ chargeId: charge.id, dispute }))
        })
      )

/** What the refund as stored answers: the refund, or its failure. */
const answer = (claim: Option.Option<Claims.Claim>, refund: StoredRefund, currency: string) =>
  refund.status === "failed"
    ? Effect.fail(new RefundFailed({ refund }))
    : Effect.succeed(Written.stored(claim, RefundWire.toWire(refund, currency)))

/** Phases 2 and 3 for a pending refund, and the answer. */
const finish = (
  processor: PaymentProcessor,
  refund: StoredRefund,
  charge: StoredCharge,
  claim: Option.Option<Claims.Claim>,
  resumed: boolean
) =>
  Effect.gen(function* () {
    const after = yield* RefundPhases.run(processor, refund, charge, resumed).pipe(
      Effect.catchTag("ProcessorUnavailable", (error) =>
        Effect.fail(new OutcomeUnknown({ error, pending: `refund ${refund.id}` }))
      )
    )
    return yield* answer(claim, after.refund, after.charge.currency)
  })

/** A refund made earlier under the request's key: its answer, or its completion if pending. */
const resume = (
  tenant: Tenant.Tenant,
  processor: PaymentProcessor,
  claim: Claims.Claim,
  found: StoredRefund
) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    yield* Claims.sameRequest(claim, found.requestFingerprint)
    const refund =
      found.status === "pending"
        ? yield* charges.leaseRefund(tenant, found.id, Date.now() + ChargePhases.LEASE_MS)
        : found
    const charge = (yield* charges.get(tenant, refund.chargeId)) as StoredCharge
    if (refund.status !== "pending") {
      // Stored for the key whether or not the claim survived.
      const idempotency = yield* IdempotencyRepository
      const response = RefundPhases.responseOf(refund, charge.currency)
      yield* idempotency.settle(tenant, claim.key, claim.fingerprint, response)
      return yield* answer(Option.some(claim), refund, charge.currency)
    }
    return yield* finish(processor, refund, charge, Option.some(claim), true)
  })

/** Phase 1: plans the refund on the charge as it stands and writes it pending, reserved. */
const reserve = (
  tenant: Tenant.Tenant,
  id: string,
  input: RefundCreate.RefundCreate,
  claim: Option.Option<Claims.Claim>
) =>
  Effect.gen(function* () {
    const transactions = yield* Transactions
    const charges = yield* ChargeRepository
    const processors = yield* PaymentProcessors
    return yield* transactions
      .run(
        Effect.gen(function* () {
          const charge = yield* TenantCharge.get(tenant, input.charge)
          yield* checkNotDisputed(tenant, charge)
          const { base, fee } = yield* RefundPlan.plan(charge, input)
          const processor = yield* Payment.processorFor(processors, tenant)
          const reserved = yield* charges.refund(
            {
              id,
              accountId: tenant.accountId,
              livemode: tenant.livemode,
              chargeId: charge.id,
              amount: base + fee,
              feeAmount: fee,
              reason: input.reason ?? null,
              status: "pending",
              created: now(),
              metadata: input.metadata ?? {},
              processor: processor.name,
              processorKey: `levy_${id}`,
              idempotencyKey: Claims.keyOf(claim),
              requestFingerprint: Claims.fingerprintOf(claim),
              processorReference: null,
              recoverAfterMs: Date.now() + ChargePhases.LEASE_MS
            },
            { amountRefunded: charge.amountRefunded, feeRefunded: charge.feeRefunded }
          )
          return { processor, reserved }
        })
      )
      .pipe(
        // Another refund of the charge committed between our read and our write: plan again.
        Effect.retry({ while: (e) => e._tag === "StaleCharge", times: STALE_RETRIES })
      )
  })

/**
 * Refunds `input.charge` of `tenant`, under `claim` when the request carries an
 * Idempotency-Key. The refund as the wire shows it, and what was done with the claim.
 */
export const createRefund = (
  tenant: Tenant.Tenant,
  input: RefundCreate.RefundCreate,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<Written.Written<Wire.Refund>, CreateRefundError, CreateRefundServices> =>
  Effect.gen(function* () {
    if (Option.isSome(claim)) {
      const charges = yield* ChargeRepository
      const found = yield* charges.findRefundByIdempotencyKey(tenant, claim.value.key)
      if (Option.isSome(found)) {
        const processor = yield* Payment.processorFor(yield* PaymentProcessors, tenant)
        return yield* resume(tenant, processor, claim.value, found.value)
      }
    }
    const id = yield* Effect.flatMap(Ids, (ids) => ids.make("re"))
    const { processor, reserved } = yield* reserve(tenant, id, input, claim)
    return yield* finish(
      processor,
      reserved.refund as StoredRefund,
      reserved.charge as StoredCharge,
      claim,
      false
    )
  }).pipe(
    Effect.catchTags({
      RecordNotFound: (e) =>
        Effect.fail(
          e.entity === "charge"
            ? new ChargeNotFound({ tenant, chargeId: e.id, inOtherMode: false })
            : new StorageError({ message: `${e.entity} ${e.id} vanished` })
        ),
      RefundTooLarge: (e) => Effect.fail(new RefundExceedsCharge({ chargeId: e.chargeId })),
      StaleCharge: (e) => Effect.fail(new RefundContended({ chargeId: e.chargeId })),
      // Only the key can clash (the id is fresh): a request under it is still running.
      DuplicateRecord: () =>
        Effect.fail(new IdempotencyKeyInUse({ key: Claims.keyOf(claim) ?? "" }))
    })
  )

/**
 * The refunds group (docs/design.md §4): refund part or all of a charge, retrieve one refund,
 * list them. A refund is made in three phases: (1) planned on the charge as it stands
 * (`RefundPlan`) and written `pending` with its processor key, its amounts reserved on the
 * charge, only if no other refund of the charge committed since (else planned again), so
 * concurrent refunds never give back more than was charged nor keep a cent of the fee;
 * (2) given back through the processor under that key; (3) settled with `charge.refunded` and
 * the stored response, or failed, releasing the reservation (RefundPhases.ts). A charge whose
 * dispute is open is not refunded.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ApiError, CurrentKey } from "@levy/api"
import {
  type Charge,
  ChargeRepository,
  IdempotencyRepository,
  Ids,
  StorageError,
  type StoredCharge,
  type StoredRefund,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, Option } from "effect"
import { withCurrencies, withCurrency } from "../charges/ChargeCurrencies.js"
import * as ChargePhases from "../charges/ChargePhases.js"
import * as Payment from "../charges/Payment.js"
import * as ProcessorErrors from "../charges/ProcessorErrors.js"
import * as Config from "../feeConfigs/Config.js"
import * as Idempotency from "../http/Idempotency.js"
import * as Listing from "../http/Listing.js"
import * as OtherMode from "../http/OtherMode.js"
import type { PaymentProcessor } from "../processors/PaymentProcessor.js"
import { PaymentProcessors } from "../processors/PaymentProcessors.js"
import { ServerApi } from "../ServerApi.js"
import * as RefundPhases from "./RefundPhases.js"
import * as RefundPlan from "./RefundPlan.js"
import * as RefundWire from "./RefundWire.js"

const URL_PATH = "/v1/refunds"

const now = () => Math.floor(Date.now() / 1000)

const noSuchCharge = (id: string) => ApiError.noSuch("charge", id, "charge")

/** The store refused the refund as too large: another refund got there first. */
const tooLarge = (chargeId: string) =>
  new ApiError.InvalidRequestError({
    code: "amount_too_large",
    message: `The refund is more than what is left to refund of charge ${chargeId}.`,
    param: "amount"
  })

/** How often a refund is planned again; each time means another refund of its charge committed first. */
const STALE_RETRIES = 10

/** Refunds of one charge kept racing this one: the caller may simply retry. */
const contended = (chargeId: string) =>
  new ApiError.ServiceUnavailableError({
    message: `Charge ${chargeId} is being refunded by other requests at the same time; retry.`
  })

/** A charge whose dispute is open: giving money back now would pay the cardholder twice. */
const disputed = (chargeId: string) =>
  new ApiError.InvalidRequestError({
    code: "charge_disputed",
    param: "charge",
    message: `Charge ${chargeId} has an open dispute, so it cannot be refunded: the card network returns the money if the cardholder wins. Respond to the dispute at your payment processor instead; once it is closed, a refund is possible again.`
  })

/** Dispute statuses that are still open. */
const OPEN_DISPUTES: ReadonlyArray<string> = ["needs_response", "under_review"]

export const RefundsLive = HttpApiBuilder.group(ServerApi, "refunds", (handlers) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    const transactions = yield* Transactions
    const processors = yield* PaymentProcessors
    const ids = yield* Ids
    const idempotency = yield* IdempotencyRepository

    /** The charge of the tenant; another account's or mode's is a 404 on `charge`. */
    const chargeOf = (tenant: Tenant.Tenant, id: string) =>
      charges
        .get(tenant, id)
        .pipe(
          Effect.catchTag("RecordNotFound", () =>
            OtherMode.noSuch(tenant, "charge", id, (other) => charges.get(other, id), "charge")
          )
        )

    /** Refuses a refund of a charge under an open dispute. */
    const checkNotDisputed = (tenant: Tenant.Tenant, charge: Charge) =>
      !charge.disputed
        ? Effect.void
        : Effect.flatMap(charges.listDisputes(tenant, { charge: charge.id, limit: 100 }), (page) =>
            page.data.some((d) => OPEN_DISPUTES.includes(d.status))
              ? Effect.fail(disputed(charge.id))
              : Effect.void
          )

    /** Phases 2 and 3 for a pending refund, and the answer. */
    const finish = (
      processor: PaymentProcessor,
      refund: StoredRefund,
      charge: StoredCharge,
      resumed: boolean
    ) =>
      Effect.gen(function* () {
        const after = yield* RefundPhases.run(processor, refund, charge, resumed).pipe(
          Effect.provideService(ChargeRepository, charges),
          Effect.provideService(Ids, ids),
          Effect.catchTag("ProcessorUnavailable", (e) =>
            ProcessorErrors.unavailable(e, `refund ${refund.id}`)
          )
        )
        yield* Idempotency.answered
        return yield* answer(after.refund, after.charge.currency)
      })

    const answer = (refund: StoredRefund, currency: string) =>
      refund.status === "failed"
        ? Effect.fail(RefundPhases.failure(refund))
        : Effect.succeed(RefundWire.toWire(refund, currency))

    /** A refund made earlier under the request's key: answer it, or resume it if pending. */
    const resume = (
      tenant: Tenant.Tenant,
      processor: PaymentProcessor,
      claim: Idempotency.Claim,
      found: StoredRefund
    ) =>
      Effect.gen(function* () {
        yield* Idempotency.sameRequest(claim, found.requestFingerprint)
        const refund =
          found.status === "pending"
            ? yield* charges.leaseRefund(tenant, found.id, Date.now() + ChargePhases.LEASE_MS)
            : found
        const charge = (yield* charges.get(tenant, refund.chargeId)) as StoredCharge
        if (refund.status !== "pending") {
          const response = RefundPhases.responseOf(refund, charge.currency)
          // Stored for the key whether or not the claim survived (never a defect: a 503 at worst).
          yield* idempotency.settle(tenant, claim.key, claim.fingerprint, response)
          yield* Idempotency.answered
          return yield* answer(refund, charge.currency)
        }
        return yield* finish(processor, refund, charge, true)
      })

    /** Phase 1: plans the refund on the charge as it stands and writes it pending, reserved. */
    const reserve = (
      tenant: Tenant.Tenant,
      id: string,
      payload: Parameters<typeof RefundPlan.plan>[1] & {
        readonly charge: string
        readonly reason?: string | undefined
      }
    ) =>
      Effect.flatMap(Idempotency.currentClaim, (claim) =>
        transactions
          .run(
            Effect.gen(function* () {
              const charge = yield* chargeOf(tenant, payload.charge)
              yield* checkNotDisputed(tenant, charge)
              const { base, fee } = yield* RefundPlan.plan(charge, payload)
              const processor = yield* Payment.processorFor(processors, tenant)
              const reserved = yield* charges.refund(
                {
                  id,
                  accountId: tenant.accountId,
                  livemode: tenant.livemode,
                  chargeId: charge.id,
                  amount: base + fee,
                  feeAmount: fee,
                  reason: payload.reason ?? null,
                  status: "pending",
                  created: now(),
                  metadata: {},
                  processor: processor.name,
                  processorKey: `levy_${id}`,
                  idempotencyKey: Option.match(claim, { onNone: () => null, onSome: (c) => c.key }),
                  requestFingerprint: Option.match(claim, {
                    onNone: () => null,
                    onSome: (c) => c.fingerprint
                  }),
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
      )

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          const claim = yield* Idempotency.currentClaim
          if (Option.isSome(claim)) {
            const found = yield* charges.findRefundByIdempotencyKey(tenant, claim.value.key)
            if (Option.isSome(found)) {
              const processor = yield* Payment.processorFor(processors, tenant)
              return yield* resume(tenant, processor, claim.value, found.value)
            }
          }
          const id = yield* ids.make("re")
          const { processor, reserved } = yield* reserve(tenant, id, payload)
          return yield* finish(
            processor,
            reserved.refund as StoredRefund,
            reserved.charge as StoredCharge,
            false
          )
        }).pipe(
          Effect.catchTags({
            RecordNotFound: (e) =>
              e.entity === "charge"
                ? Effect.fail(noSuchCharge(e.id))
                : Config.unavailable(new StorageError({ message: `${e.entity} ${e.id} vanished` })),
            RefundTooLarge: (e) => Effect.fail(tooLarge(e.chargeId)),
            StaleCharge: (e) => Effect.fail(contended(e.chargeId)),
            DuplicateRecord: () =>
              Effect.fail(
                new ApiError.IdempotencyError({
                  message:
                    "A request with this Idempotency-Key is still being processed; retry after it finishes."
                })
              ),
            StorageError: Config.unavailable
          })
        )
      )
      .handle("retrieve", ({ path }) =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          const refund = yield* charges.getRefund(tenant, path.id)
          return yield* withCurrency(tenant, refund, RefundWire.toWire)
        }).pipe(
          Effect.provideService(ChargeRepository, charges),
          Effect.catchTags({
            RecordNotFound: () =>
              Effect.flatMap(CurrentKey.CurrentKey, (key) =>
                OtherMode.noSuch(Config.tenantOf(key), "refund", path.id, (other) =>
                  charges.getRefund(other, path.id)
                )
              ),
            StorageError: Config.unavailable
          })
        )
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          return yield* Listing.respondPage(
            urlParams,
            URL_PATH,
            (request) => charges.listRefunds(tenant, { ...request, charge: urlParams.charge }),
            (refunds) => withCurrencies(tenant, refunds, RefundWire.toWire)
          )
        }).pipe(
          Effect.provideService(ChargeRepository, charges),
          Effect.catchTag("StorageError", Config.unavailable)
        )
      )
  })
)

/**
 * The refunds group (docs/design.md §4): refund part or all of a charge, retrieve one refund,
 * list them. A refund, the charge it changes, its `charge.refunded` event and the stored
 * idempotency response commit in one transaction; the refund is planned inside it, from
 * the charge as it stands there (`RefundPlan`), and the store writes it only if no other
 * refund of the charge committed since (else it is planned again), so concurrent refunds
 * never give back more than was charged nor keep a cent of the fee.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ApiError, CurrentKey, Refund } from "@levy/api"
import {
  type Charge,
  ChargeRepository,
  EventRepository,
  Ids,
  Tenant,
  Transactions
} from "@levy/storage"
import { Effect } from "effect"
import { withCurrencies, withCurrency } from "../charges/ChargeCurrencies.js"
import * as ChargeWire from "../charges/ChargeWire.js"
import * as Outbox from "../events/Outbox.js"
import * as Config from "../feeConfigs/Config.js"
import * as Idempotency from "../http/Idempotency.js"
import * as Listing from "../http/Listing.js"
import * as OtherMode from "../http/OtherMode.js"
import { ServerApi } from "../ServerApi.js"
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

export const RefundsLive = HttpApiBuilder.group(ServerApi, "refunds", (handlers) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    const _events = yield* EventRepository
    const transactions = yield* Transactions
    const ids = yield* Ids

    /** The charge of the tenant; another account's or mode's is a 404 on `charge`. */
    const chargeOf = (tenant: Tenant.Tenant, id: string) =>
      charges
        .get(tenant, id)
        .pipe(
          Effect.catchTag("RecordNotFound", () =>
            OtherMode.noSuch(tenant, "charge", id, (other) => charges.get(other, id), "charge")
          )
        )

    /** The `charge.refunded` event: the charge as it is after the refund. */
    const refundedEvent = (charge: Charge, created: number) =>
      Outbox.record(
        Tenant.make(charge.accountId, charge.livemode),
        "charge.refunded",
        ChargeWire.toWire(charge),
        created
      )

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          const id = yield* ids.make("re")
          return yield* transactions
            .run(
              Effect.gen(function* () {
                const charge = yield* chargeOf(tenant, payload.charge)
                const { base, fee } = yield* RefundPlan.plan(charge, payload)
                const created = now()
                const done = yield* charges.refund(
                  {
                    id,
                    accountId: tenant.accountId,
                    livemode: tenant.livemode,
                    chargeId: charge.id,
                    amount: base + fee,
                    feeAmount: fee,
                    reason: payload.reason ?? null,
                    status: "succeeded",
                    created,
                    metadata: {}
                  },
                  { amountRefunded: charge.amountRefunded, feeRefunded: charge.feeRefunded }
                )
                yield* refundedEvent(done.charge, created)
                const wire = RefundWire.toWire(done.refund, done.charge.currency)
                yield* Idempotency.recordSuccess(Refund.Refund, wire)
                return wire
              })
            )
            .pipe(
              // Another refund of the charge committed between our read and our write: plan again.
              Effect.retry({ while: (e) => e._tag === "StaleCharge", times: STALE_RETRIES })
            )
        }).pipe(
          Effect.catchTags({
            RecordNotFound: (e) => Effect.fail(noSuchCharge(e.id)),
            RefundTooLarge: (e) => Effect.fail(tooLarge(e.chargeId)),
            StaleCharge: (e) => Effect.fail(contended(e.chargeId)),
            DuplicateRecord: Effect.die,
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

/**
 * The refunds group over HTTP: create (the workflow in createRefund.ts), retrieve and list.
 */
import { CurrentKey } from "@levy/api"
import { withCurrencies, withCurrency } from "@levy/engine/charges/ChargeCurrencies.js"
import { createRefund } from "@levy/engine/refunds/createRefund.js"
import * as RefundWire from "@levy/engine/refunds/RefundWire.js"
import { ChargeRepository } from "@levy/storage"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as OtherMode from "../http/OtherMode.js"
import * as Unavailable from "../http/Unavailable.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/refunds"

export const RefundsLive = ApiHandlers.group("refunds", (handlers) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository

    return handlers
      .handle("create", ({ payload }) =>
        Handle.write((tenant, claim) => createRefund(tenant, payload, claim))
      )
      .handle("retrieve", ({ path }) =>
        Effect.gen(function* () {
          const tenant = Handle.tenantOf(yield* CurrentKey.CurrentKey)
          const refund = yield* charges.getRefund(tenant, path.id)
          return yield* withCurrency(tenant, refund, RefundWire.toWire)
        }).pipe(
          Effect.provideService(ChargeRepository, charges),
          Effect.catchTags({
            RecordNotFound: () =>
              Effect.flatMap(CurrentKey.CurrentKey, (key) =>
                OtherMode.noSuch(Handle.tenantOf(key), "refund", path.id, (other) =>
                  charges.getRefund(other, path.id)
                )
              ),
            StorageError: Unavailable.unavailable
          })
        )
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const tenant = Handle.tenantOf(yield* CurrentKey.CurrentKey)
          return yield* Listing.respondPage(
            urlParams,
            URL_PATH,
            (request) => charges.listRefunds(tenant, { ...request, charge: urlParams.charge }),
            (refunds) => withCurrencies(tenant, refunds, RefundWire.toWire)
          )
        }).pipe(
          Effect.provideService(ChargeRepository, charges),
          Effect.catchTag("StorageError", Unavailable.unavailable)
        )
      )
  })
)

/**
 * The disputes group (docs/design.md §4): retrieve one dispute, list them by charge and status.
 * Disputes are opened by the processor (in test mode, `tok_chargeDispute`), never by a
 * request; the currency shown is the disputed charge's.
 */
import { CurrentKey } from "@levy/api"
import { withCurrencies, withCurrency } from "@levy/engine/charges/ChargeCurrencies.js"
import * as DisputeWire from "@levy/engine/disputes/DisputeWire.js"
import { ChargeRepository } from "@levy/storage"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as OtherMode from "../http/OtherMode.js"
import * as Unavailable from "../http/Unavailable.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/disputes"

export const DisputesLive = ApiHandlers.group("disputes", (handlers) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    return handlers
      .handle("retrieve", ({ path }) =>
        Effect.gen(function* () {
          const tenant = Handle.tenantOf(yield* CurrentKey.CurrentKey)
          const dispute = yield* charges.getDispute(tenant, path.id)
          return yield* withCurrency(tenant, dispute, DisputeWire.toWire)
        }).pipe(
          Effect.provideService(ChargeRepository, charges),
          Effect.catchTags({
            RecordNotFound: () =>
              Effect.flatMap(CurrentKey.CurrentKey, (key) =>
                OtherMode.noSuch(Handle.tenantOf(key), "dispute", path.id, (other) =>
                  charges.getDispute(other, path.id)
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
            (request) =>
              charges.listDisputes(tenant, {
                ...request,
                charge: urlParams.charge,
                status: urlParams.status
              }),
            (disputes) => withCurrencies(tenant, disputes, DisputeWire.toWire)
          )
        }).pipe(
          Effect.provideService(ChargeRepository, charges),
          Effect.catchTag("StorageError", Unavailable.unavailable)
        )
      )
  })
)

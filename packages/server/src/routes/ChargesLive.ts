/**
 * The charges group over HTTP: create (the workflow in createCharge.ts), update (its
 * description and metadata: updateCharge.ts), retrieve and list.
 */
import { CurrentKey } from "@levy/api"
import * as ChargeWire from "@levy/engine/charges/ChargeWire.js"
import { createCharge } from "@levy/engine/charges/createCharge.js"
import { updateCharge } from "@levy/engine/charges/updateCharge.js"
import { ChargeRepository } from "@levy/storage"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as OtherMode from "../http/OtherMode.js"
import * as Unavailable from "../http/Unavailable.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/charges"
export const ChargesLive = ApiHandlers.group("charges", (handlers) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository

    return handlers
      .handle("create", ({ payload }) =>
        Handle.write((tenant, claim) => createCharge(tenant, payload, claim))
      )
      .handle("update", ({ path, payload }) =>
        Handle.write((tenant, claim) => updateCharge(tenant, path.id, payload, claim))
      )
      .handle("retrieve", ({ path }) =>
        Effect.gen(function* () {
          const tenant = Handle.tenantOf(yield* CurrentKey.CurrentKey)
          const found = yield* charges.get(tenant, path.id).pipe(
            Effect.catchTags({
              RecordNotFound: () =>
                OtherMode.noSuch(tenant, "charge", path.id, (other) => charges.get(other, path.id)),
              StorageError: Unavailable.unavailable
            })
          )
          return ChargeWire.toWire(found)
        })
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const tenant = Handle.tenantOf(yield* CurrentKey.CurrentKey)
          return yield* Listing.respond(
            urlParams,
            URL_PATH,
            (request) => charges.list(tenant, { ...request, customer: urlParams.customer }),
            (charge) => Effect.succeed(ChargeWire.toWire(charge))
          )
        })
      )
  })
)

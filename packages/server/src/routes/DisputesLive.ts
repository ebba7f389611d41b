/**
 * The disputes group (docs/design.md §4): retrieve one dispute, list them by charge and status
 * (retrieveDispute.ts, listDisputes.ts). Disputes are opened by the processor (in test mode,
 * `tok_chargeDispute`), never by a request.
 */
import { listDisputes } from "@levy/engine/disputes/listDisputes.js"
import { retrieveDispute } from "@levy/engine/disputes/retrieveDispute.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/disputes"

export const DisputesLive = ApiHandlers.group("disputes", (handlers) =>
  Effect.succeed(
    handlers
      .handle("retrieve", ({ path }) => Handle.read((tenant) => retrieveDispute(tenant, path.id)))
      .handle("list", ({ urlParams }) =>
        Handle.list(URL_PATH, (tenant) =>
          listDisputes(tenant, {
            ...Listing.requestOf(urlParams),
            charge: urlParams.charge,
            status: urlParams.status
          })
        )
      )
  )
)

/**
 * The refunds group over HTTP: create (the workflow in createRefund.ts), retrieve and list
 * (retrieveRefund.ts, listRefunds.ts).
 */
import { createRefund } from "@levy/engine/refunds/createRefund.js"
import { listRefunds } from "@levy/engine/refunds/listRefunds.js"
import { retrieveRefund } from "@levy/engine/refunds/retrieveRefund.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/refunds"

export const RefundsLive = ApiHandlers.group("refunds", (handlers) =>
  Effect.succeed(
    handlers
      .handle("create", ({ payload }) =>
        Handle.write((tenant, claim) => createRefund(tenant, payload, claim))
      )
      .handle("retrieve", ({ path }) => Handle.read((tenant) => retrieveRefund(tenant, path.id)))
      .handle("list", ({ urlParams }) =>
        Handle.list(URL_PATH, (tenant) =>
          listRefunds(tenant, { ...Listing.requestOf(urlParams), charge: urlParams.charge })
        )
      )
  )
)

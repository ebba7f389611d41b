/**
 * The charges group over HTTP: create (the workflow in createCharge.ts), update (its
 * description and metadata: updateCharge.ts), retrieve and list (listCharges.ts).
 */
import * as ChargeWire from "@levy/engine/charges/ChargeWire.js"
import { createCharge } from "@levy/engine/charges/createCharge.js"
import { listCharges } from "@levy/engine/charges/listCharges.js"
import * as TenantCharge from "@levy/engine/charges/TenantCharge.js"
import { updateCharge } from "@levy/engine/charges/updateCharge.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/charges"
export const ChargesLive = ApiHandlers.group("charges", (handlers) =>
  Effect.succeed(
    handlers
      .handle("create", ({ payload }) =>
        Handle.write((tenant, claim) => createCharge(tenant, payload, claim))
      )
      .handle("update", ({ path, payload }) =>
        Handle.write((tenant, claim) => updateCharge(tenant, path.id, payload, claim))
      )
      .handle("retrieve", ({ path }) =>
        Handle.read((tenant) =>
          Effect.map(TenantCharge.get(tenant, path.id, "id"), ChargeWire.toWire)
        )
      )
      .handle("list", ({ urlParams }) =>
        Handle.list(URL_PATH, (tenant) =>
          listCharges(tenant, { ...Listing.requestOf(urlParams), customer: urlParams.customer })
        )
      )
  )
)

/** The tenant's disputes, newest first, by charge and status, each in its charge's currency. */
import { Dispute } from "@levy/api"
import { ChargeRepository, type Page, type Tenant } from "@levy/storage"
import { Effect, Schema } from "effect"
import * as ListRequest from "../lists/ListRequest.js"
import * as Paging from "../lists/Paging.js"
import { withCurrencies } from "../lookups/ChargeCurrencies.js"
import * as DisputeWire from "./DisputeWire.js"

/** The request: paging, `charge` for one charge's disputes, `status` for those in it. */
export const DisputeListRequest = ListRequest.of({
  charge: Schema.optional(Schema.String),
  status: Schema.optional(Dispute.DisputeStatus)
})
export type DisputeListRequest = typeof DisputeListRequest.Type

export const listDisputes = (
  tenant: Tenant.Tenant,
  request: DisputeListRequest
): Effect.Effect<Page.Page<Dispute.Dispute>, Paging.PageError, ChargeRepository> =>
  Effect.flatMap(ChargeRepository, (charges) =>
    Paging.page(
      request,
      (page) =>
        charges.listDisputes(tenant, { ...page, charge: request.charge, status: request.status }),
      (disputes) => withCurrencies(tenant, disputes, DisputeWire.toWire)
    )
  )

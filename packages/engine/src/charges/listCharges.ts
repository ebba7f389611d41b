/** The tenant's charges, newest first, of one customer or all. */
import type { Charge } from "@levy/api"
import { ChargeRepository, type Page, type Tenant } from "@levy/storage"
import { Effect, Schema } from "effect"
import * as ListRequest from "../lists/ListRequest.js"
import * as Paging from "../lists/Paging.js"
import * as ChargeWire from "./ChargeWire.js"

/** The request: paging, and `customer` for one customer's charges. */
export const ChargeListRequest = ListRequest.of({ customer: Schema.optional(Schema.String) })
export type ChargeListRequest = typeof ChargeListRequest.Type

export const listCharges = (
  tenant: Tenant.Tenant,
  request: ChargeListRequest
): Effect.Effect<Page.Page<Charge.Charge>, Paging.PageError, ChargeRepository> =>
  Effect.flatMap(ChargeRepository, (charges) =>
    Paging.pageOf(
      request,
      (page) => charges.list(tenant, { ...page, customer: request.customer }),
      ChargeWire.toWire
    )
  )

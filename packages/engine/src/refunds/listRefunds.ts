/** The tenant's refunds, newest first, of one charge or all, each in its charge's currency. */
import type { Refund } from "@levy/api"
import { ChargeRepository, type Page, type Tenant } from "@levy/storage"
import { Effect, Schema } from "effect"
import * as ListRequest from "../lists/ListRequest.js"
import * as Paging from "../lists/Paging.js"
import { withCurrencies } from "../lookups/ChargeCurrencies.js"
import * as RefundWire from "./RefundWire.js"

/** The request: paging, and `charge` for one charge's refunds. */
export const RefundListRequest = ListRequest.of({ charge: Schema.optional(Schema.String) })
export type RefundListRequest = typeof RefundListRequest.Type

export const listRefunds = (
  tenant: Tenant.Tenant,
  request: RefundListRequest
): Effect.Effect<Page.Page<Refund.Refund>, Paging.PageError, ChargeRepository> =>
  Effect.flatMap(ChargeRepository, (charges) =>
    Paging.page(
      request,
      (page) => charges.listRefunds(tenant, { ...page, charge: request.charge }),
      (refunds) => withCurrencies(tenant, refunds, RefundWire.toWire)
    )
  )

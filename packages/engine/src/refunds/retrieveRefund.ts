/** Reading one refund, in its charge's currency, free of HTTP. */
import type { Refund } from "@levy/api"
import { ChargeRepository, type StorageError, type Tenant } from "@levy/storage"
import { Effect } from "effect"
import { withCurrency } from "../lookups/ChargeCurrencies.js"
import * as OtherMode from "../lookups/OtherMode.js"
import { RefundNotFound } from "./RefundNotFound.js"
import * as RefundWire from "./RefundWire.js"

export type RetrieveRefundError = RefundNotFound | StorageError

export const retrieveRefund = (
  tenant: Tenant.Tenant,
  id: string
): Effect.Effect<Refund.Refund, RetrieveRefundError, ChargeRepository> =>
  Effect.flatMap(ChargeRepository, (charges) =>
    OtherMode.found(
      tenant,
      (t) => charges.getRefund(t, id),
      (inOtherMode) => new RefundNotFound({ tenant, id, inOtherMode })
    )
  ).pipe(Effect.flatMap((refund) => withCurrency(tenant, refund, RefundWire.toWire)))

/**
 * Reading one dispute (docs/design.md §4), free of HTTP. Disputes are opened by the processor,
 * never by a request; the currency shown is the disputed charge's.
 */
import type { Dispute } from "@levy/api"
import { ChargeRepository, type StorageError, type Tenant } from "@levy/storage"
import { Effect } from "effect"
import { withCurrency } from "../lookups/ChargeCurrencies.js"
import * as OtherMode from "../lookups/OtherMode.js"
import { DisputeNotFound } from "./DisputeNotFound.js"
import * as DisputeWire from "./DisputeWire.js"

export type RetrieveDisputeError = DisputeNotFound | StorageError

export const retrieveDispute = (
  tenant: Tenant.Tenant,
  id: string
): Effect.Effect<Dispute.Dispute, RetrieveDisputeError, ChargeRepository> =>
  Effect.flatMap(ChargeRepository, (charges) =>
    OtherMode.found(
      tenant,
      (t) => charges.getDispute(t, id),
      (inOtherMode) => new DisputeNotFound({ tenant, id, inOtherMode })
    )
  ).pipe(Effect.flatMap((dispute) => withCurrency(tenant, dispute, DisputeWire.toWire)))

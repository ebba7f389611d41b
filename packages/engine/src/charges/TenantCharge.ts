/**
 * A charge of the tenant by id. Another account's is missing, and so is one of the tenant's
 * other mode, but that one is told apart (`inOtherMode`), so the 404 can say so as Stripe's does.
 */
import { ChargeRepository, type Tenant } from "@levy/storage"
import { Effect } from "effect"
import * as OtherMode from "../lookups/OtherMode.js"
import { ChargeNotFound } from "./ChargeErrors.js"

/** The tenant's charge `id`; `ChargeNotFound` naming `param` (the field that named it) otherwise. */
export const get = (tenant: Tenant.Tenant, id: string, param?: string) =>
  Effect.flatMap(ChargeRepository, (charges) =>
    OtherMode.found(
      tenant,
      (t) => charges.get(t, id),
      (inOtherMode) => new ChargeNotFound({ tenant, chargeId: id, inOtherMode, param })
    )
  )

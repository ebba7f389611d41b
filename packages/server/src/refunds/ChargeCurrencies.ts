/**
 * The currency of the charges a page of refunds or disputes belongs to: the store keeps it
 * on the charge only. One read per distinct charge of the page (at most 100).
 */
import { type Charge, ChargeRepository, type Tenant } from "@levy/storage"
import { Effect } from "effect"

/** Currency by charge id. A charge is never deleted, so a missing one is a broken store. */
export const currenciesOf = (tenant: Tenant.Tenant, chargeIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    const found: ReadonlyArray<Charge> = yield* Effect.forEach(
      [...new Set(chargeIds)],
      (id) =>
        charges
          .get(tenant, id)
          .pipe(
            Effect.catchTag("RecordNotFound", (e) =>
              Effect.dieMessage(`charge ${e.id} of a stored refund or dispute is missing`)
            )
          ),
      { concurrency: 4 }
    )
    return new Map(found.map((charge) => [charge.id, charge.currency]))
  })

/** The currency of `chargeId` in `currencies` (present by construction). */
export const currencyIn = (currencies: ReadonlyMap<string, string>, chargeId: string): string =>
  currencies.get(chargeId) ?? ""

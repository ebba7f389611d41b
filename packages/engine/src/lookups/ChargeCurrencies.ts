/**
 * The currency of the charges a page of refunds or disputes belongs to: the store keeps it
 * on the charge only. One read for the whole page.
 */
import { ChargeRepository, type Tenant } from "@levy/storage"
import { Effect } from "effect"

/** Currency by charge id. A charge is never deleted, so a missing one is a broken store. */
export const currenciesOf = (tenant: Tenant.Tenant, chargeIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    const found = yield* charges.getMany(tenant, chargeIds)
    const currencies = new Map(found.map((charge) => [charge.id, charge.currency]))
    const missing = chargeIds.find((id) => !currencies.has(id))
    if (missing !== undefined) {
      return yield* Effect.dieMessage(`charge ${missing} of a stored refund or dispute is missing`)
    }
    return currencies
  })

/** The currency of `chargeId` in `currencies` (present by construction). */
export const currencyIn = (currencies: ReadonlyMap<string, string>, chargeId: string): string =>
  currencies.get(chargeId) ?? ""

/** `items` (refunds or disputes) in their wire form, each with its charge's currency. */
export const withCurrencies = <A extends { readonly chargeId: string }, B>(
  tenant: Tenant.Tenant,
  items: ReadonlyArray<A>,
  toWire: (item: A, currency: string) => B
) =>
  Effect.map(
    currenciesOf(
      tenant,
      items.map((item) => item.chargeId)
    ),
    (currencies) => items.map((item) => toWire(item, currencyIn(currencies, item.chargeId)))
  )

/** One refund or dispute in its wire form, with its charge's currency. */
export const withCurrency = <A extends { readonly chargeId: string }, B>(
  tenant: Tenant.Tenant,
  item: A,
  toWire: (item: A, currency: string) => B
) =>
  Effect.map(currenciesOf(tenant, [item.chargeId]), (currencies) =>
    toWire(item, currencyIn(currencies, item.chargeId))
  )

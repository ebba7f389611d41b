/**
 * The stores the refunds and disputes tests run on, each shared between the server and the
 * test (which seeds charges and reads events through it): memory, and PostgreSQL in a
 * throwaway database (skipped only when PostgreSQL is unreachable outside CI, loudly, by
 * the storage package's helper). Also a seed charge like the ones charges write.
 */
import { Ids, type NewCharge, SecretBox, Storage, type Tenant } from "@levy/storage"
import { Effect, Layer } from "effect"
import { CI, pgAvailable, throwawayDatabase } from "../../storage/test/stores.js"

export type StoreLayer = Layer.Layer<Storage.Repositories | Ids, unknown>

const memory: StoreLayer = Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))

const postgres: StoreLayer = Layer.unwrapScoped(
  Effect.map(throwawayDatabase("levy_server_test"), ({ url }) =>
    Storage.layerPostgres({ url, maxConnections: 5 })
  )
).pipe(Layer.provide(SecretBox.layerRandom), Layer.provideMerge(Ids.layer))

export const stores = [
  { name: "memory", layer: memory, skip: false },
  { name: "postgres", layer: postgres, skip: !pgAvailable && !CI }
] as const

/** A charge of `amount` + `convenienceFee` as the charges handler stores it. */
export const seedCharge = (
  tenant: Tenant.Tenant,
  id: string,
  fields: Partial<NewCharge> = {}
): NewCharge => {
  const amount = fields.amount ?? 10_000
  const convenienceFee = fields.convenienceFee ?? 320
  return {
    id,
    accountId: tenant.accountId,
    livemode: tenant.livemode,
    created: 1_760_000_000,
    amount,
    convenienceFee,
    totalAmount: amount + convenienceFee,
    currency: "usd",
    status: "succeeded",
    customer: "cus_1",
    description: null,
    metadata: { order: "42" },
    region: "US-NY",
    cardType: "credit",
    feeBreakdown: { percentage: 290, flatFee: 30 },
    compliance: {
      compliant: true,
      reasonCode: null,
      reason: null,
      maxPercentage: 3,
      maxFee: null,
      disclosureText: null,
      rulesetVersion: "2025.1",
      rules: ["US-NY"]
    },
    failureCode: null,
    failureMessage: null,
    details: {
      source: "tok_visa",
      billingMode: "direct",
      feeStructure: { percentage: 2.9, flatFee: 0.3 },
      adjustment: 0
    },
    ...fields
  }
}

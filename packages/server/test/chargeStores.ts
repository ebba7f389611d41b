/**
 * The stores the refunds and disputes tests run on, each shared between the server and the
 * test (which seeds charges and reads events through it): memory, and PostgreSQL in a
 * throwaway database. Also a seed charge like the ones charges write.
 */
import type { Ids, NewCharge, Storage, Tenant } from "@levy/storage"
import type { Layer } from "effect"
import { memoryStore, postgresStore } from "./support.js"

export type StoreLayer = Layer.Layer<Storage.Repositories | Ids, unknown>

export const stores = [
  { name: "memory", layer: memoryStore() as StoreLayer },
  { name: "postgres", layer: postgresStore() as StoreLayer }
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

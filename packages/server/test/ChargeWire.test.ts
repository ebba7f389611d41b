/** The wire form of stored charges, including ones stored with less than today's fields. */
import { describe, expect, it } from "@effect/vitest"
import { Charge } from "@levy/api"
import * as ChargeWire from "@levy/engine/charges/ChargeWire.js"
import type { Charge as StoredCharge } from "@levy/storage"
import { Schema } from "effect"
import { seedCharge } from "./chargeStores.js"

const stored = (fields: Partial<StoredCharge> = {}): StoredCharge => ({
  ...seedCharge({ accountId: "acct_1", livemode: true }, "ch_1"),
  amountRefunded: 5_160,
  feeRefunded: 160,
  refunded: false,
  disputed: false,
  estimate: null,
  ...fields
})

const decode = Schema.decodeUnknownSync(Charge.Charge)

describe("ChargeWire", () => {
  it("maps every field as the charges handler stores it", () => {
    const wire = ChargeWire.toWire(
      stored({
        details: {
          source: "tok_visa",
          billingMode: "separate",
          feeStructure: { percentage: 2.9, flatFee: 0.3 },
          adjustment: -20,
          transactions: [
            { part: "amount", amount: 10_000, reference: "txn_1" },
            { part: "fee", amount: 320, reference: "txn_2" }
          ]
        }
      })
    )
    expect(decode(wire)).toStrictEqual(wire)
    expect(wire).toMatchObject({
      object: "charge",
      livemode: true,
      amountRefunded: 5_160,
      refunded: false,
      billingMode: "separate",
      adjustment: -20,
      feeStructure: { percentage: 2.9, flatFee: 0.3 },
      customer: "cus_1"
    })
    expect(wire.transactions).toHaveLength(2)
    expect("description" in wire).toBe(false)
  })

  it("reads a stored row's details by schema: one that does not read back is named, not passed on", () => {
    const good = stored()
    expect(ChargeWire.detailsOf(good)).toStrictEqual(good.details)
    const broken = stored({ details: { source: "tok_visa", billingMode: "weekly", adjustment: 0 } })
    expect(() => ChargeWire.detailsOf(broken)).toThrow(
      /charge ch_1: stored details do not read back/
    )
    expect(() => ChargeWire.toWire(stored({ feeBreakdown: { percentage: "2.9" } }))).toThrow(
      /charge ch_1/
    )
  })
})

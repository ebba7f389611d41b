/**
 * A charge as stored (@levy/storage) and as the wire shows it (@levy/api). The engine's
 * decisions are kept as JSON beside the money columns: `feeBreakdown` and `compliance` in
 * their wire form, and `details` = {source, billingMode, feeStructure, adjustment,
 * transactions?, configured?}.
 */
import type { Charge as Wire } from "@levy/api"
import type { JsonObject, NewCharge, Charge as Stored } from "@levy/storage"

/** What `details` holds. */
export interface Details {
  readonly source: string
  readonly billingMode: Wire.Charge["billingMode"]
  readonly feeStructure: Wire.Charge["feeStructure"]
  readonly adjustment: number
  readonly transactions?: ReadonlyArray<Wire.Transaction> | undefined
  /** Absent on charges stored before it existed. */
  readonly configured?: Wire.Charge["configured"]
  /** The card as the processor described it; absent on charges stored before it existed. */
  readonly card?: Wire.Charge["card"]
}

const json = (value: object): JsonObject => value as unknown as JsonObject

/** The stored record of a new charge. */
export const toStored = (
  charge: Omit<Wire.Charge, "object" | "amountRefunded" | "refunded" | "disputed">,
  accountId: string,
  source: string
): NewCharge => ({
  id: charge.id,
  accountId,
  livemode: charge.livemode,
  created: charge.created,
  amount: charge.amount,
  convenienceFee: charge.convenienceFee,
  totalAmount: charge.totalAmount,
  currency: charge.currency,
  status: charge.status,
  customer: charge.customer ?? null,
  description: charge.description ?? null,
  metadata: charge.metadata,
  region: charge.region,
  cardType: charge.cardType,
  feeBreakdown: json(charge.feeBreakdown),
  compliance: json(charge.compliance),
  failureCode: charge.failureCode ?? null,
  failureMessage: charge.failureMessage ?? null,
  estimate: charge.estimate ?? null,
  details: json({
    source,
    billingMode: charge.billingMode,
    feeStructure: charge.feeStructure,
    adjustment: charge.adjustment,
    ...(charge.transactions === undefined ? {} : { transactions: charge.transactions }),
    ...(charge.configured === undefined ? {} : { configured: charge.configured }),
    ...(charge.card === undefined ? {} : { card: charge.card })
  } satisfies Details)
})

/** The wire charge of a stored one (its JSON columns were written by `toStored`). */
export const toWire = (c: Stored): Wire.Charge => {
  const details = c.details as unknown as Details
  return {
    id: c.id,
    object: "charge",
    amount: c.amount,
    convenienceFee: c.convenienceFee,
    totalAmount: c.totalAmount,
    currency: c.currency,
    status: c.status,
    created: c.created,
    livemode: c.livemode,
    ...(c.customer === null ? {} : { customer: c.customer }),
    ...(c.description === null ? {} : { description: c.description }),
    metadata: c.metadata,
    region: c.region,
    cardType: c.cardType as Wire.Charge["cardType"],
    feeStructure: details.feeStructure,
    feeBreakdown: c.feeBreakdown as unknown as Wire.Charge["feeBreakdown"],
    adjustment: details.adjustment,
    compliance: c.compliance as unknown as Wire.Charge["compliance"],
    ...(details.configured === undefined ? {} : { configured: details.configured }),
    ...(c.failureCode === null ? {} : { failureCode: c.failureCode }),
    ...(c.failureMessage === null ? {} : { failureMessage: c.failureMessage }),
    amountRefunded: c.amountRefunded,
    refunded: c.refunded,
    disputed: c.disputed,
    billingMode: details.billingMode,
    ...(details.transactions === undefined ? {} : { transactions: details.transactions }),
    ...(c.estimate === null ? {} : { estimate: c.estimate }),
    ...(details.card === undefined ? {} : { card: details.card })
  }
}

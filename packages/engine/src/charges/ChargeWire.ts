/**
 * A charge as stored (@levy/storage) and as the wire shows it (@levy/api). The engine's
 * decisions are kept as JSON beside the money columns: `feeBreakdown` and `compliance` in
 * their wire form, and `details` = {source, billingMode, feeStructure, adjustment,
 * transactions?, configured?}.
 */
import { Charge as Wire } from "@levy/api"
import type { JsonObject, NewCharge, Charge as Stored } from "@levy/storage"
import { Schema } from "effect"

const fields = Wire.Charge.fields

/**
 * What `details` holds. `configured` and `card` are absent on charges stored before they
 * existed; `transactions` until the charge is collected.
 */
const DetailsSchema = Schema.Struct({
  source: Schema.String,
  billingMode: fields.billingMode,
  feeStructure: fields.feeStructure,
  adjustment: fields.adjustment,
  transactions: fields.transactions,
  configured: fields.configured,
  card: fields.card
})
export type Details = typeof DetailsSchema.Type

/** The wire's JSON columns, checked as `toStored` wrote them (the decoded side of each schema). */
const Columns = Schema.Struct({
  details: DetailsSchema,
  feeBreakdown: fields.feeBreakdown,
  compliance: fields.compliance
})
type Columns = typeof Columns.Type

const validateColumns = Schema.validateSync(Columns)

/** Each stored charge's columns, checked once (a charge row is immutable once read). */
const checked = new WeakMap<Stored, Columns>()

/**
 * A stored charge's JSON columns, checked against the wire's schemas: a row this store
 * cannot read back is a defect, reported with the charge's id, never passed on unchecked.
 */
const columnsOf = (charge: Stored): Columns => {
  const known = checked.get(charge)
  if (known !== undefined) return known
  let columns: Columns
  try {
    columns = validateColumns(charge)
  } catch (error) {
    throw new Error(`charge ${charge.id}: stored details do not read back: ${String(error)}`)
  }
  checked.set(charge, columns)
  return columns
}

/** What a stored charge's `details` holds. */
export const detailsOf = (charge: Stored): Details => columnsOf(charge).details

/** A JSON column's value: the schemas above only admit JSON values. */
const json = (value: object): JsonObject => value as JsonObject

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
  const { details, feeBreakdown, compliance } = columnsOf(c)
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
    feeBreakdown,
    adjustment: details.adjustment,
    compliance,
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

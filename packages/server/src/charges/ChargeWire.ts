/**
 * A stored charge in its wire form (`Charge` of @levy/api), for responses and for the
 * `data.object` of charge events. The engine's decision is kept as JSON in the store
 * (`feeBreakdown`, `compliance`, `details`); this reads it tolerantly, so a charge written
 * before a field existed still answers:
 *
 * - `feeBreakdown`: `{percentage, flatFee}` in minor units (an `adjustment` there is read too);
 * - `compliance`: the wire verdict, or null when no rules applied (then: compliant, no rules);
 * - `details`: `{source, billingMode, transactions?, feeStructure?, adjustment?}`.
 *
 * `adjustment` is, by definition, what makes `percentage + flatFee + adjustment =
 * convenienceFee`; when neither `details` nor `feeBreakdown` stored it, it is derived so.
 */
import type { Charge as WireCharge } from "@levy/api"
import type { JsonObject, Charge as StoredCharge } from "@levy/storage"

const numberOr = (value: unknown, fallback: number): number =>
  typeof value === "number" && Number.isFinite(value) ? value : fallback

const objectOr = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}

/** The verdict when no rules applied (no region): the engine's own no-rules verdict. */
const NO_RULES: WireCharge.Charge["compliance"] = {
  compliant: true,
  reasonCode: null,
  reason: null,
  maxPercentage: null,
  maxFee: null,
  disclosureText: null,
  rulesetVersion: "none",
  rules: []
}

const complianceOf = (stored: JsonObject | null): WireCharge.Charge["compliance"] =>
  stored === null
    ? NO_RULES
    : ({ ...NO_RULES, ...stored } as unknown as WireCharge.Charge["compliance"])

const transactionsOf = (value: unknown): WireCharge.Charge["transactions"] =>
  Array.isArray(value) ? (value as unknown as WireCharge.Charge["transactions"]) : undefined

/** The wire charge of a stored one. */
export const toWire = (charge: StoredCharge): WireCharge.Charge => {
  const details = objectOr(charge.details)
  const breakdown = objectOr(charge.feeBreakdown)
  const structure = objectOr(details.feeStructure)
  const percentage = numberOr(breakdown.percentage, 0)
  const flatFee = numberOr(breakdown.flatFee, 0)
  const derived = charge.convenienceFee - percentage - flatFee
  const transactions = transactionsOf(details.transactions)
  return {
    id: charge.id,
    object: "charge",
    amount: charge.amount,
    convenienceFee: charge.convenienceFee,
    totalAmount: charge.totalAmount,
    currency: charge.currency,
    status: charge.status,
    created: charge.created,
    livemode: charge.livemode,
    ...(charge.customer === null ? {} : { customer: charge.customer }),
    ...(charge.description === null ? {} : { description: charge.description }),
    metadata: charge.metadata,
    region: charge.region,
    cardType: charge.cardType as WireCharge.Charge["cardType"],
    feeStructure: {
      percentage: numberOr(structure.percentage, 0),
      flatFee: numberOr(structure.flatFee, 0)
    },
    feeBreakdown: { percentage, flatFee },
    adjustment: numberOr(details.adjustment, numberOr(breakdown.adjustment, derived)),
    compliance: complianceOf(charge.compliance),
    ...(charge.failureCode === null ? {} : { failureCode: charge.failureCode }),
    ...(charge.failureMessage === null ? {} : { failureMessage: charge.failureMessage }),
    amountRefunded: charge.amountRefunded,
    refunded: charge.refunded,
    billingMode: details.billingMode === "separate" ? "separate" : "direct",
    ...(transactions === undefined ? {} : { transactions })
  }
}

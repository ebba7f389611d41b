/**
 * A stored refund in its wire form. The store keeps the TOTAL given back (`amount`) and its
 * fee part (`feeAmount`); the wire splits it into the base part (`amount`), the fee part
 * (`convenienceFee`) and their sum (`totalAmount`). The currency is the charge's. A failed
 * refund says why (`failureCode`, `failureMessage`), like a failed charge.
 */
import type { Refund as WireRefund } from "@levy/api"
import type { Refund as StoredRefund } from "@levy/storage"

const STATUSES: ReadonlyArray<WireRefund.Refund["status"]> = ["pending", "succeeded", "failed"]
const REASONS: ReadonlyArray<string> = ["requested_by_customer", "duplicate", "fraudulent"]

/** The wire refund of a stored one, in the currency of its charge. */
export const toWire = (refund: StoredRefund, currency: string): WireRefund.Refund => ({
  id: refund.id,
  object: "refund",
  charge: refund.chargeId,
  amount: refund.amount - refund.feeAmount,
  convenienceFee: refund.feeAmount,
  totalAmount: refund.amount,
  currency,
  status: STATUSES.find((s) => s === refund.status) ?? "succeeded",
  ...(refund.status !== "failed" || refund.failureCode == null
    ? {}
    : { failureCode: refund.failureCode }),
  ...(refund.status !== "failed" || refund.failureMessage == null
    ? {}
    : { failureMessage: refund.failureMessage }),
  reason:
    refund.reason !== null && REASONS.includes(refund.reason)
      ? (refund.reason as WireRefund.RefundReason)
      : null,
  metadata: refund.metadata,
  created: refund.created,
  livemode: refund.livemode
})

/** A dispute (`object: "dispute"`, id `dp_…`) a cardholder opened on a charge (docs/design.md §4). */
import { Schema } from "effect"
import { ChargeId } from "./Charge.js"
import { CurrencyCode, Livemode, MinorUnits, oneOf, PrefixedId, Timestamp } from "./Field.js"

/** A dispute id, `dp_…`. */
export const DisputeId = PrefixedId("dp")

/**
 * `needs_response` while the merchant may answer, `under_review` once evidence is with the
 * issuer, then `won` or `lost` (closed: nothing changes after).
 */
export const DisputeStatus = oneOf("needs_response", "under_review", "won", "lost")
export type DisputeStatus = typeof DisputeStatus.Type

/** The dispute. */
export const Dispute = Schema.Struct({
  id: DisputeId,
  object: Schema.Literal("dispute"),
  charge: ChargeId,
  amount: MinorUnits.annotations({ description: "Disputed amount, minor units." }),
  currency: CurrencyCode,
  status: DisputeStatus,
  reason: Schema.String.annotations({
    description: "The network's reason (fraudulent, product_not_received, general, ...)."
  }),
  created: Timestamp,
  livemode: Livemode
}).annotations({ identifier: "Dispute" })
export type Dispute = typeof Dispute.Type

/** A stored dispute in its wire form, in the currency of the disputed charge. */
import type { Dispute as WireDispute } from "@levy/api"
import type { Dispute as StoredDispute } from "@levy/storage"

/** The wire dispute of a stored one. */
export const toWire = (dispute: StoredDispute, currency: string): WireDispute.Dispute => ({
  id: dispute.id,
  object: "dispute",
  charge: dispute.chargeId,
  amount: dispute.amount,
  currency,
  status: dispute.status,
  reason: dispute.reason,
  created: dispute.created,
  livemode: dispute.livemode
})

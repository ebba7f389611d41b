/** What the checkout shows the payer before they pay. */
import type { Estimate } from "@levy/core"

export interface CheckoutQuote {
  readonly subtotal: number
  /** The fee the checkout may collect: the configured one, lowered to the largest compliant one. */
  readonly fee: number
  readonly total: number
  readonly currency: string
  /** Whether the configured fee was compliant as it stood (false: it was lowered, maybe to 0). */
  readonly configuredCompliant: boolean
  /** Why the configured fee was not compliant (e.g. `percentage_over_limit`), or null. */
  readonly reasonCode: string | null
  /** Text to show the payer where the place requires a disclosure, or null. */
  readonly disclosure: string | null
}

/** The engine's charge quote as the checkout's answer. */
export const fromChargeQuote = (q: Estimate.ChargeQuote): CheckoutQuote => ({
  subtotal: q.baseAmount,
  fee: q.convenienceFee,
  total: q.totalAmount,
  currency: q.currency,
  configuredCompliant: q.configured.compliant,
  reasonCode: q.configured.reasonCode,
  disclosure: q.compliance.disclosureText
})

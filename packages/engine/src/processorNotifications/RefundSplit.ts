/**
 * A refund made at the processor without Levy (in its dashboard), split into Levy's base and
 * fee parts (docs/design.md §3–§4): the processor gave back `total` of the payment, so the fee
 * part is the fee's pro-rata share of it, `floor(convenienceFee × total / totalAmount)` on the
 * currency's step (as `refunds/RefundPlan.ts` does for a share of the base), never more fee
 * than is left and never so little that the base part exceeds the base left; a refund of all
 * that is left takes all the fee left.
 */
import { Currency, Refund } from "@levy/core"
import type { Charge } from "@levy/storage"
import { leftOf } from "../refunds/RefundPlan.js"

/** A refund's parts, minor units: `total` given back, `fee` of it. */
export interface Split {
  readonly total: number
  readonly fee: number
}

/**
 * The split of `total` given back on `charge`'s payment, or undefined when it is more than
 * Levy has left to refund (the books disagree with the processor: the caller logs it).
 * `feePayment` says which payment of a `separate` charge was refunded: its base (false) or its
 * fee (true); undefined for `direct` billing, one payment of the total.
 */
export const split = (charge: Charge, total: number, feePayment?: boolean): Split | undefined => {
  const left = leftOf(charge)
  if (total <= 0 || total > left.base + left.fee) return undefined
  if (feePayment === true) return total <= left.fee ? { total, fee: total } : undefined
  if (feePayment === false) return total <= left.base ? { total, fee: 0 } : undefined
  if (total === left.base + left.fee) return { total, fee: left.fee }
  const currency = Currency.lookup(charge.currency)
  const share =
    currency === undefined
      ? 0
      : Refund.proRataFee(currency, charge.convenienceFee, total, charge.totalAmount)
  const fee = Math.max(total - left.base, Math.min(left.fee, share))
  return { total, fee }
}

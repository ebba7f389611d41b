/**
 * How much of a charge a refund request gives back (docs/design.md §3–§4), as a pure function of
 * the charge as it stands: the base part (`amount`, default all the base left, a multiple of
 * the currency's step as a charge's amount is) and the fee part. The fee goes back pro rata,
 * `floor(convenienceFee × base / charge.amount)` on the currency's step (`Refund.proRataFee`)
 * — the card networks' rule for partial refunds — except that the refund that brings the
 * base to fully refunded takes all the fee left, so rounding down never keeps a cent of fee.
 * `refundFee: true` gives back all the fee left, `false` none of it.
 */
import type { RefundCreate } from "@levy/api"
import { Currency, Refund } from "@levy/core"
import type { Charge } from "@levy/storage"
import { Either } from "effect"
import { RefundNotPossible } from "./RefundErrors.js"

/** The two parts of a refund, minor units. */
export interface Plan {
  readonly base: number
  readonly fee: number
}

/** What is still refundable of a charge: base and fee, minor units. */
export const leftOf = (charge: Charge) => {
  const feeRefunded = charge.feeRefunded
  const baseRefunded = charge.amountRefunded - feeRefunded
  return { base: charge.amount - baseRefunded, fee: charge.convenienceFee - feeRefunded }
}

const refused = (code: string, message: string, param?: string) =>
  Either.left(
    new RefundNotPossible(param === undefined ? { code, message } : { code, message, param })
  )

/** The charge's currency: stored only after the engine accepted it. */
const currencyOf = (charge: Charge): Currency.Currency => {
  const found = Currency.lookup(charge.currency)
  if (found === undefined) throw new Error(`charge ${charge.id} has an unknown currency`)
  return found
}

/** The fee part for `base` of the base, given what is left. */
const feeFor = (
  charge: Charge,
  base: number,
  left: { readonly base: number; readonly fee: number },
  refundFee: boolean | undefined
): number => {
  if (refundFee === true) return left.fee
  if (refundFee === false) return 0
  if (base === left.base) return left.fee
  // Earlier refunds may already have returned more than pro rata (refundFee: true).
  return Math.min(
    left.fee,
    Refund.proRataFee(currencyOf(charge), charge.convenienceFee, base, charge.amount)
  )
}

/** The refund `request` asks of `charge`, or why there is none. */
export const plan = (
  charge: Charge,
  request: Pick<RefundCreate.RefundCreate, "amount" | "refundFee">
): Either.Either<Plan, RefundNotPossible> => {
  if (charge.status !== "succeeded") {
    return refused(
      "charge_not_refundable",
      `Charge ${charge.id} has status '${charge.status}': only a succeeded charge can be refunded.`,
      "charge"
    )
  }
  const left = leftOf(charge)
  const nothingLeft = left.base === 0 && (left.fee === 0 || request.refundFee === false)
  if (nothingLeft) {
    return refused(
      "charge_already_refunded",
      `Charge ${charge.id} has already been refunded in full.`,
      "charge"
    )
  }
  const base = request.amount ?? left.base
  const step = Refund.checkAmount(currencyOf(charge), base)
  if (typeof step !== "number") return refused(step.code, step.message, step.param)
  if (base > left.base) {
    return refused(
      "amount_too_large",
      `amount (${base}) is more than the ${left.base} of the base amount of charge ${charge.id} left to refund.`,
      "amount"
    )
  }
  return Either.right({ base, fee: feeFor(charge, base, left, request.refundFee) })
}

/**
 * The money rules of a refund (docs/design.md §4): its amount moves in the charge currency's
 * step, as a charge's does, and the fee goes back pro rata, rounded down to that step, so a
 * refund never returns a fraction the currency cannot pay nor more fee than was charged.
 */
import * as Currency from "./Currency.js"
import { type FeeError, fail } from "./FeeError.js"
import * as Rounding from "./Rounding.js"

/** `amount` if the currency can refund it (a multiple of its increment), else the error naming `amount`. */
export const checkAmount = (currency: Currency.Currency, amount: number): number | FeeError =>
  amount % currency.increment === 0
    ? amount
    : fail(
        "parameter_invalid",
        "amount",
        `${currency.code.toUpperCase()} amounts must be a multiple of ${currency.increment} (${Currency.describe(currency, currency.increment)}); ${amount} is not.`
      )

/**
 * The fee's share for `base` of a charge of `chargeAmount` with fee `fee`: the card networks'
 * pro rata rule, rounded down to the currency's increment.
 */
export const proRataFee = (
  currency: Currency.Currency,
  fee: number,
  base: number,
  chargeAmount: number
): number => Rounding.mulDivDown(fee, base, chargeAmount * currency.increment) * currency.increment

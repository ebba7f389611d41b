/**
 * The quote a charge names (docs/quotes.md): read back from its signed id and held to the charge
 * it was made for. Only a quote of this account and mode, not expired, of the charge's amount,
 * currency and region is honoured; whether another live charge already used it is the store's
 * to say when the charge is written (`charges_estimate`).
 */
import type { ChargeCreate } from "@levy/api"
import { Signer, type Tenant } from "@levy/storage"
import { Effect, Either } from "effect"
import { EstimateMismatch, EstimateRefused } from "../estimates/QuoteErrors.js"
import * as QuoteToken from "../estimates/QuoteToken.js"

/** The claims of the charge's quote, once they hold for it. */
export const quote = (
  tenant: Tenant.Tenant,
  input: ChargeCreate.ChargeCreate,
  estimate: string,
  region: string | null
): Effect.Effect<QuoteToken.Claims, EstimateRefused | EstimateMismatch, Signer> =>
  Effect.gen(function* () {
    const read = QuoteToken.read(yield* Signer, estimate)
    if (Either.isLeft(read)) return yield* new EstimateRefused({ reason: read.left })
    const claims = read.right
    if (claims.accountId !== tenant.accountId) {
      return yield* new EstimateRefused({ reason: "other_account" })
    }
    if (claims.livemode !== tenant.livemode)
      return yield* new EstimateRefused({ reason: "other_mode" })
    if (Math.floor(Date.now() / 1000) >= claims.expiresAt) {
      return yield* new EstimateRefused({ reason: "expired", expiredAt: claims.expiresAt })
    }
    const differs = mismatch(claims, input, region)
    return differs === undefined ? claims : yield* differs
  })

const mismatch = (
  claims: QuoteToken.Claims,
  input: ChargeCreate.ChargeCreate,
  region: string | null
): EstimateMismatch | undefined => {
  if (claims.amount !== input.amount) {
    return new EstimateMismatch({
      field: "amount",
      quoted: String(claims.amount),
      asked: String(input.amount)
    })
  }
  if (claims.currency !== input.currency.toLowerCase()) {
    return new EstimateMismatch({
      field: "currency",
      quoted: claims.currency,
      asked: input.currency
    })
  }
  if ((claims.region ?? "").toUpperCase() !== (region ?? "").toUpperCase()) {
    return new EstimateMismatch({
      field: "region",
      quoted: claims.region ?? "none",
      asked: region ?? "none"
    })
  }
  return undefined
}

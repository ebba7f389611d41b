/**
 * What a quote is made of on the wire (docs/quotes.md): the payment source an estimate or a
 * charge names, the card the processor described for it, and the estimate id a charge names to
 * be held to the fee the shopper was shown.
 */
import { Schema } from "effect"

/** The test-mode tokens of the built-in simulator (docs/server.md "Test cards"). */
export const TestTokens = [
  "tok_visa",
  "tok_mastercard",
  "tok_visa_debit",
  "tok_mastercard_debit",
  "tok_mastercard_prepaid",
  "tok_visa_commercial",
  "tok_gb",
  "tok_de",
  "tok_au",
  "tok_chargeDeclined",
  "tok_chargeDispute"
] as const

/** A payment source: a test token, a Stripe `pm_…`/`ctoken_…`, Adyen's encrypted card fields. */
export const Source = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(16_384)).annotations(
  {
    description: `Payment source: in test mode one of ${TestTokens.join(", ")} (default tok_visa); in live mode the processor's (Stripe pm_… or ctoken_…, Adyen's encrypted card fields as JSON).`
  }
)

/** The card as the processor described it, and nothing more of it. */
export const Card = Schema.Struct({
  funding: Schema.Literal("credit", "debit", "prepaid", "unknown"),
  network: Schema.NullOr(Schema.String).annotations({
    description: "visa, mastercard, amex, …; null when the processor did not say."
  }),
  country: Schema.NullOr(Schema.String).annotations({
    description: "The issuer's country (ISO 3166-1 alpha-2); null when the processor did not say."
  }),
  category: Schema.Literal("consumer", "commercial", "unknown")
}).annotations({
  identifier: "Card",
  description: "The card the source stands for, as the processor described it."
})
export type Card = typeof Card.Type

/** The largest estimate id: a signed quote (its fields and a 128-bit signature). */
export const MAX_ESTIMATE_ID_LENGTH = 1024

/** An estimate id, `est_…`: the signed quote a charge may name. */
export const EstimateId = Schema.String.pipe(
  Schema.maxLength(MAX_ESTIMATE_ID_LENGTH),
  Schema.pattern(/^est_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, {
    message: () => "must be the id of an estimate (est_…), as POST /v1/estimates answered it"
  })
).annotations({ description: "The id of an estimate (est_…): a quote the charge honours." })

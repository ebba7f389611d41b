/**
 * The body of `POST /v1/estimates`: the specification's four fields plus the optional payer
 * context of docs/design.md §3. Unknown fields are refused, naming the field.
 */
import { Schema } from "effect"
import * as ComplianceContext from "./ComplianceContext.js"
import { CardType, CurrencyCode, closed, RegionCode } from "./Field.js"
import * as Quote from "./Quote.js"

/** The amount field: an integer of minor units (its range is the engine's to check, by currency). */
export const Amount = Schema.Int.annotations({
  description: "Base amount in minor units (cents); at least the currency's minimum charge.",
  message: () => ({ message: "must be a whole number of minor units (cents)", override: true })
})

/** The fields of a fee request, shared with charge creation. */
export const fields = {
  amount: Amount,
  currency: CurrencyCode,
  region: Schema.optional(RegionCode),
  cardType: Schema.optional(
    CardType.annotations({
      description: "credit, debit or prepaid; absent: must be allowed on all."
    })
  ),
  ...ComplianceContext.fields
} as const

/** The estimate request: a charge's fee inputs, and the card to quote for. */
export const EstimateRequest = closed(
  Schema.Struct({
    ...fields,
    source: Schema.optional(
      Quote.Source.annotations({
        description:
          "The shopper's card (the same values a charge takes): the processor describes it and the estimate quotes the exact fee for it (docs/quotes.md)."
      })
    )
  }),
  "EstimateRequest"
)
export type EstimateRequest = typeof EstimateRequest.Type

/**
 * The body of `POST /v1/charges`: the estimate's fields plus the payment `source` (a test
 * token in test mode), `customer`, `description` and `metadata` within the limits of
 * docs/design.md §9. Unknown fields are refused, naming the field.
 */
import { Schema } from "effect"
import * as EstimateRequest from "./EstimateRequest.js"
import { closed } from "./Field.js"
import { Metadata } from "./Metadata.js"

/** Longest customer identifier. */
export const MAX_CUSTOMER_LENGTH = 255
/** Longest description. */
export const MAX_DESCRIPTION_LENGTH = 1000

/** The test-mode tokens of the built-in simulator (docs/design.md §4). */
export const TestTokens = [
  "tok_visa",
  "tok_mastercard",
  "tok_visa_debit",
  "tok_mastercard_debit",
  "tok_chargeDeclined",
  "tok_chargeDispute",
  "tok_chargeDisputeWon",
  "tok_chargeDisputeLost"
] as const

/** The charge request. */
export const ChargeCreate = closed(
  Schema.Struct({
    ...EstimateRequest.fields,
    source: Schema.optional(
      Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)).annotations({
        description: `Payment source token; in test mode one of ${TestTokens.join(", ")} (default tok_visa).`
      })
    ),
    customer: Schema.optional(
      Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_CUSTOMER_LENGTH))
    ),
    description: Schema.optional(Schema.String.pipe(Schema.maxLength(MAX_DESCRIPTION_LENGTH))),
    metadata: Schema.optional(Metadata)
  }),
  "ChargeCreate"
)
export type ChargeCreate = typeof ChargeCreate.Type

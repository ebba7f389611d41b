/**
 * The body of `POST /v1/charges`: the estimate's fields plus the payment `source` (a test
 * token in test mode), `customer`, `description` and `metadata` within the limits of
 * docs/design.md §9. Unknown fields are refused, naming the field. A charge is judged on the
 * server's day with the account's configured cost of acceptance (docs/design.md §3): the
 * estimate's what-if inputs `date`, `costOfAcceptance` and `merchantCategoryCode` are refused here with a message that
 * says where they belong.
 */
import { Schema } from "effect"
import * as EstimateRequest from "./EstimateRequest.js"
import { closed } from "./Field.js"
import { MetadataCreate } from "./Metadata.js"
import * as Quote from "./Quote.js"

/** Longest customer identifier. */
export const MAX_CUSTOMER_LENGTH = 255
/** Longest description. */
export const MAX_DESCRIPTION_LENGTH = 1000

/** The test-mode tokens of the built-in simulator (docs/design.md §4). */
export const TestTokens = Quote.TestTokens

/**
 * A what-if input of estimates and compliance checks that a charge does not take: declared so
 * that sending it is refused with `message`, not only as an unknown field.
 */
const notOnCharges = (message: string) =>
  Schema.optional(
    Schema.Never.annotations({
      description: `Not taken on charges: ${message}`,
      message: () => ({ message, override: true })
    })
  )

const {
  date: _date,
  costOfAcceptance: _costOfAcceptance,
  merchantCategoryCode: _merchantCategoryCode,
  ...chargeFields
} = EstimateRequest.fields

/** The charge request. */
export const ChargeCreate = closed(
  Schema.Struct({
    ...chargeFields,
    date: notOnCharges(
      "a charge is judged by the rules in force on the day it is made. To see another day's rules, pass date to POST /v1/regions/check-compliance."
    ),
    costOfAcceptance: notOnCharges(
      "a charge uses the fee configuration's costOfAcceptance. Set it with POST /v1/fee-configs, or pass costOfAcceptance to POST /v1/regions/check-compliance to try another."
    ),
    merchantCategoryCode: notOnCharges(
      "a charge uses the fee configuration's merchantCategoryCode. Set it with POST /v1/fee-configs, or pass merchantCategoryCode to POST /v1/regions/check-compliance to try another."
    ),
    source: Schema.optional(Quote.Source),
    estimate: Schema.optional(
      Quote.EstimateId.annotations({
        description:
          "An estimate (est_…) of this amount, currency and region: the fee collected is never more than the one it quoted (docs/quotes.md)."
      })
    ),
    customer: Schema.optional(
      Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_CUSTOMER_LENGTH))
    ),
    description: Schema.optional(Schema.String.pipe(Schema.maxLength(MAX_DESCRIPTION_LENGTH))),
    metadata: Schema.optional(MetadataCreate)
  }),
  "ChargeCreate"
)
export type ChargeCreate = typeof ChargeCreate.Type

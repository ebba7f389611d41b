/** The body of `POST /v1/refunds` (docs/design.md §4). Unknown fields are refused. */
import { Schema } from "effect"
import { closed } from "./Field.js"
import { MetadataCreate } from "./Metadata.js"
import { RefundReason } from "./Refund.js"

/** The refund request. */
export const RefundCreate = closed(
  Schema.Struct({
    charge: Schema.String.pipe(Schema.minLength(1)).annotations({
      description: "Id of the charge to refund (ch_…)."
    }),
    amount: Schema.optional(
      Schema.Int.pipe(Schema.positive()).annotations({
        description: "Part of the base amount to refund, minor units; default all that is left."
      })
    ),
    reason: Schema.optional(RefundReason),
    refundFee: Schema.optional(
      Schema.Boolean.annotations({
        description:
          "Absent: the fee is refunded pro rata to amount. true: all of the fee not yet refunded goes back too. false: none of it."
      })
    ),
    metadata: Schema.optional(MetadataCreate)
  }),
  "RefundCreate"
)
export type RefundCreate = typeof RefundCreate.Type

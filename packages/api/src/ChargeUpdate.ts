/**
 * The body of `POST /v1/charges/{id}` (docs/design.md §4): a charge's description and metadata
 * changed after it is made, with Stripe's semantics. Fields left out are left as they are;
 * `metadata`'s keys are merged into the charge's, and a key set to "" is removed. Unknown
 * fields are refused, naming the field.
 */
import { Schema } from "effect"
import { MAX_DESCRIPTION_LENGTH } from "./ChargeCreate.js"
import { closed } from "./Field.js"
import { MetadataCreate } from "./Metadata.js"

/** The charge update. */
export const ChargeUpdate = closed(
  Schema.Struct({
    description: Schema.optional(
      Schema.NullOr(Schema.String.pipe(Schema.maxLength(MAX_DESCRIPTION_LENGTH))).annotations({
        description: 'The new description; "" or null removes it.'
      })
    ),
    metadata: Schema.optional(
      MetadataCreate.annotations({
        description:
          'Keys to set, merged into the charge\'s metadata; a key set to "" is removed. The result keeps the metadata limits.'
      })
    )
  }),
  "ChargeUpdate"
)
export type ChargeUpdate = typeof ChargeUpdate.Type

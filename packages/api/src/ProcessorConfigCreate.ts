/**
 * The body of `POST /v1/processor-config`: the processor and its credentials by name (which
 * names each processor needs is checked by the server against the processor's definition).
 * Unknown fields are refused.
 */
import { Schema } from "effect"
import { closed } from "./Field.js"
import { ProcessorName } from "./ProcessorConfig.js"

/** Most credentials a processor takes; longest name and value. */
export const MAX_CREDENTIALS = 20
export const MAX_CREDENTIAL_NAME = 64
export const MAX_CREDENTIAL_VALUE = 4096

/** The credentials: non-empty strings by name. */
export const Credentials = Schema.Record({
  key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_CREDENTIAL_NAME)),
  value: Schema.String.pipe(
    Schema.minLength(1, { message: () => "must be a non-empty string" }),
    Schema.maxLength(MAX_CREDENTIAL_VALUE)
  )
}).pipe(
  Schema.filter((record) => Object.keys(record).length <= MAX_CREDENTIALS, {
    message: () => `must have at most ${MAX_CREDENTIALS} credentials`
  })
)

/** The create-or-replace request. */
export const ProcessorConfigCreate = closed(
  Schema.Struct({
    processor: ProcessorName,
    credentials: Credentials.annotations({
      description:
        "Stripe: secretKey, webhookSecret. Adyen: apiKey, merchantAccount, then hmacKey once the webhook exists, liveEndpointUrlPrefix (live), returnUrl (optional)."
    }),
    surcharge: Schema.optional(
      Schema.Boolean.annotations({
        description:
          "Also send the fee in the processor's surcharge field (Adyen, where enabled; refused for Stripe)."
      })
    )
  }),
  "ProcessorConfigCreate"
)
export type ProcessorConfigCreate = typeof ProcessorConfigCreate.Type

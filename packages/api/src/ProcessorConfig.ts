/**
 * The payment processor configured for the key's account and mode (`object:
 * "processor_config"`, docs/design.md §4): which processor charges, its credentials masked
 * (never the secrets themselves), and the URL where the processor's notifications go.
 */
import { Schema } from "effect"
import { Livemode, oneOf, Timestamp } from "./Field.js"

/** The processors Levy can charge through. */
export const PROCESSORS = ["stripe", "adyen"] as const

/** A processor's name. */
export const ProcessorName = oneOf(...PROCESSORS).annotations({
  description: "The payment processor: stripe or adyen."
})
export type ProcessorName = typeof ProcessorName.Type

/** The processor configuration. */
export const ProcessorConfig = Schema.Struct({
  object: Schema.Literal("processor_config"),
  processor: ProcessorName,
  livemode: Livemode,
  credentials: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description:
      'Each saved credential by name, masked ("sk_live_…4242"): the secrets are never returned.'
  }),
  surcharge: Schema.Boolean.annotations({
    description: "Whether the fee is also sent in the processor's surcharge field."
  }),
  webhookUrl: Schema.String.annotations({
    description:
      "The path on this server to register with the processor for its notifications: /v1/processor-webhooks/{account}/{test|live}/{processor}."
  }),
  created: Timestamp,
  updated: Timestamp
}).annotations({ identifier: "ProcessorConfig" })
export type ProcessorConfig = typeof ProcessorConfig.Type

/** The answer to deleting the configuration. */
export const DeletedProcessorConfig = Schema.Struct({
  object: Schema.Literal("processor_config"),
  processor: ProcessorName,
  livemode: Livemode,
  deleted: Schema.Literal(true)
}).annotations({ identifier: "DeletedProcessorConfig" })
export type DeletedProcessorConfig = typeof DeletedProcessorConfig.Type

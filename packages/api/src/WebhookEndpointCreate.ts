/** The body of `POST /v1/webhook-endpoints`. Unknown fields are refused. */
import { Schema } from "effect"
import { closed } from "./Field.js"
import { EnabledEvent, WebhookUrl } from "./WebhookEndpoint.js"

/** Longest endpoint description. */
export const MAX_DESCRIPTION_LENGTH = 1000

/** The event selection: at least one type (or `*`). */
export const EnabledEvents = Schema.Array(EnabledEvent).pipe(
  Schema.minItems(1),
  Schema.maxItems(50)
)

/** The create request. */
export const WebhookEndpointCreate = closed(
  Schema.Struct({
    url: WebhookUrl,
    enabledEvents: EnabledEvents,
    description: Schema.optional(Schema.String.pipe(Schema.maxLength(MAX_DESCRIPTION_LENGTH)))
  }),
  "WebhookEndpointCreate"
)
export type WebhookEndpointCreate = typeof WebhookEndpointCreate.Type

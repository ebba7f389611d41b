/** The body of `POST /v1/webhook-endpoints/{id}`: every field optional. Unknown fields are refused. */
import { Schema } from "effect"
import { closed } from "./Field.js"
import { WebhookEndpointStatus, WebhookUrl } from "./WebhookEndpoint.js"
import { EnabledEvents, MAX_DESCRIPTION_LENGTH } from "./WebhookEndpointCreate.js"

/** The update request. */
export const WebhookEndpointUpdate = closed(
  Schema.Struct({
    url: Schema.optional(WebhookUrl),
    enabledEvents: Schema.optional(EnabledEvents),
    status: Schema.optional(WebhookEndpointStatus),
    description: Schema.optional(
      Schema.NullOr(Schema.String.pipe(Schema.maxLength(MAX_DESCRIPTION_LENGTH)))
    )
  }),
  "WebhookEndpointUpdate"
)
export type WebhookEndpointUpdate = typeof WebhookEndpointUpdate.Type

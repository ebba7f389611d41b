/**
 * A webhook endpoint (`object: "webhook_endpoint"`, id `we_…`): where events of the
 * selected types are POSTed, signed with the endpoint's secret (docs/design.md §8). The secret
 * (`whsec_dev_…` / `whsec_prod_…`) is in the response only when it is created or rolled.
 */
import { Schema } from "effect"
import { EventType } from "./Event.js"
import { Livemode, oneOf, PrefixedId, Timestamp } from "./Field.js"

/** A webhook endpoint id, `we_…`. */
export const WebhookEndpointId = PrefixedId("we")

/** An event type, or `*` for all of them. */
export const EnabledEvent = Schema.Union(EventType, Schema.Literal("*")).annotations({
  message: () => ({
    message: `must be * or one of ${EventType.literals.join(", ")}`,
    override: true
  })
})
export type EnabledEvent = typeof EnabledEvent.Type

/** `enabled` endpoints receive events; `disabled` ones do not. */
export const WebhookEndpointStatus = oneOf("enabled", "disabled")

/** An http(s) URL of at most 2048 characters; HTTPS and public addresses are required in live mode. */
export const WebhookUrl = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.filter((text) => isHttpUrl(text), { message: () => "must be an http or https URL" })
).annotations({
  description: "http(s) URL. Live mode: HTTPS, not a loopback, private or link-local address."
})

const isHttpUrl = (text: string): boolean => {
  try {
    const url = new URL(text)
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== ""
  } catch {
    return false
  }
}

/** The signing secret: `whsec_dev_…` (test) or `whsec_prod_…` (live). */
export const WebhookSecret = Schema.String.pipe(Schema.pattern(/^whsec_(dev|prod)_[A-Za-z0-9]+$/))

/** The webhook endpoint. */
export const WebhookEndpoint = Schema.Struct({
  id: WebhookEndpointId,
  object: Schema.Literal("webhook_endpoint"),
  url: WebhookUrl,
  enabledEvents: Schema.Array(EnabledEvent),
  status: WebhookEndpointStatus,
  description: Schema.NullOr(Schema.String),
  created: Timestamp,
  livemode: Livemode,
  secret: Schema.optional(
    WebhookSecret.annotations({
      description: "The signing secret; present only in the create and roll-secret responses."
    })
  )
}).annotations({ identifier: "WebhookEndpoint" })
export type WebhookEndpoint = typeof WebhookEndpoint.Type

/** The answer to deleting an endpoint. */
export const DeletedWebhookEndpoint = Schema.Struct({
  id: WebhookEndpointId,
  object: Schema.Literal("webhook_endpoint"),
  deleted: Schema.Literal(true)
}).annotations({ identifier: "DeletedWebhookEndpoint" })
export type DeletedWebhookEndpoint = typeof DeletedWebhookEndpoint.Type

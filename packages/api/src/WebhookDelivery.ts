/**
 * The delivery of one event to one endpoint (`object: "webhook_delivery"`, id `wd_…`) with
 * every attempt recorded (docs/design.md §8): at least once, retried with backoff for up to
 * three days, then `failed`.
 */
import { Schema } from "effect"
import { EventId, EventType } from "./Event.js"
import { PrefixedId, Timestamp } from "./Field.js"
import { WebhookEndpointId } from "./WebhookEndpoint.js"

/** A delivery id, `wd_…`. */
export const WebhookDeliveryId = PrefixedId("wd")

/** One POST of the event to the endpoint. */
export const DeliveryAttempt = Schema.Struct({
  attemptedAt: Timestamp,
  responseStatus: Schema.NullOr(Schema.Int).annotations({
    description: "The endpoint's HTTP status; null when no response came (timeout, network)."
  }),
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Int.pipe(Schema.nonNegative())
}).annotations({ identifier: "DeliveryAttempt" })
export type DeliveryAttempt = typeof DeliveryAttempt.Type

/** The delivery. */
export const WebhookDelivery = Schema.Struct({
  id: WebhookDeliveryId,
  object: Schema.Literal("webhook_delivery"),
  webhookEndpoint: WebhookEndpointId,
  event: EventId,
  eventType: EventType,
  status: Schema.Literal("pending", "succeeded", "failed").annotations({
    description: "pending while attempts remain; succeeded on a 2xx; failed when retries ran out."
  }),
  attempts: Schema.Array(DeliveryAttempt),
  nextAttemptAt: Schema.NullOr(Timestamp),
  created: Timestamp
}).annotations({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type

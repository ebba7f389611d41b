/** Stored webhook endpoints and deliveries as their wire shapes. */
import type { WebhookDelivery, WebhookEndpoint } from "@levy/api"
import type {
  WebhookDelivery as StoredDelivery,
  WebhookEndpoint as StoredEndpoint,
  WebhookAttempt
} from "@levy/storage"

/** The wire endpoint; `secret` only when it was just created or rolled. */
export const endpoint = (e: StoredEndpoint, secret?: string): WebhookEndpoint.WebhookEndpoint => ({
  id: e.id,
  object: "webhook_endpoint",
  url: e.url,
  // Stored as given by a request that was validated against `EnabledEvent`.
  enabledEvents: e.enabledEvents as ReadonlyArray<WebhookEndpoint.EnabledEvent>,
  status: e.status,
  description: e.description,
  created: e.created,
  livemode: e.livemode,
  ...(secret === undefined ? {} : { secret })
})

/** The wire attempt. */
export const attempt = (a: WebhookAttempt): WebhookDelivery.DeliveryAttempt => ({
  attemptedAt: a.created,
  responseStatus: a.statusCode,
  error: a.error,
  durationMs: a.durationMs
})

/**
 * The wire delivery, given its event's type and its attempts oldest first. The next attempt
 * is shown only while one is due (the store keeps the last due time after it finished).
 */
export const delivery = (
  d: StoredDelivery,
  eventType: WebhookDelivery.WebhookDelivery["eventType"],
  attempts: ReadonlyArray<WebhookAttempt>
): WebhookDelivery.WebhookDelivery => ({
  id: d.id,
  object: "webhook_delivery",
  webhookEndpoint: d.endpointId,
  event: d.eventId,
  eventType,
  status: d.status,
  attempts: attempts.map(attempt),
  nextAttemptAt: d.status === "pending" ? Math.ceil(d.nextAttemptAtMs / 1000) : null,
  created: d.created
})

/**
 * An endpoint's deliveries, newest first (docs/design.md §8), each with its event's type and
 * its attempts, oldest first. An endpoint not the tenant's is `WebhookEndpointNotFound`.
 */
import type { WebhookDelivery } from "@levy/api"
import {
  EventRepository,
  type Page,
  type WebhookDelivery as StoredDelivery,
  type Tenant,
  WebhookDeliveryRepository,
  type WebhookEndpointRepository
} from "@levy/storage"
import { Effect } from "effect"
import type * as ListRequest from "../lists/ListRequest.js"
import * as Paging from "../lists/Paging.js"
import { retrieveWebhookEndpoint } from "./retrieveWebhookEndpoint.js"
import type { WebhookEndpointNotFound } from "./WebhookEndpointErrors.js"
import * as Wire from "./Wire.js"

/** Every attempt of one delivery fits: the retry schedule makes far fewer. */
const MAX_ATTEMPTS_SHOWN = 100

/** The delivery's wire form: its event's type and its attempts, oldest first. */
const deliveryWire = (tenant: Tenant.Tenant, d: StoredDelivery) =>
  Effect.gen(function* () {
    const events = yield* EventRepository
    const deliveries = yield* WebhookDeliveryRepository
    const event = yield* events.get(tenant, d.eventId)
    const attempts = yield* deliveries.listAttempts(tenant, d.id, { limit: MAX_ATTEMPTS_SHOWN })
    return Wire.delivery(
      d,
      event.type as WebhookDelivery.WebhookDelivery["eventType"],
      [...attempts.data].reverse()
    )
  }).pipe(
    // Both were read through the delivery: missing now means a concurrent delete.
    Effect.catchTag("RecordNotFound", (e) => Effect.die(e))
  )

export const listWebhookDeliveries = (
  tenant: Tenant.Tenant,
  endpoint: string,
  request: ListRequest.ListRequest
): Effect.Effect<
  Page.Page<WebhookDelivery.WebhookDelivery>,
  Paging.PageError | WebhookEndpointNotFound,
  EventRepository | WebhookDeliveryRepository | WebhookEndpointRepository
> =>
  Effect.gen(function* () {
    yield* retrieveWebhookEndpoint(tenant, endpoint)
    const deliveries = yield* WebhookDeliveryRepository
    return yield* Paging.page(
      request,
      (page) => deliveries.list(tenant, { ...page, endpoint }),
      (found) => Effect.forEach(found, (d) => deliveryWire(tenant, d))
    )
  })

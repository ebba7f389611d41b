/**
 * The webhook-endpoints group over HTTP (docs/design.md §8): create, retrieve, update, delete
 * and roll the secret (the workflows of their own files), and the listings of endpoints and
 * of an endpoint's deliveries.
 */
import type { WebhookDelivery } from "@levy/api"
import { createWebhookEndpoint } from "@levy/engine/webhookEndpoints/createWebhookEndpoint.js"
import { deleteWebhookEndpoint } from "@levy/engine/webhookEndpoints/deleteWebhookEndpoint.js"
import { retrieveWebhookEndpoint } from "@levy/engine/webhookEndpoints/retrieveWebhookEndpoint.js"
import { rollWebhookSecret } from "@levy/engine/webhookEndpoints/rollWebhookSecret.js"
import { updateWebhookEndpoint } from "@levy/engine/webhookEndpoints/updateWebhookEndpoint.js"
import * as Wire from "@levy/engine/webhookEndpoints/Wire.js"
import {
  EventRepository,
  type WebhookDelivery as StoredDelivery,
  type Tenant,
  WebhookDeliveryRepository,
  WebhookEndpointRepository
} from "@levy/storage"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import { unavailable } from "../http/Unavailable.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/webhook-endpoints"

/** Every attempt of one delivery fits: the retry schedule makes far fewer. */
const MAX_ATTEMPTS_SHOWN = 100

export const WebhookEndpointsLive = ApiHandlers.group("webhookEndpoints", (handlers) =>
  Effect.gen(function* () {
    const repo = yield* WebhookEndpointRepository
    const deliveries = yield* WebhookDeliveryRepository
    const events = yield* EventRepository

    /** The delivery's wire form: its event's type and its attempts, oldest first. */
    const deliveryWire = (tenant: Tenant.Tenant) => (d: StoredDelivery) =>
      Effect.gen(function* () {
        const event = yield* events.get(tenant, d.eventId)
        const attempts = yield* deliveries.listAttempts(tenant, d.id, {
          limit: MAX_ATTEMPTS_SHOWN
        })
        return Wire.delivery(
          d,
          event.type as WebhookDelivery.WebhookDelivery["eventType"],
          [...attempts.data].reverse()
        )
      }).pipe(
        // Both were read through the delivery: missing now means a concurrent delete.
        Effect.catchTag("RecordNotFound", (e) => Effect.die(e)),
        Effect.catchTag("StorageError", unavailable)
      )

    return handlers
      .handle("create", ({ payload }) =>
        Handle.write((tenant, claim) => createWebhookEndpoint(tenant, payload, claim))
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const tenant = yield* Handle.tenant
          return yield* Listing.respond(
            urlParams,
            URL_PATH,
            (request) => repo.list(tenant, request),
            (e) => Effect.succeed(Wire.endpoint(e))
          )
        })
      )
      .handle("retrieve", ({ path }) =>
        Handle.read((tenant) => retrieveWebhookEndpoint(tenant, path.id))
      )
      .handle("update", ({ path, payload }) =>
        Handle.write((tenant, claim) => updateWebhookEndpoint(tenant, path.id, payload, claim))
      )
      .handle("delete", ({ path }) =>
        Handle.write((tenant, claim) => deleteWebhookEndpoint(tenant, path.id, claim))
      )
      .handle("rollSecret", ({ path }) =>
        Handle.write((tenant, claim) => rollWebhookSecret(tenant, path.id, claim))
      )
      .handle("listDeliveries", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const tenant = yield* Handle.tenant
          yield* Handle.read((t) => retrieveWebhookEndpoint(t, path.id))
          return yield* Listing.respond(
            urlParams,
            `${URL_PATH}/${path.id}/deliveries`,
            (request) => deliveries.list(tenant, { ...request, endpoint: path.id }),
            deliveryWire(tenant)
          )
        })
      )
  })
)

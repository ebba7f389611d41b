/**
 * The webhook-endpoints group over HTTP (docs/design.md §8): create, retrieve, update, delete
 * and roll the secret (the workflows of their own files), and the listings of endpoints and
 * of an endpoint's deliveries.
 */
import { createWebhookEndpoint } from "@levy/engine/webhookEndpoints/createWebhookEndpoint.js"
import { deleteWebhookEndpoint } from "@levy/engine/webhookEndpoints/deleteWebhookEndpoint.js"
import { listWebhookDeliveries } from "@levy/engine/webhookEndpoints/listWebhookDeliveries.js"
import { listWebhookEndpoints } from "@levy/engine/webhookEndpoints/listWebhookEndpoints.js"
import { retrieveWebhookEndpoint } from "@levy/engine/webhookEndpoints/retrieveWebhookEndpoint.js"
import { rollWebhookSecret } from "@levy/engine/webhookEndpoints/rollWebhookSecret.js"
import { updateWebhookEndpoint } from "@levy/engine/webhookEndpoints/updateWebhookEndpoint.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/webhook-endpoints"

export const WebhookEndpointsLive = ApiHandlers.group("webhookEndpoints", (handlers) =>
  Effect.sync(() => {
    return handlers
      .handle("create", ({ payload }) =>
        Handle.write((tenant, claim) => createWebhookEndpoint(tenant, payload, claim))
      )
      .handle("list", ({ urlParams }) =>
        Handle.list(URL_PATH, (tenant) =>
          listWebhookEndpoints(tenant, Listing.requestOf(urlParams))
        )
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
        Handle.list(`${URL_PATH}/${path.id}/deliveries`, (tenant) =>
          listWebhookDeliveries(tenant, path.id, Listing.requestOf(urlParams))
        )
      )
  })
)

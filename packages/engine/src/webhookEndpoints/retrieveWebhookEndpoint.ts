/** Reading one webhook endpoint (docs/design.md §8), free of HTTP; never its secret. */
import type { WebhookEndpoint } from "@levy/api"
import { type StorageError, type Tenant, WebhookEndpointRepository } from "@levy/storage"
import { Effect } from "effect"
import { WebhookEndpointNotFound } from "./WebhookEndpointErrors.js"
import * as Wire from "./Wire.js"

export const retrieveWebhookEndpoint = (
  tenant: Tenant.Tenant,
  id: string
): Effect.Effect<
  WebhookEndpoint.WebhookEndpoint,
  WebhookEndpointNotFound | StorageError,
  WebhookEndpointRepository
> =>
  Effect.flatMap(WebhookEndpointRepository, (repo) => repo.get(tenant, id)).pipe(
    Effect.map((e) => Wire.endpoint(e)),
    Effect.catchTag("RecordNotFound", () => new WebhookEndpointNotFound({ id }))
  )

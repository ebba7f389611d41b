/**
 * Deleting a webhook endpoint (docs/design.md §8), free of HTTP: no event is sent to it from
 * then on.
 */
import { WebhookEndpoint } from "@levy/api"
import { type StorageError, type Tenant, WebhookEndpointRepository } from "@levy/storage"
import { Effect, Option } from "effect"
import type * as Claims from "../idempotency/Claim.js"
import type * as Written from "../idempotency/Written.js"
import type { WebhookEndpointServices } from "./createWebhookEndpoint.js"
import { recorded } from "./Recorded.js"
import { WebhookEndpointNotFound } from "./WebhookEndpointErrors.js"

export type DeleteWebhookEndpointError = WebhookEndpointNotFound | StorageError

export const deleteWebhookEndpoint = (
  tenant: Tenant.Tenant,
  id: string,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<
  Written.Written<WebhookEndpoint.DeletedWebhookEndpoint>,
  DeleteWebhookEndpointError,
  WebhookEndpointServices
> =>
  Effect.flatMap(WebhookEndpointRepository, (repo) =>
    recorded(
      claim,
      WebhookEndpoint.DeletedWebhookEndpoint,
      Effect.map(repo.remove(tenant, id), (e) => ({
        id: e.id,
        object: "webhook_endpoint" as const,
        deleted: true as const
      }))
    )
  ).pipe(Effect.catchTag("RecordNotFound", () => new WebhookEndpointNotFound({ id })))

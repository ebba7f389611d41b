/**
 * Changing a webhook endpoint (docs/design.md §8), free of HTTP: its URL (checked for the
 * tenant's mode), events, status or description.
 */
import { WebhookEndpoint, type WebhookEndpointUpdate } from "@levy/api"
import { type StorageError, type Tenant, WebhookEndpointRepository } from "@levy/storage"
import { Effect, Option } from "effect"
import type * as Claims from "../idempotency/Claim.js"
import type * as Written from "../idempotency/Written.js"
import type { WebhookEndpointServices } from "./createWebhookEndpoint.js"
import * as EndpointUrl from "./EndpointUrl.js"
import { recorded } from "./Recorded.js"
import { WebhookEndpointNotFound, type WebhookUrlRefused } from "./WebhookEndpointErrors.js"
import * as Wire from "./Wire.js"

export type UpdateWebhookEndpointError = WebhookUrlRefused | WebhookEndpointNotFound | StorageError

export const updateWebhookEndpoint = (
  tenant: Tenant.Tenant,
  id: string,
  input: WebhookEndpointUpdate.WebhookEndpointUpdate,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<
  Written.Written<WebhookEndpoint.WebhookEndpoint>,
  UpdateWebhookEndpointError,
  WebhookEndpointServices
> =>
  Effect.gen(function* () {
    if (input.url !== undefined) yield* EndpointUrl.check(tenant, input.url)
    const repo = yield* WebhookEndpointRepository
    return yield* recorded(
      claim,
      WebhookEndpoint.WebhookEndpoint,
      Effect.map(repo.update(tenant, id, input), (e) => Wire.endpoint(e))
    ).pipe(Effect.catchTag("RecordNotFound", () => new WebhookEndpointNotFound({ id })))
  })

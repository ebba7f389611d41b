/**
 * Rolling a webhook endpoint's signing secret (docs/design.md §8), free of HTTP: a fresh
 * secret answered once (stored sealed for the request's key); the old one keeps signing
 * beside it for 24 hours, so receivers can switch without losing events.
 */
import { WebhookEndpoint } from "@levy/api"
import { type StorageError, type Tenant, WebhookEndpointRepository } from "@levy/storage"
import { Clock, Effect, Option } from "effect"
import type * as Claims from "../idempotency/Claim.js"
import type * as Written from "../idempotency/Written.js"
import type { WebhookEndpointServices } from "./createWebhookEndpoint.js"
import { recorded } from "./Recorded.js"
import * as Secrets from "./Secrets.js"
import { WebhookEndpointNotFound } from "./WebhookEndpointErrors.js"
import * as Wire from "./Wire.js"

export type RollWebhookSecretError = WebhookEndpointNotFound | StorageError

export const rollWebhookSecret = (
  tenant: Tenant.Tenant,
  id: string,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<
  Written.Written<WebhookEndpoint.WebhookEndpoint>,
  RollWebhookSecretError,
  WebhookEndpointServices
> =>
  Effect.gen(function* () {
    const repo = yield* WebhookEndpointRepository
    const secret = Secrets.make(tenant.livemode)
    const now = yield* Clock.currentTimeMillis
    return yield* recorded(
      claim,
      WebhookEndpoint.WebhookEndpoint,
      Effect.map(
        repo.rollSecret(tenant, id, {
          secret,
          previousExpiresAtMs: now + Secrets.PREVIOUS_SECRET_VALIDITY_MS
        }),
        (e) => Wire.endpoint(e, secret)
      )
    ).pipe(Effect.catchTag("RecordNotFound", () => new WebhookEndpointNotFound({ id })))
  })

/**
 * Creating a webhook endpoint (docs/design.md §8), free of HTTP: its URL checked for the
 * tenant's mode, a fresh signing secret made, and the endpoint answered with that secret,
 * the only time it is shown (stored sealed for the request's key). At most
 * `MAX_ENDPOINTS` (16) per account and mode, counted by the store.
 */
import { WebhookEndpoint, type WebhookEndpointCreate } from "@levy/api"
import {
  type IdempotencyRepository,
  Ids,
  type StorageError,
  type Tenant,
  type Transactions,
  WebhookEndpointRepository
} from "@levy/storage"
import { Clock, Effect, Option } from "effect"
import type * as Claims from "../idempotency/Claim.js"
import type * as Written from "../idempotency/Written.js"
import * as EndpointUrl from "./EndpointUrl.js"
import { recorded } from "./Recorded.js"
import * as Secrets from "./Secrets.js"
import { WebhookEndpointLimitReached, type WebhookUrlRefused } from "./WebhookEndpointErrors.js"
import * as Wire from "./Wire.js"

export type CreateWebhookEndpointError =
  | WebhookUrlRefused
  | WebhookEndpointLimitReached
  | StorageError

export type WebhookEndpointServices =
  | WebhookEndpointRepository
  | IdempotencyRepository
  | Ids
  | Transactions

export const createWebhookEndpoint = (
  tenant: Tenant.Tenant,
  input: WebhookEndpointCreate.WebhookEndpointCreate,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<
  Written.Written<WebhookEndpoint.WebhookEndpoint>,
  CreateWebhookEndpointError,
  WebhookEndpointServices
> =>
  Effect.gen(function* () {
    yield* EndpointUrl.check(tenant, input.url)
    const repo = yield* WebhookEndpointRepository
    const secret = Secrets.make(tenant.livemode)
    const endpoint = {
      id: yield* Effect.flatMap(Ids, (ids) => ids.make("we")),
      accountId: tenant.accountId,
      livemode: tenant.livemode,
      url: input.url,
      enabledEvents: input.enabledEvents,
      status: "enabled" as const,
      description: input.description ?? null,
      created: Math.floor((yield* Clock.currentTimeMillis) / 1000),
      secret
    }
    return yield* recorded(
      claim,
      WebhookEndpoint.WebhookEndpoint,
      Effect.map(repo.create(endpoint), (e) => Wire.endpoint(e, secret))
    ).pipe(
      // A fresh random id: a clash is a defect, not the caller's.
      Effect.catchTag("DuplicateRecord", (e) => Effect.die(e)),
      // The store counts, so creates at once cannot pass the limit together.
      Effect.catchTag("LimitReached", ({ limit }) =>
        Effect.fail(new WebhookEndpointLimitReached({ livemode: tenant.livemode, limit }))
      )
    )
  })

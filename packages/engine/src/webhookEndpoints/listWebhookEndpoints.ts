/** The tenant's webhook endpoints, newest first (docs/design.md §8); never their secrets. */
import type { WebhookEndpoint } from "@levy/api"
import { type Page, type Tenant, WebhookEndpointRepository } from "@levy/storage"
import { Effect } from "effect"
import type * as ListRequest from "../lists/ListRequest.js"
import * as Paging from "../lists/Paging.js"
import * as Wire from "./Wire.js"

export const listWebhookEndpoints = (
  tenant: Tenant.Tenant,
  request: ListRequest.ListRequest
): Effect.Effect<
  Page.Page<WebhookEndpoint.WebhookEndpoint>,
  Paging.PageError,
  WebhookEndpointRepository
> =>
  Effect.flatMap(WebhookEndpointRepository, (repo) =>
    Paging.pageOf(
      request,
      (page) => repo.list(tenant, page),
      (e) => Wire.endpoint(e)
    )
  )

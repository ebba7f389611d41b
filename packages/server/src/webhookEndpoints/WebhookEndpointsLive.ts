/**
 * Handlers of the webhook-endpoints group (docs/design.md §8): create (the signing secret in the
 * response, once), list, retrieve, update, delete, roll the secret (the old one keeps
 * signing for 24 h) and the endpoint's deliveries. Every URL passes `UrlGuard` for the
 * key's mode; every write stores its idempotent response in the write's transaction.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ApiError, CurrentKey, type WebhookDelivery, WebhookEndpoint } from "@levy/api"
import {
  EventRepository,
  Ids,
  type WebhookDelivery as StoredDelivery,
  type Tenant,
  Transactions,
  WebhookDeliveryRepository,
  WebhookEndpointRepository
} from "@levy/storage"
import { Clock, Effect, type Schema } from "effect"
import { tenantOf, unavailable } from "../feeConfigs/Config.js"
import * as Idempotency from "../http/Idempotency.js"
import * as Listing from "../http/Listing.js"
import { ServerApi } from "../ServerApi.js"
import { LoopbackTargets } from "./LoopbackTargets.js"
import * as Secrets from "./Secrets.js"
import * as UrlGuard from "./UrlGuard.js"
import * as Wire from "./Wire.js"

const URL_PATH = "/v1/webhook-endpoints"

/** The fields of a stored response that hold a secret. */
const SEALED = ["secret"]

/** Every attempt of one delivery fits: the retry schedule makes far fewer. */
const MAX_ATTEMPTS_SHOWN = 100

const notFound = (id: string) => ApiError.noSuch("webhook endpoint", id)

/** Storage failures of a call on one endpoint, for `catchTags`: unknown id → 404, store down → 503. */
const endpointFailures = (id: string) => ({
  RecordNotFound: () => Effect.fail(notFound(id)),
  StorageError: unavailable
})

export const WebhookEndpointsLive = HttpApiBuilder.group(
  ServerApi,
  "webhookEndpoints",
  (handlers) =>
    Effect.gen(function* () {
      const repo = yield* WebhookEndpointRepository
      const deliveries = yield* WebhookDeliveryRepository
      const events = yield* EventRepository
      const transactions = yield* Transactions
      const ids = yield* Ids
      const allowLoopback = yield* LoopbackTargets

      /**
       * Runs a write and stores `schema`'s encoding of its answer with it; the signing secret
       * an answer shows once is stored sealed (docs/design.md §7).
       */
      const writing = <A, I, E, R>(schema: Schema.Schema<A, I>, write: Effect.Effect<A, E, R>) =>
        transactions.run(
          Effect.tap(write, (answer) => Idempotency.recordSuccess(schema, answer, SEALED))
        )

      const currentTenant = Effect.map(CurrentKey.CurrentKey, tenantOf)

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
          Effect.gen(function* () {
            const tenant = yield* currentTenant
            yield* UrlGuard.check(payload.url, { livemode: tenant.livemode, allowLoopback })
            const secret = Secrets.make(tenant.livemode)
            const created = {
              id: yield* ids.make("we"),
              accountId: tenant.accountId,
              livemode: tenant.livemode,
              url: payload.url,
              enabledEvents: payload.enabledEvents,
              status: "enabled" as const,
              description: payload.description ?? null,
              created: Math.floor((yield* Clock.currentTimeMillis) / 1000),
              secret
            }
            return yield* writing(
              WebhookEndpoint.WebhookEndpoint,
              Effect.map(repo.create(created), (e) => Wire.endpoint(e, secret))
            ).pipe(
              Effect.catchTags({
                // A fresh random id: a clash is a defect, not the caller's.
                DuplicateRecord: (e) => Effect.die(e),
                StorageError: unavailable
              })
            )
          })
        )
        .handle("list", ({ urlParams }) =>
          Effect.gen(function* () {
            const tenant = yield* currentTenant
            return yield* Listing.respond(
              urlParams,
              URL_PATH,
              (request) => repo.list(tenant, request),
              (e) => Effect.succeed(Wire.endpoint(e))
            )
          })
        )
        .handle("retrieve", ({ path }) =>
          Effect.gen(function* () {
            const tenant = yield* currentTenant
            return Wire.endpoint(
              yield* repo.get(tenant, path.id).pipe(Effect.catchTags(endpointFailures(path.id)))
            )
          })
        )
        .handle("update", ({ path, payload }) =>
          Effect.gen(function* () {
            const tenant = yield* currentTenant
            if (payload.url !== undefined) {
              yield* UrlGuard.check(payload.url, { livemode: tenant.livemode, allowLoopback })
            }
            return yield* writing(
              WebhookEndpoint.WebhookEndpoint,
              Effect.map(repo.update(tenant, path.id, payload), (e) => Wire.endpoint(e))
            ).pipe(Effect.catchTags(endpointFailures(path.id)))
          })
        )
        .handle("delete", ({ path }) =>
          Effect.gen(function* () {
            const tenant = yield* currentTenant
            return yield* writing(
              WebhookEndpoint.DeletedWebhookEndpoint,
              Effect.map(repo.remove(tenant, path.id), (e) => ({
                id: e.id,
                object: "webhook_endpoint" as const,
                deleted: true as const
              }))
            ).pipe(Effect.catchTags(endpointFailures(path.id)))
          })
        )
        .handle("rollSecret", ({ path }) =>
          Effect.gen(function* () {
            const tenant = yield* currentTenant
            const secret = Secrets.make(tenant.livemode)
            const now = yield* Clock.currentTimeMillis
            return yield* writing(
              WebhookEndpoint.WebhookEndpoint,
              Effect.map(
                repo.rollSecret(tenant, path.id, {
                  secret,
                  previousExpiresAtMs: now + Secrets.PREVIOUS_SECRET_VALIDITY_MS
                }),
                (e) => Wire.endpoint(e, secret)
              )
            ).pipe(Effect.catchTags(endpointFailures(path.id)))
          })
        )
        .handle("listDeliveries", ({ path, urlParams }) =>
          Effect.gen(function* () {
            const tenant = yield* currentTenant
            yield* repo.get(tenant, path.id).pipe(Effect.catchTags(endpointFailures(path.id)))
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

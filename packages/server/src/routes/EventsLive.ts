/**
 * Handlers of the events group (docs/design.md §8): the account's events newest first (by type
 * and creation time), one event, and resending one — a delivery to every enabled endpoint
 * subscribed to its type, queued in one transaction with the stored idempotent response.
 */
import { ApiError, CurrentKey, Event } from "@levy/api"
import { toWire } from "@levy/engine/events/EventWire.js"
import {
  EventRepository,
  type Tenant,
  Transactions,
  WebhookDeliveryRepository,
  WebhookEndpointRepository
} from "@levy/storage"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as OtherMode from "../http/OtherMode.js"
import { unavailable } from "../http/Unavailable.js"
import { tenantOf } from "./Handle.js"
import * as Idempotency from "./HandlerIdempotency.js"

const URL_PATH = "/v1/events"

export const EventsLive = ApiHandlers.group("events", (handlers) =>
  Effect.gen(function* () {
    const events = yield* EventRepository
    const endpoints = yield* WebhookEndpointRepository
    const deliveries = yield* WebhookDeliveryRepository
    const transactions = yield* Transactions

    const find = (tenant: Tenant.Tenant, id: string) =>
      events.get(tenant, id).pipe(
        Effect.catchTags({
          RecordNotFound: () =>
            OtherMode.noSuch(tenant, "event", id, (other) => events.get(other, id)),
          StorageError: unavailable
        })
      )

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const tenant = tenantOf(yield* CurrentKey.CurrentKey)
          return yield* Listing.respond(
            urlParams,
            URL_PATH,
            (request) => events.list(tenant, { ...request, type: urlParams.type }),
            toWire
          )
        })
      )
      .handle("retrieve", ({ path }) =>
        Effect.gen(function* () {
          const tenant = tenantOf(yield* CurrentKey.CurrentKey)
          return yield* Effect.flatMap(find(tenant, path.id), toWire)
        })
      )
      .handle("resend", ({ path, payload }) =>
        Effect.gen(function* () {
          const tenant = tenantOf(yield* CurrentKey.CurrentKey)
          return yield* transactions
            .run(
              Effect.gen(function* () {
                const event = yield* find(tenant, path.id)
                const wire = yield* toWire(event)
                const subscribed = yield* endpoints.subscribedTo(tenant, event.type)
                const only = payload?.endpoint
                const targets =
                  only === undefined ? subscribed : subscribed.filter((e) => e.id === only)
                if (only !== undefined && targets.length === 0) {
                  return yield* new ApiError.InvalidRequestError({
                    code: "resource_missing",
                    param: "endpoint",
                    message: `No enabled webhook endpoint '${only}' subscribed to ${event.type} in this account and mode.`
                  })
                }
                // Again even where a delivery exists (succeeded, failed or waiting to retry).
                yield* deliveries.redeliver(
                  tenant,
                  event.id,
                  targets.map((e) => e.id)
                )
                yield* Idempotency.recordSuccess(Event.Event, wire)
                return wire
              })
            )
            .pipe(
              Effect.catchTags({
                // The event was just read in this transaction: an endpoint deleted meanwhile.
                RecordNotFound: () =>
                  Effect.fail(
                    new ApiError.ServiceUnavailableError({
                      message: "The webhook endpoints changed during the request; retry."
                    })
                  ),
                StorageError: unavailable
              })
            )
        })
      )
  })
)

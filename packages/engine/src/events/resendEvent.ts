/**
 * Resending an event (docs/design.md §8): a delivery to every enabled endpoint subscribed to
 * its type, or to the one named, queued again even where one exists (succeeded, failed or
 * waiting to retry), in one transaction with the answer stored for the request's key.
 */
import { Event, type EventResend } from "@levy/api"
import {
  type EventRepository,
  type IdempotencyRepository,
  type StorageError,
  type Tenant,
  Transactions,
  WebhookDeliveryRepository,
  WebhookEndpointRepository
} from "@levy/storage"
import { Effect, Option } from "effect"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import { EndpointNotSubscribed, EndpointsChanged, type EventNotFound } from "./EventErrors.js"
import { toWire } from "./EventWire.js"
import { findEvent } from "./retrieveEvent.js"

export type ResendEventError =
  | EventNotFound
  | EndpointNotSubscribed
  | EndpointsChanged
  | StorageError

export const resendEvent = (
  tenant: Tenant.Tenant,
  id: string,
  input: EventResend.EventResend | undefined,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<
  Written.Written<Event.Event>,
  ResendEventError,
  | EventRepository
  | IdempotencyRepository
  | Transactions
  | WebhookDeliveryRepository
  | WebhookEndpointRepository
> =>
  Effect.gen(function* () {
    const transactions = yield* Transactions
    const endpoints = yield* WebhookEndpointRepository
    const deliveries = yield* WebhookDeliveryRepository
    const wire = yield* transactions.run(
      Effect.gen(function* () {
        const event = yield* findEvent(tenant, id)
        const wire = yield* toWire(event)
        const subscribed = yield* endpoints.subscribedTo(tenant, event.type)
        const only = input?.endpoint
        const targets = only === undefined ? subscribed : subscribed.filter((e) => e.id === only)
        if (only !== undefined && targets.length === 0) {
          return yield* new EndpointNotSubscribed({ endpoint: only, eventType: event.type })
        }
        yield* deliveries.redeliver(
          tenant,
          event.id,
          targets.map((e) => e.id)
        )
        yield* Claims.recordSuccess(claim, Event.Event, wire)
        return wire
      })
    )
    return Written.stored(claim, wire)
  }).pipe(
    // The event was just read in this transaction: an endpoint deleted meanwhile.
    Effect.catchTag("RecordNotFound", () => Effect.fail(new EndpointsChanged()))
  )

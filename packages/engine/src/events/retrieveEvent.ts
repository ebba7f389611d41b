/** Reading one event of the tenant (docs/design.md §8), free of HTTP. */
import type { Event } from "@levy/api"
import {
  EventRepository,
  type StorageError,
  type Event as StoredEvent,
  type Tenant
} from "@levy/storage"
import { Effect } from "effect"
import * as OtherMode from "../lookups/OtherMode.js"
import { EventNotFound } from "./EventErrors.js"
import { toWire } from "./EventWire.js"

export type RetrieveEventError = EventNotFound | StorageError

/** The stored event `id` of the tenant. */
export const findEvent = (
  tenant: Tenant.Tenant,
  id: string
): Effect.Effect<StoredEvent, RetrieveEventError, EventRepository> =>
  Effect.flatMap(EventRepository, (events) =>
    OtherMode.found(
      tenant,
      (t) => events.get(t, id),
      (inOtherMode) => new EventNotFound({ tenant, id, inOtherMode })
    )
  )

export const retrieveEvent = (
  tenant: Tenant.Tenant,
  id: string
): Effect.Effect<Event.Event, RetrieveEventError, EventRepository> =>
  Effect.flatMap(findEvent(tenant, id), toWire)

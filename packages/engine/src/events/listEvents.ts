/** The tenant's events, newest first, of one type or all (docs/design.md §8). */
import { Event } from "@levy/api"
import { EventRepository, type Page, type Tenant } from "@levy/storage"
import { Effect, Schema } from "effect"
import * as ListRequest from "../lists/ListRequest.js"
import * as Paging from "../lists/Paging.js"
import { toWire } from "./EventWire.js"

/** The request: paging, and `type` for events of that type. */
export const EventListRequest = ListRequest.of({ type: Schema.optional(Event.EventType) })
export type EventListRequest = typeof EventListRequest.Type

export const listEvents = (
  tenant: Tenant.Tenant,
  request: EventListRequest
): Effect.Effect<Page.Page<Event.Event>, Paging.PageError, EventRepository> =>
  Effect.flatMap(EventRepository, (events) =>
    Paging.page(
      request,
      (page) => events.list(tenant, { ...page, type: request.type }),
      (found) => Effect.forEach(found, toWire)
    )
  )

/**
 * Handlers of the events group (docs/design.md §8): the account's events newest first (by type
 * and creation time), one event, and resending one (listEvents.ts, retrieveEvent.ts,
 * resendEvent.ts).
 */
import { listEvents } from "@levy/engine/events/listEvents.js"
import { resendEvent } from "@levy/engine/events/resendEvent.js"
import { retrieveEvent } from "@levy/engine/events/retrieveEvent.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/events"

export const EventsLive = ApiHandlers.group("events", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", ({ urlParams }) =>
        Handle.list(URL_PATH, (tenant) =>
          listEvents(tenant, { ...Listing.requestOf(urlParams), type: urlParams.type })
        )
      )
      .handle("retrieve", ({ path }) => Handle.read((tenant) => retrieveEvent(tenant, path.id)))
      .handle("resend", ({ path, payload }) =>
        Handle.write((tenant, claim) => resendEvent(tenant, path.id, payload, claim))
      )
  )
)

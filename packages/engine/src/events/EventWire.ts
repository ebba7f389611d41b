/**
 * A stored event as the wire `Event`. The store keeps `data.object` as the resource's wire
 * JSON, written by the handler that made the change; it is decoded here so the response
 * is checked against the contract. One that does not decode is a defect of whoever
 * wrote it (500, logged), not the caller's.
 */
import { Event } from "@levy/api"
import type { Event as StoredEvent } from "@levy/storage"
import { Effect, Schema } from "effect"

const decode = Schema.decodeUnknown(Event.Event)

/** The wire fields of a stored event, as the API shows it and webhooks send it. */
export const fields = (e: StoredEvent) => ({
  id: e.id,
  object: "event" as const,
  type: e.type,
  data: e.data,
  created: e.created,
  livemode: e.livemode
})

/** The wire event of a stored one. */
export const toWire = (e: StoredEvent): Effect.Effect<Event.Event> =>
  decode(fields(e)).pipe(
    Effect.catchTag("ParseError", (error) =>
      Effect.dieMessage(`stored event ${e.id} does not match the Event schema: ${error.message}`)
    )
  )

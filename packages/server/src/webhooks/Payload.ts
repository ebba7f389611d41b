/**
 * The body of a webhook delivery: the wire event `{id, object, type, data, created,
 * livemode}` (the same JSON as `GET /v1/events/{id}`), serialised once per attempt and
 * signed byte for byte as sent.
 */
import type { Event } from "@levy/storage"

export const body = (e: Event): string =>
  JSON.stringify({
    id: e.id,
    object: "event",
    type: e.type,
    data: e.data,
    created: e.created,
    livemode: e.livemode
  })

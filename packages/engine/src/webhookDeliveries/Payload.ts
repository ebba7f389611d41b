/**
 * The body of a webhook delivery: the wire event `{id, object, type, data, created,
 * livemode}` (the same fields as `GET /v1/events/{id}`), serialised once per attempt and
 * signed byte for byte as sent.
 */
import type { Event } from "@levy/storage"
import { fields } from "../events/EventWire.js"

export const body = (e: Event): string => JSON.stringify(fields(e))

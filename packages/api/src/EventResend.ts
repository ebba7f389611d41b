/**
 * The optional body of `POST /v1/events/{id}/resend`: no body (or null) resends to every
 * enabled endpoint subscribed to the event's type; `{endpoint}` to that one endpoint only.
 */
import { Schema } from "effect"
import { closed } from "./Field.js"

/** The resend request. */
export const EventResend = Schema.NullOr(
  closed(
    Schema.Struct({
      endpoint: Schema.optional(
        Schema.String.pipe(Schema.minLength(1)).annotations({
          description: "Only this webhook endpoint (we_…); it must be enabled and subscribed."
        })
      )
    }),
    "EventResend"
  )
)
export type EventResend = typeof EventResend.Type

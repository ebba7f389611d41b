/**
 * Request headers of the API besides Authorization: `Idempotency-Key` on POSTs (docs/design.md
 * §7) and `Levy-Version` (docs/design.md §9), which the server validates and echoes.
 */
import { Schema } from "effect"

/** The API version this contract describes, and the client's default `apiVersion`. */
export const API_VERSION = "2025-01"

/** The versions the server accepts in `Levy-Version`; any other is a 400. */
export const ApiVersion = Schema.Literal(API_VERSION).annotations({
  message: () => `must be one of ${API_VERSION}`,
  description: `API version; the server echoes the one it used. Default ${API_VERSION}.`
})
export type ApiVersion = typeof ApiVersion.Type

/** An idempotency key: 1 to 255 characters. */
export const IdempotencyKey = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(255)
).annotations({
  description:
    "Makes a POST safe to retry: the first response is stored for 24 h and replayed for the same key and body."
})

/** Headers a POST endpoint declares. Header names are lower case, as the server sees them. */
export const PostHeaders = Schema.Struct({ "idempotency-key": Schema.optional(IdempotencyKey) })
export type PostHeaders = typeof PostHeaders.Type

/**
 * The headers the edge adds to the response of the request being served, as an optional
 * service of the request's context: a handler with a limit of its own
 * (feeConfigs/FeeConfigWriteLimit.ts) sets its `Retry-After` and rate-limit headers here, as
 * the edge does for the key's limit.
 */
import { Context, Effect, Option } from "effect"

export class ResponseHeaders extends Context.Tag("@levy/server/http/ResponseHeaders")<
  ResponseHeaders,
  Record<string, string>
>() {}

/** The current request's response headers; a throwaway record outside a request. */
export const current: Effect.Effect<Record<string, string>> = Effect.map(
  Effect.serviceOption(ResponseHeaders),
  Option.getOrElse(() => ({}))
)

/**
 * Routes the edge hands a request before its key check, its rate limit by key, its version
 * check and its JSON checks: routes that authenticate a request otherwise (the processors'
 * webhooks, by the processor's signature over the raw body). The edge knows none of them by
 * name: the server's composition (Server.ts) provides them, so http/ imports no resource.
 */
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { ApiError } from "@levy/api"
import { Context, type Effect } from "effect"
import type { EdgeRequest } from "./EdgeRequest.js"

export interface KeylessRoute {
  /** The paths it owns whole: every request under this prefix is its to answer, 404 and 405 included. */
  readonly prefix: string
  /** The answer to a request for `pathname` from client `address`; fills response `headers`. */
  readonly handle: (
    request: EdgeRequest,
    pathname: string,
    address: string | undefined,
    headers: Record<string, string>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, ApiError.AnyError>
}

/** The keyless routes the edge serves (a Tag, not a default: a server without them is a mistake). */
export class KeylessRoutes extends Context.Tag("@levy/server/KeylessRoutes")<
  KeylessRoutes,
  ReadonlyArray<KeylessRoute>
>() {}

/** The route that owns `pathname`, if any. */
export const ownerOf = (
  routes: ReadonlyArray<KeylessRoute>,
  pathname: string
): KeylessRoute | undefined => routes.find((route) => pathname.startsWith(route.prefix))

/**
 * The edge's lookup of the request's bearer secret, carried as a service of the request's
 * context: http/Edge.ts provides it around the router, and the Authorization middleware
 * (AuthorizationLive.ts) reads it to reuse the edge's answer instead of a second lookup.
 * Request state travels this way, never in a FiberRef: a service is given to exactly the
 * effect it is provided to, while a FiberRef is state any fiber could set or carry along.
 */
import { Context, Option } from "effect"
import type { ResolvedKey } from "./KeyResolver.js"

/** What the edge's lookup of a secret found (the key, or that there is none), with the secret. */
export interface KeyLookup {
  readonly secret: string
  readonly key: Option.Option<ResolvedKey>
}

/** The edge's lookup of this request's secret; none when it made none (or outside a request). */
export class RequestKey extends Context.Reference<RequestKey>()("@levy/server/RequestKey", {
  defaultValue: (): Option.Option<KeyLookup> => Option.none()
}) {}

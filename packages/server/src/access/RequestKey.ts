/**
 * An edge's lookup of the request's bearer secret, carried as a service of the request's
 * context, for the Authorization middleware (AuthorizationLive.ts) to reuse instead of a
 * second lookup when the contract is served with HttpApiBuilder behind such an edge. Levy's
 * own edge (http/Edge.ts) hands its lookup to `authorizeHeader` directly.
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

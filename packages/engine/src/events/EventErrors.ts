/**
 * How reading and resending events fails (docs/design.md §8), in the engine's words: the HTTP
 * API answers them through ApiErrors.ts, `LevyService` returns them as they are.
 */
import type { Tenant } from "@levy/storage"
import { Data } from "effect"

/** The event named is not the tenant's (`inOtherMode`: it exists in the tenant's other mode). */
export class EventNotFound extends Data.TaggedError("EventNotFound")<{
  readonly tenant: Tenant.Tenant
  readonly id: string
  readonly inOtherMode: boolean
}> {}

/** The endpoint a resend names is not an enabled one of the tenant subscribed to the event's type. */
export class EndpointNotSubscribed extends Data.TaggedError("EndpointNotSubscribed")<{
  readonly endpoint: string
  readonly eventType: string
}> {}

/** An endpoint chosen for a resend was deleted during it: nothing was queued, a retry may. */
export class EndpointsChanged extends Data.TaggedError("EndpointsChanged")<{}> {}

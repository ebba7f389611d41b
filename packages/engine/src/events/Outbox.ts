/**
 * The outbox side of events (docs/design.md §8): every change writes its event in the same
 * transaction as the change, with the request's Idempotency-Key when it had one. The webhook
 * dispatcher delivers what is written here.
 */
import { type Event, EventRepository, Ids, type Json, type Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import type { Claim } from "../idempotency/Claim.js"
import * as RequestClaim from "../idempotency/RequestClaim.js"

const now = () => Math.floor(Date.now() / 1000)

/** The event of a change to `object` (its wire form), for writers that store it themselves. */
export const make = (
  tenant: Tenant.Tenant,
  type: string,
  object: unknown,
  created: number = now()
): Effect.Effect<Event, never, Ids> =>
  Effect.flatMap(RequestClaim.current, (claim) => makeUnder(claim, tenant, type, object, created))

/** `make` for a workflow that holds its request's claim (none without a key). */
const makeUnder = (
  claim: Option.Option<Claim>,
  tenant: Tenant.Tenant,
  type: string,
  object: unknown,
  created: number = now()
): Effect.Effect<Event, never, Ids> =>
  Effect.gen(function* () {
    return {
      id: yield* Effect.flatMap(Ids, (ids) => ids.make("evt")),
      accountId: tenant.accountId,
      livemode: tenant.livemode,
      type,
      data: { object: object as Json },
      request: Option.match(claim, {
        onNone: () => null,
        onSome: (c) => ({ idempotencyKey: c.key })
      }),
      created
    }
  })

/** Writes the event of a change; call it inside the change's transaction. */
export const record = (tenant: Tenant.Tenant, type: string, object: unknown, created?: number) =>
  Effect.gen(function* () {
    const event = yield* make(tenant, type, object, created)
    const events = yield* EventRepository
    return yield* events.insert(event).pipe(Effect.catchTag("DuplicateRecord", Effect.die))
  })

/** `record` for a workflow that holds its request's claim: the event names that claim's key. */
export const recordUnder = (
  claim: Option.Option<Claim>,
  tenant: Tenant.Tenant,
  type: string,
  object: unknown
) =>
  Effect.gen(function* () {
    const event = yield* makeUnder(claim, tenant, type, object)
    const events = yield* EventRepository
    return yield* events.insert(event).pipe(Effect.catchTag("DuplicateRecord", Effect.die))
  })

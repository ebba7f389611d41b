/**
 * Events: the outbox. Every state change writes its event in the same transaction as the
 * change (docs/design.md §8); the webhook dispatcher turns events into deliveries.
 */
import { Context, type Effect } from "effect"
import type { JsonObject } from "./Json.js"
import type * as Page from "./Page.js"
import type { DuplicateRecord, RecordNotFound, StorageError } from "./StorageError.js"
import type { Tenant } from "./Tenant.js"

/** An event. `data` is `{object: <resource>}`; `created` in Unix seconds. */
export interface Event {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly type: string
  readonly data: JsonObject
  /** The request that caused it (`{id, idempotencyKey}`), when there was one. */
  readonly request: JsonObject | null
  readonly created: number
}

/** Which event: its tenant and id. */
export interface EventRef {
  readonly accountId: string
  readonly livemode: boolean
  readonly id: string
}

/** The events among `found` that `refs` name (same account, mode and id). */
export const named = (refs: ReadonlyArray<EventRef>, found: ReadonlyArray<Event>) => {
  const wanted = new Set(refs.map((r) => `${r.accountId}/${r.livemode}/${r.id}`))
  return found.filter((e) => wanted.has(`${e.accountId}/${e.livemode}/${e.id}`))
}

/** Events. */
export interface EventRepositoryService {
  readonly insert: (event: Event) => Effect.Effect<Event, DuplicateRecord | StorageError>
  readonly get: (tenant: Tenant, id: string) => Effect.Effect<Event, RecordNotFound | StorageError>
  /** The events of several tenants at once (the webhook dispatcher's batches); missing ones are left out. */
  readonly getMany: (
    refs: ReadonlyArray<EventRef>
  ) => Effect.Effect<ReadonlyArray<Event>, StorageError>
  readonly list: (
    tenant: Tenant,
    request: Page.PageRequest & { readonly type?: string | undefined }
  ) => Effect.Effect<Page.Page<Event>, RecordNotFound | StorageError>
  /**
   * Deletes up to `limit` events (of any account) created before `before` (Unix seconds) that
   * no delivery refers to any more, oldest first; returns how many. The retention purge
   * (docs/storage.md "Retention"): an event waits for its deliveries, so one still being
   * retried keeps its event.
   */
  readonly purge: (before: number, limit: number) => Effect.Effect<number, StorageError>
}

/** Events, as a service: `sql/EventRepository.ts` and `memory/EventRepository.ts`. */
export class EventRepository extends Context.Tag("@levy/storage/EventRepository")<
  EventRepository,
  EventRepositoryService
>() {}

/** Events in the in-memory store. */
import { Effect, Layer } from "effect"
import {
  type Event,
  EventRepository,
  type EventRepositoryService,
  named
} from "../EventRepository.js"
import { DuplicateRecord, RecordNotFound } from "../StorageError.js"
import type { WebhookDelivery } from "../WebhookDeliveryRepository.js"
import * as MemoryStore from "./MemoryStore.js"

const TABLE = "events"
const DELIVERIES = "webhook_deliveries"
/** The fan-out marks (`memory/WebhookDeliveryRepository.ts`), keyed as the events are. */
const FANNED_OUT = "events_fanned_out"

export const make = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const events = store.table<Event>(TABLE)
  const key = (accountId: string, id: string) => `${accountId}/${id}`
  const service: EventRepositoryService = {
    insert: (e) =>
      store.write((w) => {
        if (events.has(key(e.accountId, e.id)))
          return Effect.fail(new DuplicateRecord({ entity: "event", id: e.id }))
        w.put(TABLE, key(e.accountId, e.id), e)
        return Effect.succeed(e)
      }),
    get: (tenant, id) =>
      Effect.flatMap(
        store.read(() => events.get(key(tenant.accountId, id))),
        (e) =>
          e && e.livemode === tenant.livemode
            ? Effect.succeed(e)
            : Effect.fail(new RecordNotFound({ entity: "event", id }))
      ),
    getMany: (refs) =>
      store.read(() =>
        named(refs, [
          ...new Set(
            refs.flatMap((r) => {
              const e = events.get(key(r.accountId, r.id))
              return e === undefined ? [] : [e]
            })
          )
        ])
      ),
    list: (tenant, request) =>
      MemoryStore.list<Event>(
        store,
        TABLE,
        "event",
        tenant,
        request,
        (e) => request.type === undefined || e.type === request.type
      ),
    purge: (before, limit) =>
      Effect.suspend(() => {
        const delivered = new Set(
          [...store.table<WebhookDelivery>(DELIVERIES).values()].map((d) =>
            key(d.accountId, d.eventId)
          )
        )
        return MemoryStore.purge<Event>(
          store,
          TABLE,
          (e) => e.created < before && !delivered.has(key(e.accountId, e.id)),
          (e) => e.created,
          limit,
          (w, k) => w.remove(FANNED_OUT, k)
        )
      })
  }
  return service
})

export const layer = Layer.effect(EventRepository, make)

/** Webhook endpoints in the in-memory store. */
import { Effect, Layer } from "effect"
import { SecretBox } from "../SecretBox.js"
import { DuplicateRecord, LimitReached, RecordNotFound } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import {
  MAX_ENDPOINTS,
  type Previous,
  sealContext,
  strip,
  subscribes,
  validSealed,
  type WebhookEndpoint,
  WebhookEndpointRepository,
  type WebhookEndpointRepositoryService
} from "../WebhookEndpointRepository.js"
import * as MemoryStore from "./MemoryStore.js"

const TABLE = "webhook_endpoints"
const DELIVERIES = "webhook_deliveries"
const ATTEMPTS = "webhook_delivery_attempts"

interface Stored extends WebhookEndpoint {
  readonly sealed: string
  readonly previous: Previous | null
}

export const make = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const box = yield* SecretBox
  const endpoints = store.table<Stored>(TABLE)
  const key = (accountId: string, id: string) => `${accountId}/${id}`
  const find = (tenant: Tenant, id: string): Effect.Effect<Stored, RecordNotFound> => {
    const e = endpoints.get(key(tenant.accountId, id))
    return e && e.livemode === tenant.livemode
      ? Effect.succeed(e)
      : Effect.fail(new RecordNotFound({ entity: "webhook_endpoint", id }))
  }
  const visible = ({ sealed: _, previous: __, ...e }: Stored): WebhookEndpoint => e
  const service: WebhookEndpointRepositoryService = {
    create: (e) =>
      store.write((w): Effect.Effect<WebhookEndpoint, DuplicateRecord | LimitReached> => {
        if (endpoints.has(key(e.accountId, e.id))) {
          return Effect.fail(new DuplicateRecord({ entity: "webhook_endpoint", id: e.id }))
        }
        let count = 0
        for (const other of endpoints.values()) {
          if (other.accountId === e.accountId && other.livemode === e.livemode) count++
        }
        if (count >= MAX_ENDPOINTS) {
          return Effect.fail(new LimitReached({ entity: "webhook_endpoint", limit: MAX_ENDPOINTS }))
        }
        const stored: Stored = {
          ...strip(e),
          sealed: box.seal(e.secret, sealContext(e.accountId, e.id)),
          previous: null
        }
        w.put(TABLE, key(e.accountId, e.id), stored)
        return Effect.succeed(strip(e))
      }),
    get: (tenant, id) => Effect.map(Effect.flatten(store.read(() => find(tenant, id))), visible),
    list: (tenant, request) =>
      Effect.map(
        MemoryStore.list<Stored>(store, TABLE, "webhook_endpoint", tenant, request, () => true),
        (page) => ({ data: page.data.map(visible), hasMore: page.hasMore })
      ),
    update: (tenant, id, patch) =>
      store.write((w) =>
        Effect.map(find(tenant, id), (e) => {
          const updated: Stored = {
            ...e,
            ...(patch.url !== undefined ? { url: patch.url } : {}),
            ...(patch.enabledEvents !== undefined ? { enabledEvents: patch.enabledEvents } : {}),
            ...(patch.status !== undefined ? { status: patch.status } : {}),
            ...(patch.description !== undefined ? { description: patch.description } : {})
          }
          w.put(TABLE, key(tenant.accountId, id), updated)
          return visible(updated)
        })
      ),
    remove: (tenant, id) =>
      store.write((w) =>
        Effect.map(find(tenant, id), (e) => {
          w.remove(TABLE, key(tenant.accountId, id))
          // Cascade, as the foreign keys do in SQL.
          const gone = new Set<string>()
          for (const [k, d] of store.table<{ accountId: string; id: string; endpointId: string }>(
            DELIVERIES
          )) {
            if (d.accountId === tenant.accountId && d.endpointId === id) {
              gone.add(d.id)
              w.remove(DELIVERIES, k)
            }
          }
          for (const [k, a] of store.table<{ accountId: string; deliveryId: string }>(ATTEMPTS)) {
            if (a.accountId === tenant.accountId && gone.has(a.deliveryId)) w.remove(ATTEMPTS, k)
          }
          return visible(e)
        })
      ),
    secret: (tenant, id) =>
      Effect.flatMap(Effect.flatten(store.read(() => find(tenant, id))), (e) =>
        box.open(e.sealed, sealContext(e.accountId, e.id))
      ),
    secrets: (tenant, id, nowMs) =>
      Effect.flatMap(Effect.flatten(store.read(() => find(tenant, id))), (e) =>
        Effect.forEach(validSealed(e.sealed, e.previous, nowMs), (sealed) =>
          box.open(sealed, sealContext(e.accountId, e.id))
        )
      ),
    rollSecret: (tenant, id, roll) =>
      store.write((w) =>
        Effect.map(find(tenant, id), (e) => {
          const rolled: Stored = {
            ...e,
            sealed: box.seal(roll.secret, sealContext(e.accountId, e.id)),
            previous: { sealed: e.sealed, expiresAtMs: roll.previousExpiresAtMs }
          }
          w.put(TABLE, key(tenant.accountId, id), rolled)
          return visible(rolled)
        })
      ),
    subscribedTo: (tenant, type) =>
      store.read(() =>
        [...endpoints.values()]
          .filter(
            (e) =>
              e.accountId === tenant.accountId &&
              e.livemode === tenant.livemode &&
              subscribes(e, type)
          )
          .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1))
          .map(visible)
      )
  }
  return service
})

export const layer = Layer.effect(WebhookEndpointRepository, make)

/** Idempotency records in the in-memory store. */
import { Clock, Effect, Layer } from "effect"
import {
  type Begun,
  existing,
  type IdempotencyRecord,
  IdempotencyRepository,
  type IdempotencyRepositoryService,
  lapsed,
  openBody,
  seal,
  started
} from "../IdempotencyRepository.js"
import { SecretBox } from "../SecretBox.js"
import {
  type IdempotencyKeyInUse,
  type IdempotencyKeyReused,
  RecordNotFound,
  type StorageError
} from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as MemoryStore from "./MemoryStore.js"

const TABLE = "idempotency_records"

export const make = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const box = yield* SecretBox
  const records = store.table<IdempotencyRecord>(TABLE)
  const keyOf = (t: Tenant, key: string) => `${t.accountId}/${t.livemode}/${key}`
  const service: IdempotencyRepositoryService = {
    begin: (tenant, key, fingerprint) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        store.write(
          (w): Effect.Effect<Begun, IdempotencyKeyInUse | IdempotencyKeyReused | StorageError> => {
            const found = records.get(keyOf(tenant, key))
            if (found !== undefined && !lapsed(found, now)) {
              return Effect.flatMap(openBody(box, found), (r) => existing(r, fingerprint))
            }
            const record = started(tenant, key, fingerprint, now)
            w.put(TABLE, keyOf(tenant, key), record)
            return Effect.succeed({ _tag: "Started", record })
          }
        )
      ),
    complete: (tenant, key, response) =>
      store.write((w) => {
        const found = records.get(keyOf(tenant, key))
        if (!found)
          return Effect.fail(new RecordNotFound({ entity: "idempotency_record", id: key }))
        const stored = seal(box, tenant, key, response)
        w.put(TABLE, keyOf(tenant, key), { ...found, state: "done", response: stored })
        return Effect.succeed<IdempotencyRecord>({ ...found, state: "done", response })
      }),
    settle: (tenant, key, fingerprint, response) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        store.write((w) => {
          const found = records.get(keyOf(tenant, key))
          const stored = seal(box, tenant, key, response)
          if (found !== undefined) {
            if (fingerprint === null || found.fingerprint === fingerprint)
              w.put(TABLE, keyOf(tenant, key), { ...found, state: "done", response: stored })
          } else if (fingerprint !== null) {
            const record = started(tenant, key, fingerprint, now)
            w.put(TABLE, keyOf(tenant, key), { ...record, state: "done", response: stored })
          }
          return Effect.void
        })
      ),
    release: (tenant, key) =>
      store.write((w) => {
        if (records.get(keyOf(tenant, key))?.state === "in_progress")
          w.remove(TABLE, keyOf(tenant, key))
        return Effect.void
      }),
    get: (tenant, key) =>
      Effect.flatMap(
        store.read(() => records.get(keyOf(tenant, key))),
        (r) =>
          r
            ? openBody(box, r)
            : Effect.fail<RecordNotFound | StorageError>(
                new RecordNotFound({ entity: "idempotency_record", id: key })
              )
      ),
    purgeExpired: Effect.flatMap(Clock.currentTimeMillis, (now) =>
      store.write((w) => {
        let n = 0
        for (const [k, r] of records) {
          if (r.expiresAtMs <= now) {
            w.remove(TABLE, k)
            n++
          }
        }
        return Effect.succeed(n)
      })
    )
  }
  return service
})

export const layer = Layer.effect(IdempotencyRepository, make)

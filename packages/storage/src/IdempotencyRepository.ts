/**
 * Idempotency records (docs/design.md §7): per (account, mode, key) the request's fingerprint,
 * its state, and once done the stored response, kept 24 hours.
 *
 * `begin` claims a key. Inside a transaction that also writes the charge, its event and
 * `complete`, the claim commits with them or not at all; a concurrent request with the
 * same key waits for that transaction (PostgreSQL: the unique index; embedded and memory:
 * the single connection / lock) and then replays the stored response. Called on its own,
 * `begin` commits an in-progress record at once, and concurrent requests see
 * `IdempotencyKeyInUse` until `complete` or `release`.
 */
import { PgClient } from "@effect/sql-pg"
import { Clock, Context, Effect, Layer } from "effect"
import type { Json } from "./Json.js"
import * as MemoryStore from "./memory/MemoryStore.js"
import { SecretBox, type SecretBoxService } from "./SecretBox.js"
import {
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  RecordNotFound,
  type StorageError
} from "./StorageError.js"
import * as SqlSupport from "./sql/SqlSupport.js"
import type { Tenant } from "./Tenant.js"

/** How long a record is kept: 24 hours. */
export const TTL_MS = 24 * 60 * 60 * 1000

/**
 * How long an in-progress claim holds its key. A request's write and its stored response
 * commit together, so a claim still in progress after this long belongs to a request that
 * died without writing (a crashed process): a retry may take the key and run again. The
 * server answers every request well within it.
 */
export const CLAIM_LEASE_MS = 30 * 1000

/** Whether a record no longer holds its key at `now`: expired, or an abandoned claim. */
const lapsed = (record: IdempotencyRecord, now: number): boolean =>
  record.expiresAtMs <= now ||
  (record.state === "in_progress" && record.createdMs <= now - CLAIM_LEASE_MS)

/** A fresh in-progress record for a key first seen at `now`. */
const started = (
  tenant: Tenant,
  key: string,
  fingerprint: string,
  now: number
): IdempotencyRecord => ({
  accountId: tenant.accountId,
  livemode: tenant.livemode,
  key,
  fingerprint,
  state: "in_progress",
  response: null,
  createdMs: now,
  expiresAtMs: now + TTL_MS
})

/** A stored response. */
export interface StoredResponse {
  readonly status: number
  readonly body: Json
  /**
   * Top-level fields of `body` that hold a secret (a webhook endpoint's signing secret): they
   * are stored sealed by `SecretBox`, never in plain text, and opened again on replay.
   */
  readonly sealed?: ReadonlyArray<string> | undefined
}

/** The marker of a sealed field in a stored body: `{"$sealed": "v1.…"}`. */
const SEALED = "$sealed"

/** What a sealed field is bound to: its record and field, so it cannot be moved. */
const sealContext = (accountId: string, livemode: boolean, key: string, field: string) =>
  `idempotency/${accountId}/${livemode}/${key}/${field}`

/** The body to store: `response.sealed`'s fields sealed. */
const sealBody = (
  box: SecretBoxService,
  tenant: Tenant,
  key: string,
  response: StoredResponse
): Json => {
  const body = response.body
  if (response.sealed === undefined || typeof body !== "object" || body === null) return body
  if (Array.isArray(body)) return body
  const out: Record<string, Json> = { ...(body as Record<string, Json>) }
  for (const field of response.sealed) {
    const value = out[field]
    if (typeof value === "string") {
      out[field] = {
        [SEALED]: box.seal(value, sealContext(tenant.accountId, tenant.livemode, key, field))
      }
    }
  }
  return out
}

/** A stored body with its sealed fields opened. */
const openBody = (
  box: SecretBoxService,
  record: IdempotencyRecord
): Effect.Effect<IdempotencyRecord, StorageError> => {
  const body = record.response?.body
  if (record.response === null || typeof body !== "object" || body === null || Array.isArray(body))
    return Effect.succeed(record)
  const fields = Object.entries(body as Record<string, Json>).filter(
    ([, v]) => typeof v === "object" && v !== null && !Array.isArray(v) && SEALED in v
  )
  if (fields.length === 0) return Effect.succeed(record)
  return Effect.map(
    Effect.forEach(fields, ([field, v]) =>
      Effect.map(
        box.open(
          String((v as Record<string, Json>)[SEALED]),
          sealContext(record.accountId, record.livemode, record.key, field)
        ),
        (plain) => [field, plain] as const
      )
    ),
    (opened) => ({
      ...record,
      response: {
        status: record.response!.status,
        body: { ...(body as Record<string, Json>), ...Object.fromEntries(opened) }
      }
    })
  )
}

/** An idempotency record. Times are Unix milliseconds. */
export interface IdempotencyRecord {
  readonly accountId: string
  readonly livemode: boolean
  readonly key: string
  /** A digest of the request (method, path, body) chosen by the caller. */
  readonly fingerprint: string
  readonly state: "in_progress" | "done"
  readonly response: StoredResponse | null
  readonly createdMs: number
  readonly expiresAtMs: number
}

/** What `begin` found: a fresh claim, or the response of the first request to replay. */
export type Begun =
  | { readonly _tag: "Started"; readonly record: IdempotencyRecord }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }

/** Idempotency records. */
export interface IdempotencyRepositoryService {
  /**
   * Claims `key` for a request with `fingerprint`: `Started` when new (or the old record
   * expired), `Replay` when the same request already finished; fails with
   * `IdempotencyKeyInUse` while it runs and `IdempotencyKeyReused` for another request.
   */
  readonly begin: (
    tenant: Tenant,
    key: string,
    fingerprint: string
  ) => Effect.Effect<Begun, IdempotencyKeyInUse | IdempotencyKeyReused | StorageError>
  /** Stores the response and marks the record done. */
  readonly complete: (
    tenant: Tenant,
    key: string,
    response: StoredResponse
  ) => Effect.Effect<IdempotencyRecord, RecordNotFound | StorageError>
  /**
   * Stores the response of a request that finished after its claim may have been forgotten (a
   * pending charge settled by a retry or the recovery sweeper): completes the record, or writes
   * it done when there is none; a record of another request (another fingerprint) is left.
   * Without a fingerprint it only completes an existing record.
   */
  readonly settle: (
    tenant: Tenant,
    key: string,
    fingerprint: string | null,
    response: StoredResponse
  ) => Effect.Effect<void, StorageError>
  /** Forgets an in-progress claim (the request failed in a way that must not be replayed). */
  readonly release: (tenant: Tenant, key: string) => Effect.Effect<void, StorageError>
  readonly get: (
    tenant: Tenant,
    key: string
  ) => Effect.Effect<IdempotencyRecord, RecordNotFound | StorageError>
  /** Deletes expired records; returns how many. */
  readonly purgeExpired: Effect.Effect<number, StorageError>
}

interface Row {
  account_id: string
  livemode: boolean
  key: string
  fingerprint: string
  state: IdempotencyRecord["state"]
  response_status: number | null
  response_body: Json
  created_ms: number
  expires_at_ms: number
}

const fromRow = (r: Row): IdempotencyRecord => ({
  accountId: r.account_id,
  livemode: r.livemode,
  key: r.key,
  fingerprint: r.fingerprint,
  state: r.state,
  response:
    r.response_status === null ? null : { status: r.response_status, body: r.response_body },
  createdMs: r.created_ms,
  expiresAtMs: r.expires_at_ms
})

/** The answer to a claim on a key that is already recorded and not expired. */
const existing = (
  record: IdempotencyRecord,
  fingerprint: string
): Effect.Effect<Begun, IdempotencyKeyInUse | IdempotencyKeyReused> =>
  record.fingerprint !== fingerprint
    ? Effect.fail(new IdempotencyKeyReused({ key: record.key }))
    : record.state === "in_progress" || record.response === null
      ? Effect.fail(new IdempotencyKeyInUse({ key: record.key }))
      : Effect.succeed({ _tag: "Replay", response: record.response })

/** The SQL implementation. */
export const makeSql = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const box = yield* SecretBox
  const select = (tenant: Tenant, key: string) =>
    sql<Row>`SELECT * FROM idempotency_records
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND key = ${key}`
  const service: IdempotencyRepositoryService = {
    begin: (tenant, key, fingerprint) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        // Waits for a concurrent transaction holding the same key, then inserts (it rolled
        // back), replaces (expired or abandoned) or does nothing (it committed).
        const claimed = yield* sql`INSERT INTO idempotency_records
            (account_id, livemode, key, fingerprint, state, created_ms, expires_at_ms)
          VALUES (${tenant.accountId}, ${tenant.livemode}, ${key}, ${fingerprint}, 'in_progress', ${now},
            ${now + TTL_MS})
          ON CONFLICT (account_id, livemode, key) DO UPDATE
            SET fingerprint = EXCLUDED.fingerprint, state = 'in_progress', response_status = NULL,
                response_body = NULL, created_ms = EXCLUDED.created_ms, expires_at_ms = EXCLUDED.expires_at_ms
            WHERE idempotency_records.expires_at_ms <= ${now}
              OR (idempotency_records.state = 'in_progress'
                AND idempotency_records.created_ms <= ${now - CLAIM_LEASE_MS})
          RETURNING 1`
        if (claimed.length === 1) {
          const record = started(tenant, key, fingerprint, now)
          return { _tag: "Started", record } as const
        }
        const rows = yield* select(tenant, key)
        if (rows[0] === undefined) return yield* Effect.fail(new IdempotencyKeyInUse({ key }))
        return yield* existing(yield* openBody(box, fromRow(rows[0])), fingerprint)
      }).pipe(SqlSupport.orStorageError),
    complete: (tenant, key, response) =>
      sql<Pick<Row, "fingerprint" | "created_ms" | "expires_at_ms">>`UPDATE idempotency_records
        SET state = 'done', response_status = ${response.status},
          response_body = ${SqlSupport.json(sealBody(box, tenant, key, response))}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND key = ${key}
        RETURNING fingerprint, created_ms, expires_at_ms`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows[0]
            ? Effect.succeed<IdempotencyRecord>({
                accountId: tenant.accountId,
                livemode: tenant.livemode,
                key,
                fingerprint: rows[0].fingerprint,
                state: "done",
                response,
                createdMs: rows[0].created_ms,
                expiresAtMs: rows[0].expires_at_ms
              })
            : Effect.fail(new RecordNotFound({ entity: "idempotency_record", id: key }))
        )
      ),
    settle: (tenant, key, fingerprint, response) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const body = SqlSupport.json(sealBody(box, tenant, key, response))
        return fingerprint === null
          ? sql`UPDATE idempotency_records SET state = 'done', response_status = ${response.status},
                response_body = ${body}
              WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND key = ${key}`
          : sql`INSERT INTO idempotency_records (account_id, livemode, key, fingerprint, state,
                response_status, response_body, created_ms, expires_at_ms)
              VALUES (${tenant.accountId}, ${tenant.livemode}, ${key}, ${fingerprint}, 'done',
                ${response.status}, ${body}, ${now}, ${now + TTL_MS})
              ON CONFLICT (account_id, livemode, key) DO UPDATE
                SET state = 'done', response_status = EXCLUDED.response_status,
                    response_body = EXCLUDED.response_body
                WHERE idempotency_records.fingerprint = EXCLUDED.fingerprint`
      }).pipe(SqlSupport.orStorageError, Effect.asVoid),
    release: (tenant, key) =>
      sql`DELETE FROM idempotency_records
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND key = ${key}
          AND state = 'in_progress'`.pipe(SqlSupport.orStorageError, Effect.asVoid),
    get: (tenant, key) =>
      select(tenant, key).pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows[0]
            ? openBody(box, fromRow(rows[0]))
            : Effect.fail<RecordNotFound | StorageError>(
                new RecordNotFound({ entity: "idempotency_record", id: key })
              )
        )
      ),
    purgeExpired: Effect.flatMap(Clock.currentTimeMillis, (now) =>
      sql`DELETE FROM idempotency_records WHERE expires_at_ms <= ${now} RETURNING key`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => rows.length)
      )
    )
  }
  return service
})

const TABLE = "idempotency_records"

/** The in-memory implementation. */
export const makeMemory = Effect.gen(function* () {
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
        const stored = { status: response.status, body: sealBody(box, tenant, key, response) }
        w.put(TABLE, keyOf(tenant, key), { ...found, state: "done", response: stored })
        return Effect.succeed<IdempotencyRecord>({ ...found, state: "done", response })
      }),
    settle: (tenant, key, fingerprint, response) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        store.write((w) => {
          const found = records.get(keyOf(tenant, key))
          const stored = { status: response.status, body: sealBody(box, tenant, key, response) }
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

/** Idempotency records, as a service. */
export class IdempotencyRepository extends Context.Tag("@levy/storage/IdempotencyRepository")<
  IdempotencyRepository,
  IdempotencyRepositoryService
>() {
  static readonly layerSql = Layer.effect(IdempotencyRepository, makeSql)
  static readonly layerMemory = Layer.effect(IdempotencyRepository, makeMemory)
}

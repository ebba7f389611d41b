/** Idempotency records on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Clock, Effect, Layer } from "effect"
import {
  bodyColumn,
  CLAIM_LEASE_MS,
  existing,
  fromColumns,
  type IdempotencyRecord,
  IdempotencyRepository,
  type IdempotencyRepositoryService,
  openBody,
  seal,
  started,
  statusColumn
} from "../IdempotencyRepository.js"
import { SecretBox } from "../SecretBox.js"
import { IdempotencyKeyInUse } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import * as SqlSupport from "./SqlSupport.js"
import { type IdempotencyRow, idempotencyRecords } from "./Tables.js"

const toRecord = (r: IdempotencyRow): IdempotencyRecord => ({
  accountId: r.accountId,
  livemode: r.livemode,
  key: r.key,
  fingerprint: r.fingerprint,
  state: r.state,
  response: fromColumns(r.responseStatus, r.responseBody),
  createdMs: r.createdMs,
  expiresAtMs: r.expiresAtMs
})

const toRow = (r: IdempotencyRecord): IdempotencyRow => ({
  accountId: r.accountId,
  livemode: r.livemode,
  key: r.key,
  fingerprint: r.fingerprint,
  state: r.state,
  responseStatus: r.response === null ? null : statusColumn(r.response),
  responseBody: r.response === null ? null : bodyColumn(r.response),
  createdMs: r.createdMs,
  expiresAtMs: r.expiresAtMs
})

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const box = yield* SecretBox
  const columns = idempotencyRecords.select(sql)
  // Every charge write claims a key: its statement is written once (as the charge write's is)
  // and sent with its values.
  const n = idempotencyRecords.columns.length
  const claim = `INSERT INTO idempotency_records (${idempotencyRecords.list})
    VALUES (${idempotencyRecords.placeholders(1)})
    ON CONFLICT (account_id, livemode, key) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, state = 'in_progress', response_status = NULL,
          response_body = NULL, created_ms = EXCLUDED.created_ms, expires_at_ms = EXCLUDED.expires_at_ms
      WHERE idempotency_records.expires_at_ms <= $${n + 1}
        OR (idempotency_records.state = 'in_progress' AND idempotency_records.created_ms <= $${n + 2})
    RETURNING 1`
  const select = (tenant: Tenant, key: string) =>
    sql`SELECT ${columns} FROM idempotency_records
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND key = ${key}`
  const service: IdempotencyRepositoryService = {
    begin: (tenant, key, fingerprint) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const record = started(tenant, key, fingerprint, now)
        // Waits for a concurrent transaction holding the same key, then inserts (it rolled
        // back), replaces (expired or abandoned) or does nothing (it committed).
        const claimed = yield* sql.unsafe(claim, [
          ...idempotencyRecords.values(toRow(record)),
          now,
          now - CLAIM_LEASE_MS
        ])
        if (claimed.length === 1) return { _tag: "Started", record } as const
        const rows = yield* select(tenant, key)
        if (rows[0] === undefined) return yield* Effect.fail(new IdempotencyKeyInUse({ key }))
        const found = toRecord(yield* idempotencyRecords.decode(rows[0]))
        return yield* existing(yield* openBody(box, found), fingerprint)
      }).pipe(SqlSupport.orStorageError),
    complete: (tenant, key, response) =>
      sql`UPDATE idempotency_records
        SET state = 'done', response_status = ${statusColumn(response)},
          response_body = ${SqlSupport.json(bodyColumn(seal(box, tenant, key, response)))}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND key = ${key}
        RETURNING ${columns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.one(idempotencyRecords, "idempotency_record", key)),
        // The response as given, not as stored (its sealed fields in plain text).
        Effect.map((row): IdempotencyRecord => ({ ...toRecord(row), response }))
      ),
    settle: (tenant, key, fingerprint, response) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const stored = seal(box, tenant, key, response)
        if (fingerprint === null) {
          return sql`UPDATE idempotency_records SET state = 'done',
                response_status = ${statusColumn(stored)},
                response_body = ${SqlSupport.json(bodyColumn(stored))}
              WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND key = ${key}`
        }
        const done: IdempotencyRecord = {
          ...started(tenant, key, fingerprint, now),
          state: "done",
          response: stored
        }
        return sql`INSERT INTO idempotency_records ${idempotencyRecords.insert(sql, toRow(done))}
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
        Effect.flatMap(SqlSupport.one(idempotencyRecords, "idempotency_record", key)),
        Effect.flatMap((row) => openBody(box, toRecord(row)))
      ),
    purgeExpired: Effect.flatMap(Clock.currentTimeMillis, (now) =>
      sql`DELETE FROM idempotency_records WHERE expires_at_ms <= ${now} RETURNING key`.pipe(
        SqlSupport.rowCount
      )
    )
  }
  return service
})

export const layer = Layer.effect(IdempotencyRepository, make)

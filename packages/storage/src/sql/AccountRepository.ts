/** Accounts and API keys on PostgreSQL and the embedded store. */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import {
  AccountRepository,
  type AccountRepositoryService,
  hashKey,
  sameHash,
  toKey
} from "../AccountRepository.js"
import { RecordNotFound } from "../StorageError.js"
import * as SqlSupport from "./SqlSupport.js"
import { accounts, apiKeys } from "./Tables.js"

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const keyColumns = apiKeys.select(sql)
  const service: AccountRepositoryService = {
    createAccount: (account) =>
      sql`INSERT INTO accounts ${accounts.insert(sql, account)}`.pipe(
        SqlSupport.orDuplicate("account", account.id),
        Effect.as(account)
      ),
    getAccount: (id) =>
      sql`SELECT ${accounts.select(sql)} FROM accounts WHERE account_id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.one(accounts, "account", id))
      ),
    isEmpty: sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM accounts LIMIT 1) a`.pipe(
      SqlSupport.orStorageError,
      Effect.map((rows) => (rows[0]?.n ?? 0) === 0)
    ),
    createKey: (input) => {
      const key = toKey(input)
      return sql`INSERT INTO api_keys ${apiKeys.insert(sql, key)}`.pipe(
        SqlSupport.orDuplicate("api_key", key.id),
        Effect.as(key)
      )
    },
    findKey: (secret) => {
      const hash = hashKey(secret)
      return sql`SELECT ${keyColumns} FROM api_keys WHERE key_hash = ${hash} AND NOT revoked`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(apiKeys.decodeAll),
        Effect.map((keys) => Option.fromNullable(keys.find((k) => sameHash(k.hash, hash))))
      )
    },
    touchKey: (accountId, id, at) =>
      sql`UPDATE api_keys SET last_used = ${at}
          WHERE account_id = ${accountId} AND id = ${id} RETURNING id`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows.length === 1
            ? Effect.void
            : Effect.fail(new RecordNotFound({ entity: "api_key", id }))
        )
      ),
    revokeKey: (accountId, id) =>
      sql`UPDATE api_keys SET revoked = true WHERE account_id = ${accountId} AND id = ${id}
          RETURNING ${keyColumns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(SqlSupport.one(apiKeys, "api_key", id))
      ),
    listKeys: (tenant, request) =>
      SqlSupport.list(sql, { table: apiKeys, entity: "api_key", tenant, request })
  }
  return service
})

export const layer = Layer.effect(AccountRepository, make)

/**
 * Accounts and their API keys. Keys are stored as SHA-256 hashes (plus the last four
 * characters, for display); the full key exists only in the caller's hands at creation.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import * as MemoryStore from "./MemoryStore.js"
import type * as Page from "./Page.js"
import * as SqlSupport from "./SqlSupport.js"
import { DuplicateRecord, RecordNotFound, type StorageError } from "./StorageError.js"
import type { Tenant } from "./Tenant.js"

/** An account. It owns data in both modes. */
export interface Account {
  readonly id: string
  readonly name: string
  readonly created: number
}

/** An API key as stored: never the key itself. */
export interface ApiKey {
  readonly id: string
  readonly accountId: string
  /** `true` for prod keys (live mode), `false` for dev keys (test mode). */
  readonly livemode: boolean
  readonly kind: "secret" | "publishable"
  readonly name: string | null
  /** Hex SHA-256 of the full key. */
  readonly hash: string
  readonly last4: string
  readonly created: number
  readonly lastUsed: number | null
  readonly revoked: boolean
}

/** What creating a key needs: the full key is hashed here and not kept. */
export interface NewApiKey {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly kind: "secret" | "publishable"
  readonly name?: string | null | undefined
  readonly secret: string
  readonly created: number
}

/** Hex SHA-256 of a key. */
export const hashKey = (secret: string): string => createHash("sha256").update(secret).digest("hex")

/** Constant-time comparison of two hex hashes. */
export const sameHash = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

const toKey = (k: NewApiKey): ApiKey => ({
  id: k.id,
  accountId: k.accountId,
  livemode: k.livemode,
  kind: k.kind,
  name: k.name ?? null,
  hash: hashKey(k.secret),
  last4: k.secret.slice(-4),
  created: k.created,
  lastUsed: null,
  revoked: false
})

/** Accounts and API keys. */
export interface AccountRepositoryService {
  readonly createAccount: (
    account: Account
  ) => Effect.Effect<Account, DuplicateRecord | StorageError>
  readonly getAccount: (id: string) => Effect.Effect<Account, RecordNotFound | StorageError>
  /** Whether any account exists (the server creates a development account on first start). */
  readonly isEmpty: Effect.Effect<boolean, StorageError>
  readonly createKey: (key: NewApiKey) => Effect.Effect<ApiKey, DuplicateRecord | StorageError>
  /** The unrevoked key whose hash matches `secret`, compared in constant time. */
  readonly findKey: (secret: string) => Effect.Effect<Option.Option<ApiKey>, StorageError>
  /** Records that a key was just used. */
  readonly touchKey: (
    accountId: string,
    id: string,
    at: number
  ) => Effect.Effect<void, RecordNotFound | StorageError>
  readonly revokeKey: (
    accountId: string,
    id: string
  ) => Effect.Effect<ApiKey, RecordNotFound | StorageError>
  /** Keys of one account and mode, newest first. */
  readonly listKeys: (
    tenant: Tenant,
    request: Page.PageRequest
  ) => Effect.Effect<Page.Page<ApiKey>, RecordNotFound | StorageError>
}

interface KeyRow {
  account_id: string
  id: string
  livemode: boolean
  kind: "secret" | "publishable"
  name: string | null
  key_hash: string
  last4: string
  created: number
  last_used: number | null
  revoked: boolean
}

const fromRow = (r: KeyRow): ApiKey => ({
  id: r.id,
  accountId: r.account_id,
  livemode: r.livemode,
  kind: r.kind,
  name: r.name,
  hash: r.key_hash,
  last4: r.last4,
  created: r.created,
  lastUsed: r.last_used,
  revoked: r.revoked
})

/** The SQL implementation (PostgreSQL and the embedded store). */
export const makeSql = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const getKey = (accountId: string, id: string) =>
    sql<KeyRow>`SELECT * FROM api_keys WHERE account_id = ${accountId} AND id = ${id}`.pipe(
      SqlSupport.orStorageError,
      Effect.flatMap((rows) =>
        rows[0]
          ? Effect.succeed(fromRow(rows[0]))
          : Effect.fail(new RecordNotFound({ entity: "api_key", id }))
      )
    )
  const service: AccountRepositoryService = {
    createAccount: (account) =>
      sql`INSERT INTO accounts (account_id, name, created)
          VALUES (${account.id}, ${account.name}, ${account.created})`.pipe(
        SqlSupport.orDuplicate("account", account.id),
        Effect.as(account)
      ),
    getAccount: (id) =>
      sql<{ account_id: string; name: string; created: number }>`
        SELECT * FROM accounts WHERE account_id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows[0]
            ? Effect.succeed({
                id: rows[0].account_id,
                name: rows[0].name,
                created: rows[0].created
              })
            : Effect.fail(new RecordNotFound({ entity: "account", id }))
        )
      ),
    isEmpty: sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM accounts LIMIT 1) a`.pipe(
      SqlSupport.orStorageError,
      Effect.map((rows) => (rows[0]?.n ?? 0) === 0)
    ),
    createKey: (input) => {
      const key = toKey(input)
      return sql`INSERT INTO api_keys (account_id, id, livemode, kind, name, key_hash, last4, created)
        VALUES (${key.accountId}, ${key.id}, ${key.livemode}, ${key.kind}, ${key.name}, ${key.hash},
                ${key.last4}, ${key.created})`.pipe(
        SqlSupport.orDuplicate("api_key", key.id),
        Effect.as(key)
      )
    },
    findKey: (secret) => {
      const hash = hashKey(secret)
      return sql<KeyRow>`SELECT * FROM api_keys WHERE key_hash = ${hash} AND NOT revoked`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) =>
          Option.fromNullable(rows.find((r) => sameHash(r.key_hash, hash))).pipe(
            Option.map(fromRow)
          )
        )
      )
    },
    touchKey: (accountId, id, at) =>
      sql<{ id: string }>`UPDATE api_keys SET last_used = ${at}
          WHERE account_id = ${accountId} AND id = ${id} RETURNING id`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap((rows) =>
          rows.length === 1
            ? Effect.void
            : Effect.fail(new RecordNotFound({ entity: "api_key", id }))
        )
      ),
    revokeKey: (accountId, id) =>
      sql`UPDATE api_keys SET revoked = true WHERE account_id = ${accountId} AND id = ${id}`.pipe(
        SqlSupport.orStorageError,
        Effect.zipRight(getKey(accountId, id))
      ),
    listKeys: (tenant, request) =>
      SqlSupport.list(sql, {
        table: "api_keys",
        entity: "api_key",
        tenant,
        request,
        decode: fromRow
      })
  }
  return service
})

const ACCOUNTS = "accounts"
const KEYS = "api_keys"

/** The in-memory implementation. */
export const makeMemory = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const accounts = store.table<Account>(ACCOUNTS)
  const keys = store.table<ApiKey>(KEYS)
  const keyOf = (accountId: string, id: string) => `${accountId}/${id}`
  const service: AccountRepositoryService = {
    createAccount: (account) =>
      store.write((w) => {
        if (accounts.has(account.id)) {
          return Effect.fail(new DuplicateRecord({ entity: "account", id: account.id }))
        }
        w.put(ACCOUNTS, account.id, account)
        return Effect.succeed(account)
      }),
    getAccount: (id) =>
      Effect.flatMap(
        store.read(() => accounts.get(id)),
        (a) => (a ? Effect.succeed(a) : Effect.fail(new RecordNotFound({ entity: "account", id })))
      ),
    isEmpty: store.read(() => accounts.size === 0),
    createKey: (input) =>
      store.write((w) => {
        const key = toKey(input)
        const clash = [...keys.values()].some(
          (k) => k.accountId === key.accountId && (k.id === key.id || k.hash === key.hash)
        )
        if (clash) return Effect.fail(new DuplicateRecord({ entity: "api_key", id: key.id }))
        w.put(KEYS, keyOf(key.accountId, key.id), key)
        return Effect.succeed(key)
      }),
    findKey: (secret) => {
      const hash = hashKey(secret)
      return store.read(() =>
        Option.fromNullable([...keys.values()].find((k) => !k.revoked && sameHash(k.hash, hash)))
      )
    },
    touchKey: (accountId, id, at) =>
      store.write((w) => {
        const k = keys.get(keyOf(accountId, id))
        if (!k) return Effect.fail(new RecordNotFound({ entity: "api_key", id }))
        w.put(KEYS, keyOf(accountId, id), { ...k, lastUsed: at })
        return Effect.void
      }),
    revokeKey: (accountId, id) =>
      store.write((w) => {
        const k = keys.get(keyOf(accountId, id))
        if (!k) return Effect.fail(new RecordNotFound({ entity: "api_key", id }))
        const revoked = { ...k, revoked: true }
        w.put(KEYS, keyOf(accountId, id), revoked)
        return Effect.succeed(revoked)
      }),
    listKeys: (tenant, request) =>
      MemoryStore.list(store, KEYS, "api_key", tenant, request, () => true)
  }
  return service
})

/** Accounts and API keys, as a service. */
export class AccountRepository extends Context.Tag("@levy/storage/AccountRepository")<
  AccountRepository,
  AccountRepositoryService
>() {
  static readonly layerSql = Layer.effect(AccountRepository, makeSql)
  static readonly layerMemory = Layer.effect(AccountRepository, makeMemory)
}

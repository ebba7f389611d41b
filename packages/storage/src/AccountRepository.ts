/**
 * Accounts and their API keys. Keys are stored as SHA-256 hashes (plus the last four
 * characters, for display); the full key exists only in the caller's hands at creation.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { Context, type Effect, type Option } from "effect"
import type * as Page from "./Page.js"
import type { DuplicateRecord, RecordNotFound, StorageError } from "./StorageError.js"
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

/** The key as stored: hashed, its last four kept for display. */
export const toKey = (k: NewApiKey): ApiKey => ({
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

/** Accounts and API keys, as a service: `sql/AccountRepository.ts` and `memory/AccountRepository.ts`. */
export class AccountRepository extends Context.Tag("@levy/storage/AccountRepository")<
  AccountRepository,
  AccountRepositoryService
>() {}

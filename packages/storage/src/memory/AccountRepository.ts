/** Accounts and API keys in the in-memory store. */
import { Effect, Layer, Option } from "effect"
import {
  type Account,
  AccountRepository,
  type AccountRepositoryService,
  type ApiKey,
  hashKey,
  sameHash,
  toKey
} from "../AccountRepository.js"
import { DuplicateRecord, RecordNotFound } from "../StorageError.js"
import * as MemoryStore from "./MemoryStore.js"

const ACCOUNTS = "accounts"
const KEYS = "api_keys"

export const make = Effect.gen(function* () {
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

export const layer = Layer.effect(AccountRepository, make)

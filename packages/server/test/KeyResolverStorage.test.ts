/** The storage-backed key resolver and account creation, on the memory store. */
import { describe, expect, it } from "@effect/vitest"
import * as Accounts from "@levy/engine/access/Accounts.js"
import * as Keys from "@levy/engine/access/Keys.js"
import { AccountRepository, hashKey, Ids, Storage } from "@levy/storage"
import { Effect, Layer, Option } from "effect"
import { KeyResolver } from "../src/access/KeyResolver.js"
import * as KeyResolverStorage from "../src/access/KeyResolverStorage.js"

const store = Layer.provideMerge(Storage.layerMemory, Ids.layer)
const env = Layer.provideMerge(KeyResolverStorage.layer({ touchEvery: 0 }), store)

describe("Keys", () => {
  it("generates the four prefixes with a 32-character base-62 random part", () => {
    for (const kind of Keys.kinds) {
      const secret = Keys.generate(kind)
      expect(secret.startsWith(Keys.spec[kind].prefix)).toBe(true)
      expect(secret.slice(Keys.spec[kind].prefix.length)).toMatch(/^[0-9A-Za-z]{32}$/)
    }
    expect(Keys.generate("secretDev")).not.toBe(Keys.generate("secretDev"))
  })
})

describe("Accounts.create", () => {
  it.effect("returns the account id and its four keys, stored hashed only", () =>
    Effect.gen(function* () {
      const created = yield* Accounts.create("Test")
      expect(Object.keys(created).sort()).toEqual(["accountId", "keys"])
      expect(created.accountId).toMatch(/^acct_/)
      expect(Object.keys(created.keys).sort()).toEqual([...Keys.kinds].sort())
      const accounts = yield* AccountRepository
      expect((yield* accounts.getAccount(created.accountId)).name).toBe("Test")
      expect(yield* accounts.isEmpty).toBe(false)
      for (const kind of Keys.kinds) {
        const secret = created.keys[kind]
        expect(secret.startsWith(Keys.spec[kind].prefix)).toBe(true)
        const stored = Option.getOrThrow(yield* accounts.findKey(secret))
        expect(stored.hash).toBe(hashKey(secret))
        expect(stored.last4).toBe(secret.slice(-4))
        // Nothing stored carries the secret itself.
        expect(JSON.stringify(stored)).not.toContain(secret.slice(-20))
      }
    }).pipe(Effect.provide(store))
  )
})

describe("KeyResolverStorage", () => {
  it.effect("resolves each of the four kinds to its kind and mode", () =>
    Effect.gen(function* () {
      const created = yield* Accounts.create("Test")
      const resolver = yield* KeyResolver
      const expected: Record<Keys.Kind, readonly [string, string]> = {
        secretDev: ["secret", "test"],
        publishableDev: ["publishable", "test"],
        secretProd: ["secret", "live"],
        publishableProd: ["publishable", "live"]
      }
      const keyIds = new Set<string>()
      for (const kind of Keys.kinds) {
        const key = Option.getOrThrow(yield* resolver.resolve(created.keys[kind]))
        expect(key.accountId).toBe(created.accountId)
        expect([key.kind, key.mode]).toEqual(expected[kind])
        keyIds.add(key.keyId)
      }
      expect(keyIds.size).toBe(4)
    }).pipe(Effect.provide(env))
  )

  it.effect("resolves unknown, malformed and altered secrets to none", () =>
    Effect.gen(function* () {
      const created = yield* Accounts.create("Test")
      const resolver = yield* KeyResolver
      const secret = created.keys.secretDev
      const altered = `${secret.slice(0, -1)}${secret.endsWith("a") ? "b" : "a"}`
      for (const candidate of [
        Keys.generate("secretDev"),
        altered,
        secret.slice(Keys.spec.secretDev.prefix.length),
        "",
        // Right random part under another prefix: a different key.
        secret.replace("sk_dev_service_", "sk_prod_service_")
      ]) {
        expect(Option.isNone(yield* resolver.resolve(candidate))).toBe(true)
      }
    }).pipe(Effect.provide(env))
  )

  it.effect("records the key's last use", () =>
    Effect.gen(function* () {
      const created = yield* Accounts.create("Test")
      const accounts = yield* AccountRepository
      const before = Option.getOrThrow(yield* accounts.findKey(created.keys.secretProd))
      expect(before.lastUsed).toBeNull()
      yield* (yield* KeyResolver).resolve(created.keys.secretProd)
      const after = Option.getOrThrow(yield* accounts.findKey(created.keys.secretProd))
      expect(after.lastUsed).not.toBeNull()
    }).pipe(Effect.provide(env))
  )

  it.effect("a revoked key resolves to none", () =>
    Effect.gen(function* () {
      const created = yield* Accounts.create("Test")
      const accounts = yield* AccountRepository
      const resolver = yield* KeyResolver
      const key = Option.getOrThrow(yield* resolver.resolve(created.keys.secretDev))
      yield* accounts.revokeKey(key.accountId, key.keyId)
      expect(Option.isNone(yield* resolver.resolve(created.keys.secretDev))).toBe(true)
    }).pipe(Effect.provide(env))
  )
})

describe("Accounts.rollKey", () => {
  it.effect("creates a new key of the kind and revokes the old one", () =>
    Effect.gen(function* () {
      const created = yield* Accounts.create("Test")
      const resolver = yield* KeyResolver
      const rolled = yield* Accounts.rollKey(created.accountId, "secretProd")
      expect(rolled.secret).toMatch(/^sk_prod_service_[0-9A-Za-z]{32}$/)
      expect(rolled.revoked).toHaveLength(1)
      expect(Option.isNone(yield* resolver.resolve(created.keys.secretProd))).toBe(true)
      const key = Option.getOrThrow(yield* resolver.resolve(rolled.secret))
      expect([key.accountId, key.keyId, key.kind, key.mode]).toEqual([
        created.accountId,
        rolled.keyId,
        "secret",
        "live"
      ])
      // The other kinds are untouched.
      expect(Option.isSome(yield* resolver.resolve(created.keys.secretDev))).toBe(true)
      expect(Option.isSome(yield* resolver.resolve(created.keys.publishableProd))).toBe(true)
      const missing = yield* Effect.flip(Accounts.rollKey("acct_missing", "secretDev"))
      expect(missing._tag).toBe("RecordNotFound")
    }).pipe(Effect.provide(env))
  )
})

describe("Accounts.listKeys and revokeKey (levy keys list|revoke)", () => {
  it.effect("a named key can be revoked: it is refused from its next request", () =>
    Effect.gen(function* () {
      // Keys made by `levy keys create` could never be revoked.
      const created = yield* Accounts.create("Revoking")
      const named = yield* Accounts.createSecretKey(created.accountId, "live", "approver")
      const resolver = yield* KeyResolver
      expect(Option.isSome(yield* resolver.resolve(named.secret))).toBe(true)

      const listed = yield* Accounts.listKeys(created.accountId)
      expect(listed).toHaveLength(5)
      expect(listed.find((k) => k.id === named.keyId)).toMatchObject({
        kind: "secret",
        mode: "live",
        name: "approver",
        last4: named.secret.slice(-4),
        revoked: false
      })
      expect(JSON.stringify(listed)).not.toContain(named.secret)

      const revoked = yield* Accounts.revokeKey(created.accountId, named.keyId)
      expect(revoked.revoked).toBe(true)
      expect(yield* resolver.resolve(named.secret)).toEqual(Option.none())
      expect(
        (yield* Accounts.listKeys(created.accountId)).find((k) => k.id === named.keyId)
      ).toMatchObject({ revoked: true })
      // The account's other keys still work.
      expect(Option.isSome(yield* resolver.resolve(created.keys.secretProd))).toBe(true)
      // Another account's key cannot be revoked through this one.
      const other = yield* Accounts.create("Other")
      const otherKeys = yield* Accounts.listKeys(other.accountId)
      const refused = yield* Effect.either(Accounts.revokeKey(created.accountId, otherKeys[0]!.id))
      expect(refused._tag).toBe("Left")
      expect(Option.isSome(yield* resolver.resolve(other.keys.secretDev))).toBe(true)
    }).pipe(Effect.provide(env))
  )
})

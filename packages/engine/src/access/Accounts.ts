/**
 * Account creation (docs/design.md §5): an account with one key of each of the four kinds, in
 * one transaction. Keys are stored hashed; the full secrets are returned here, once.
 */
import {
  AccountRepository,
  type AccountRepositoryService,
  type ApiKey,
  Ids,
  Transactions
} from "@levy/storage"
import { Clock, Effect } from "effect"
import * as Keys from "./Keys.js"

/** A created account and its four secrets (the shape of `dev-account.json`). */
export interface Created {
  readonly accountId: string
  readonly keys: { readonly [K in Keys.Kind]: string }
}

/** Every key of the account in one mode, newest first, read page by page (an account holds a handful). */
const keysOf = (accounts: AccountRepositoryService, accountId: string, livemode: boolean) =>
  Effect.gen(function* () {
    const keys: Array<ApiKey> = []
    let startingAfter: string | undefined
    for (;;) {
      const page = yield* accounts.listKeys(
        { accountId, livemode },
        { limit: 100, ...(startingAfter === undefined ? {} : { startingAfter }) }
      )
      keys.push(...page.data)
      const last = page.data.at(-1)
      if (!page.hasMore || last === undefined) return keys
      startingAfter = last.id
    }
  })

/** Creates an account named `name` with its four keys. */
export const create = (name: string) =>
  Effect.gen(function* () {
    const accounts = yield* AccountRepository
    const ids = yield* Ids
    const tx = yield* Transactions
    const created = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const accountId = yield* ids.make("acct")
    const secrets = {
      secretDev: Keys.generate("secretDev"),
      publishableDev: Keys.generate("publishableDev"),
      secretProd: Keys.generate("secretProd"),
      publishableProd: Keys.generate("publishableProd")
    }
    yield* tx.run(
      Effect.gen(function* () {
        yield* accounts.createAccount({ id: accountId, name, created })
        for (const kind of Keys.kinds) {
          const { kind: keyKind, mode } = Keys.spec[kind]
          yield* accounts.createKey({
            id: yield* ids.make("key"),
            accountId,
            livemode: mode === "live",
            kind: keyKind,
            name: kind,
            secret: secrets[kind],
            created
          })
        }
      })
    )
    const result: Created = { accountId, keys: secrets }
    return result
  }).pipe(Effect.withSpan("Accounts.create"))

/** A rolled key: the new secret (shown once) and the ids of the keys it replaced. */
export interface Rolled {
  readonly accountId: string
  readonly kind: Keys.Kind
  readonly keyId: string
  readonly secret: string
  readonly revoked: ReadonlyArray<string>
}

/**
 * Rolls a key: creates a new key of `kind` on the account and revokes, in the same
 * transaction, every unrevoked key of that kind and mode it had. Fails with
 * `RecordNotFound` for an unknown account.
 */
export const rollKey = (accountId: string, kind: Keys.Kind) =>
  Effect.gen(function* () {
    const accounts = yield* AccountRepository
    const ids = yield* Ids
    const tx = yield* Transactions
    const { kind: keyKind, mode } = Keys.spec[kind]
    const livemode = mode === "live"
    const secret = Keys.generate(kind)
    const keyId = yield* ids.make("key")
    const created = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const revoked = yield* tx.run(
      Effect.gen(function* () {
        yield* accounts.getAccount(accountId)
        const old = (yield* keysOf(accounts, accountId, livemode))
          // Named additional keys (`createSecretKey`) are not the key of `kind`: they stay.
          .filter(
            (key) =>
              key.kind === keyKind && (key.name === null || key.name === kind) && !key.revoked
          )
          .map((key) => key.id)
        yield* accounts.createKey({
          id: keyId,
          accountId,
          livemode,
          kind: keyKind,
          name: kind,
          secret,
          created
        })
        for (const id of old) yield* accounts.revokeKey(accountId, id)
        return old
      })
    )
    const rolled: Rolled = { accountId, kind, keyId, secret, revoked }
    return rolled
  }).pipe(Effect.withSpan("Accounts.rollKey"))

/** An additional secret key: its secret (shown once), id, mode and label. */
export interface CreatedKey {
  readonly accountId: string
  readonly keyId: string
  readonly mode: "test" | "live"
  readonly name: string
  readonly secret: string
}

/**
 * Creates an additional named secret key of `mode` on the account (docs/design.md §6: an account
 * may hold several named secret keys per mode, e.g. one per service or person, so that a
 * pending fee change can be approved with another key). Its other keys are untouched. Fails
 * with `RecordNotFound` for an unknown account.
 */
export const createSecretKey = (accountId: string, mode: "test" | "live", name: string) =>
  Effect.gen(function* () {
    const accounts = yield* AccountRepository
    const ids = yield* Ids
    const tx = yield* Transactions
    const secret = Keys.generate(mode === "live" ? "secretProd" : "secretDev")
    const keyId = yield* ids.make("key")
    const created = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    yield* tx.run(
      Effect.gen(function* () {
        yield* accounts.getAccount(accountId)
        yield* accounts.createKey({
          id: keyId,
          accountId,
          livemode: mode === "live",
          kind: "secret",
          name,
          secret,
          created
        })
      })
    )
    const result: CreatedKey = { accountId, keyId, mode, name, secret }
    return result
  }).pipe(Effect.withSpan("Accounts.createSecretKey"))

/** A key as listed: never the key itself. */
export interface ListedKey {
  readonly id: string
  readonly kind: "secret" | "publishable"
  readonly mode: "test" | "live"
  readonly name: string | null
  readonly last4: string
  readonly created: number
  readonly lastUsed: number | null
  readonly revoked: boolean
}

/** Every key of the account, both modes, newest first. Fails with `RecordNotFound` for an unknown account. */
export const listKeys = (accountId: string) =>
  Effect.gen(function* () {
    const accounts = yield* AccountRepository
    yield* accounts.getAccount(accountId)
    const out: Array<ListedKey> = []
    for (const livemode of [false, true]) {
      for (const k of yield* keysOf(accounts, accountId, livemode)) {
        out.push({
          id: k.id,
          kind: k.kind,
          mode: k.livemode ? "live" : "test",
          name: k.name,
          last4: k.last4,
          created: k.created,
          lastUsed: k.lastUsed,
          revoked: k.revoked
        })
      }
    }
    return out
  })

/**
 * Revokes one key of the account: from its next request it is refused (401). Fails with
 * `RecordNotFound` for an unknown account or a key of another account.
 */
export const revokeKey = (accountId: string, keyId: string) =>
  Effect.flatMap(AccountRepository, (accounts) =>
    Effect.zipRight(accounts.getAccount(accountId), accounts.revokeKey(accountId, keyId))
  )

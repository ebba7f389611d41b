/**
 * Revoking one API key of the tenant's account and mode (docs/design.md §5), so a leaked key,
 * named ones from `levy keys create` included, can be shut off: refused from its next request.
 * The key making the request (`acting`, when a key makes it) cannot revoke itself.
 */
import type { ApiKey } from "@levy/api"
import {
  AccountRepository,
  type StorageError,
  type ApiKey as StoredKey,
  type Tenant
} from "@levy/storage"
import { Effect, Option } from "effect"
import { ApiKeyNotFound, KeyRevokesItself } from "./KeyErrors.js"
import * as KeyWire from "./KeyWire.js"

export type RevokeKeyError = ApiKeyNotFound | KeyRevokesItself | StorageError

/** The tenant's key `id` (accounts hold a handful: their pages are read until found). */
const find = (tenant: Tenant.Tenant, id: string) =>
  Effect.gen(function* () {
    const accounts = yield* AccountRepository
    let startingAfter: string | undefined
    for (;;) {
      const page = yield* accounts.listKeys(tenant, {
        limit: 100,
        ...(startingAfter === undefined ? {} : { startingAfter })
      })
      const found = page.data.find((k) => k.id === id)
      if (found !== undefined) return Option.some(found)
      const last = page.data.at(-1)
      if (!page.hasMore || last === undefined) return Option.none<StoredKey>()
      startingAfter = last.id
    }
  })

export const revokeKey = (
  tenant: Tenant.Tenant,
  id: string,
  acting?: string | undefined
): Effect.Effect<ApiKey.ApiKey, RevokeKeyError, AccountRepository> =>
  Effect.gen(function* () {
    if (id === acting) return yield* new KeyRevokesItself({ id })
    const found = yield* find(tenant, id)
    if (Option.isNone(found)) return yield* new ApiKeyNotFound({ id })
    const accounts = yield* AccountRepository
    return KeyWire.toWire(yield* accounts.revokeKey(tenant.accountId, id))
  }).pipe(Effect.catchTag("RecordNotFound", () => Effect.fail(new ApiKeyNotFound({ id }))))

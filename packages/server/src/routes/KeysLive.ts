/**
 * The keys group (docs/design.md §5): the account's keys in the caller's mode, listed (never the
 * keys themselves) and revoked one by one, so a leaked key, named ones from `levy keys create`
 * included, can be shut off from the dashboard as from `levy keys revoke`.
 */
import { ApiError, type ApiKey, CurrentKey } from "@levy/api"
import { AccountRepository, type ApiKey as StoredKey, type Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import { unavailable } from "../http/Unavailable.js"
import { tenantOf } from "./Handle.js"

const URL_PATH = "/v1/keys"

const toWire = (k: StoredKey): ApiKey.ApiKey => ({
  id: k.id,
  object: "api_key",
  kind: k.kind,
  livemode: k.livemode,
  name: k.name,
  last4: k.last4,
  created: k.created,
  lastUsed: k.lastUsed,
  revoked: k.revoked
})

export const KeysLive = ApiHandlers.group("keys", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* AccountRepository

    /** The tenant's key `id` (accounts hold a handful: their pages are read until found). */
    const find = (tenant: Tenant.Tenant, id: string) =>
      Effect.gen(function* () {
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

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const tenant = tenantOf(yield* CurrentKey.CurrentKey)
          return yield* Listing.respond(
            urlParams,
            URL_PATH,
            (request) => accounts.listKeys(tenant, request),
            (k) => Effect.succeed(toWire(k))
          )
        })
      )
      .handle("revoke", ({ path }) =>
        Effect.gen(function* () {
          const current = yield* CurrentKey.CurrentKey
          if (path.id === current.keyId) {
            return yield* new ApiError.InvalidRequestError({
              code: "key_in_use",
              param: "id",
              message:
                "A key cannot revoke itself: revoke it with another secret key of the account, or with levy keys revoke."
            })
          }
          const tenant = tenantOf(current)
          const found = yield* find(tenant, path.id)
          if (Option.isNone(found)) return yield* ApiError.noSuch("API key", path.id)
          return toWire(yield* accounts.revokeKey(tenant.accountId, path.id))
        }).pipe(
          Effect.catchTags({
            RecordNotFound: () => Effect.fail(ApiError.noSuch("API key", path.id)),
            StorageError: unavailable
          })
        )
      )
  })
)

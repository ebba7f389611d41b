/**
 * The keys group (docs/design.md §5): the account's keys in the caller's mode, listed (never the
 * keys themselves) and revoked one by one (listKeys.ts, revokeKey.ts); the key making the
 * request cannot revoke itself.
 */
import { CurrentKey } from "@levy/api"
import { listKeys } from "@levy/engine/access/listKeys.js"
import { revokeKey } from "@levy/engine/access/revokeKey.js"
import { Effect } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Listing from "../http/Listing.js"
import * as Handle from "./Handle.js"

const URL_PATH = "/v1/keys"

export const KeysLive = ApiHandlers.group("keys", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", ({ urlParams }) =>
        Handle.list(URL_PATH, (tenant) => listKeys(tenant, Listing.requestOf(urlParams)))
      )
      .handle("revoke", ({ path }) =>
        Effect.flatMap(CurrentKey.CurrentKey, (current) =>
          Handle.read((tenant) => revokeKey(tenant, path.id, current.keyId))
        )
      )
  )
)

/** A stored API key as the wire shows it: never the key itself, only its last four characters. */
import type { ApiKey } from "@levy/api"
import type { ApiKey as StoredKey } from "@levy/storage"

export const toWire = (k: StoredKey): ApiKey.ApiKey => ({
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

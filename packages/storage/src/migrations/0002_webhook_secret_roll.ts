/**
 * Rolling a webhook endpoint's signing secret (docs/design.md §8): the secret it replaces stays
 * valid beside the new one until an expiry (Unix milliseconds), so receivers can switch
 * without dropping a delivery. Sealed like the current secret; both columns NULL when no
 * roll is in progress.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
ALTER TABLE webhook_endpoints
  ADD COLUMN previous_secret_ciphertext text,
  ADD COLUMN previous_secret_expires_at_ms bigint,
  ADD CONSTRAINT webhook_endpoints_previous_secret_complete CHECK (
    (previous_secret_ciphertext IS NULL) = (previous_secret_expires_at_ms IS NULL)
  );
`
)

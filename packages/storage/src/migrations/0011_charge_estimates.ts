/**
 * Quotes a charge honours (docs/quotes.md): a charge records the estimate it named, and a quote
 * is used by at most one pending or succeeded charge per account and mode (a failed attempt
 * leaves it usable). Depends only on 0001.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
ALTER TABLE charges ADD COLUMN estimate text COLLATE "C";
CREATE UNIQUE INDEX charges_estimate ON charges (account_id, livemode, estimate)
  WHERE estimate IS NOT NULL AND status IN ('pending', 'succeeded');
`
)

/**
 * The payment processor configured per account and mode (docs/design.md §4): one row per
 * (account, livemode), its processor's name, the credentials sealed by `SecretBox` as one JSON
 * object bound to the row (`processor_config:<account>:<test|live>:<processor>`, so a ciphertext
 * moved to another account, mode or processor does not open), whether the adapter sends the
 * fee in the processor's surcharge field, and a random `revision` that changes with every save
 * (adapters built from the credentials are cached per revision). Depends only on 0001.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
CREATE TABLE processor_configs (
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  livemode boolean NOT NULL,
  processor text NOT NULL,
  credentials_ciphertext text NOT NULL,
  surcharge boolean NOT NULL DEFAULT false,
  revision text NOT NULL,
  created bigint NOT NULL,
  updated bigint NOT NULL,
  PRIMARY KEY (account_id, livemode)
);
`
)

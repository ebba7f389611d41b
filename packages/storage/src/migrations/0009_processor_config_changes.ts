/**
 * Processor configuration changes held for approval (docs/design.md §4): in live mode a change
 * of where the money goes waits for a second key. At most one per (account, livemode); its
 * credentials sealed by `SecretBox` bound to the change
 * (`processor_config_change:<account>:<test|live>:<id>:<processor>`), none for a delete; the
 * revision of the configuration in force when it was requested (`base_revision`, null when
 * none was configured), so it is applied only while that is still in force. The row is
 * deleted when the change is approved or cancelled. Depends only on 0001 and 0005.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
CREATE TABLE pending_processor_config_changes (
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  livemode boolean NOT NULL,
  id text COLLATE "C" NOT NULL,
  action text NOT NULL CHECK (action IN ('save', 'delete')),
  processor text NOT NULL,
  surcharge boolean NOT NULL DEFAULT false,
  base_revision text,
  requested_by text NOT NULL,
  requested_at bigint NOT NULL,
  credentials_ciphertext text,
  PRIMARY KEY (account_id, livemode),
  UNIQUE (account_id, id),
  CHECK ((action = 'save') = (credentials_ciphertext IS NOT NULL)),
  CHECK (action = 'save' OR base_revision IS NOT NULL)
);
`
)

/**
 * Fee configuration versions (docs/design.md §6): every write to a configuration is a
 * compare-and-set on `version`, and a held change records the version it was requested
 * against (`base_version`), so it can be approved only while the configuration is still there.
 * Configurations stored before start at version 0; a change held before has no base version
 * and can no longer be approved (it is cancelled and requested again).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
ALTER TABLE fee_configs ADD COLUMN version bigint NOT NULL DEFAULT 0;
ALTER TABLE fee_config_changes ADD COLUMN base_version bigint;
`
)

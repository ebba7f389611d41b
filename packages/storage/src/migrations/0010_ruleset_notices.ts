/**
 * Changes of the law announced to accounts (docs/design.md §3 "Changes announced"): one row per
 * account, mode, change and region, written in the transaction of the `ruleset.changed` event, so
 * the primary key makes a second announcement (a restart, another server process) fail and write
 * nothing. The releases of the ruleset the servers have run, each with when one first did: a
 * release is announced to the accounts that were answered by the one before. An index on the
 * charges' regions lets the announcer list the regions of an account's charges without reading
 * them all. Depends only on 0001.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
CREATE TABLE ruleset_notices (
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  livemode boolean NOT NULL,
  change_id text COLLATE "C" NOT NULL,
  region text COLLATE "C" NOT NULL,
  effective_date text NOT NULL,
  ruleset_version text NOT NULL,
  event_id text COLLATE "C" NOT NULL,
  created bigint NOT NULL,
  PRIMARY KEY (account_id, livemode, change_id, region)
);

CREATE TABLE ruleset_releases (
  version text COLLATE "C" PRIMARY KEY,
  first_seen bigint NOT NULL
);

CREATE INDEX charges_by_region ON charges (account_id, livemode, region)
  WHERE region IS NOT NULL;
`
)

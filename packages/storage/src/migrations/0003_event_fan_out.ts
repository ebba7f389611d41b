/**
 * The webhook fan-out mark (docs/design.md §8): an event is turned into its deliveries (one per
 * enabled endpoint subscribed to its type) by the dispatcher, in the same transaction that
 * sets `fanned_out`, so each event is fanned out exactly once by whichever process takes it
 * (`FOR UPDATE SKIP LOCKED`) and none is forgotten across restarts. Events written before
 * this migration count as fanned out (the column is added with default true, then the
 * default becomes false for new rows): no backlog of old events is delivered. Also: a
 * fill factor for the deliveries, whose rows are updated on every claim.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
ALTER TABLE events ADD COLUMN fanned_out boolean NOT NULL DEFAULT true;
ALTER TABLE events ALTER COLUMN fanned_out SET DEFAULT false;
-- The fan-out queue: events not yet fanned out, oldest first.
CREATE INDEX events_to_fan_out ON events (created, id) WHERE NOT fanned_out;
-- Room on each page for the new version of a row whose lease is taken or released (no indexed
-- column changes), so those updates stay heap-only (HOT) and write no index entries.
ALTER TABLE webhook_deliveries SET (fillfactor = 70);
-- Queue tables: every row is updated soon after it is written (claimed, recorded, fanned out).
-- Vacuum and analyze them sooner than the defaults (20 % / 10 % of the table changed), so
-- dead rows do not pile up in the queue indexes and the planner knows the queue's size.
ALTER TABLE webhook_deliveries SET (autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.01);
ALTER TABLE events SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_analyze_scale_factor = 0.02);
`
)

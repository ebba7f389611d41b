/**
 * Bounds on webhook work and on what is kept (docs/design.md §8, docs/storage.md "Retention").
 * A delivery remembers how many attempts it had when it was last queued (0, or its attempts
 * at a resend), so the backoff and the cap on attempts count from there, as the give-up
 * horizon counts from its `created`. Indexes for the housekeeping purge, which deletes in
 * small batches, oldest first, whatever the account: events, attempts and finished deliveries
 * by age, processor notifications by when they were received. `webhook_deliveries_by_event`
 * also serves the foreign key's check when an event is deleted (its deliveries are looked up
 * by event). Depends only on 0001, 0003 and 0006.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
ALTER TABLE webhook_deliveries ADD COLUMN attempts_at_queue integer NOT NULL DEFAULT 0;

CREATE INDEX events_by_age ON events (created);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (account_id, event_id);
CREATE INDEX webhook_deliveries_finished_by_age ON webhook_deliveries (created)
  WHERE status <> 'pending';
CREATE INDEX webhook_delivery_attempts_by_age ON webhook_delivery_attempts (created);
CREATE INDEX processor_notifications_by_age ON processor_notifications (received);
`
)

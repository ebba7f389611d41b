/**
 * The phased money path (docs/design.md §4): a charge or refund is written `pending` before the
 * processor is called, with the processor idempotency key that call uses, so a crash between
 * the processor's answer and Levy's record of it loses nothing: the client's retry (found by its
 * Idempotency-Key) or the recovery sweeper (found by an expired lease) settles it with the same
 * key. Refunds reserve their amounts on the charge while pending; a failed one releases them.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
ALTER TABLE charges
  ADD COLUMN processor text,
  ADD COLUMN processor_key text COLLATE "C",
  ADD COLUMN idempotency_key text COLLATE "C",
  ADD COLUMN request_fingerprint text,
  ADD COLUMN processor_reference text,
  ADD COLUMN recover_after bigint;
-- One payment per processor key, one charge per client key, within (account, mode).
CREATE UNIQUE INDEX charges_processor_key ON charges (account_id, livemode, processor_key)
  WHERE processor_key IS NOT NULL;
CREATE UNIQUE INDEX charges_idempotency_key ON charges (account_id, livemode, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
-- The recovery queue: pending charges by lease expiry (across accounts, for the sweeper).
CREATE INDEX charges_to_recover ON charges (recover_after) WHERE status = 'pending';

ALTER TABLE refunds
  ADD COLUMN processor text,
  ADD COLUMN processor_key text COLLATE "C",
  ADD COLUMN idempotency_key text COLLATE "C",
  ADD COLUMN request_fingerprint text,
  ADD COLUMN processor_reference text,
  ADD COLUMN failure_code text,
  ADD COLUMN failure_message text,
  ADD COLUMN recover_after bigint;
UPDATE refunds SET status = 'succeeded' WHERE status NOT IN ('pending', 'succeeded', 'failed');
ALTER TABLE refunds ADD CONSTRAINT refunds_status CHECK (status IN ('pending', 'succeeded', 'failed'));
CREATE UNIQUE INDEX refunds_processor_key ON refunds (account_id, livemode, processor_key)
  WHERE processor_key IS NOT NULL;
CREATE UNIQUE INDEX refunds_idempotency_key ON refunds (account_id, livemode, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX refunds_to_recover ON refunds (recover_after) WHERE status = 'pending';
`
)

/**
 * Processor webhooks (docs/design.md §8): each notification a processor sends is recorded once
 * per (account, mode, processor, notification id) in the same transaction as the change it
 * causes, so a redelivery changes nothing twice. Disputes opened by a processor carry its
 * reference (unique per account and mode) and the processor's time of the last status applied,
 * so an older, late delivery changes nothing; `under_review` joins the dispute statuses.
 * Charges and refunds are found by the processor's reference of their payment or refund.
 * Depends only on 0001 and 0004.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
CREATE TABLE processor_notifications (
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  livemode boolean NOT NULL,
  processor text NOT NULL,
  notification_id text COLLATE "C" NOT NULL,
  received bigint NOT NULL,
  PRIMARY KEY (account_id, livemode, processor, notification_id)
);

ALTER TABLE disputes DROP CONSTRAINT disputes_status_check;
ALTER TABLE disputes ADD CONSTRAINT disputes_status_check
  CHECK (status IN ('needs_response', 'under_review', 'won', 'lost'));
ALTER TABLE disputes
  ADD COLUMN processor_reference text COLLATE "C",
  ADD COLUMN processor_updated_at bigint;
CREATE UNIQUE INDEX disputes_processor_reference ON disputes (account_id, livemode, processor_reference)
  WHERE processor_reference IS NOT NULL;

CREATE INDEX charges_processor_reference ON charges (account_id, livemode, processor_reference)
  WHERE processor_reference IS NOT NULL;
CREATE INDEX refunds_processor_reference ON refunds (account_id, livemode, processor_reference)
  WHERE processor_reference IS NOT NULL;
`
)

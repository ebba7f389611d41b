/**
 * Every table of Levy. Each carries `account_id` and leads its primary key, its unique
 * constraints and its indexes with it; every list is a keyset range scan over
 * `(account_id, livemode, created DESC, id DESC)` or a filtered variant of it.
 * Ids are `COLLATE "C"` so that byte order (the in-memory store's order) is SQL's order.
 * Money and times are `bigint` (minor units; Unix seconds for `created`, milliseconds for
 * leases and expiries).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`
CREATE TABLE accounts (
  account_id text COLLATE "C" PRIMARY KEY,
  name text NOT NULL,
  created bigint NOT NULL
);

CREATE TABLE api_keys (
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  kind text NOT NULL CHECK (kind IN ('secret', 'publishable')),
  name text,
  key_hash text NOT NULL,
  last4 text NOT NULL,
  created bigint NOT NULL,
  last_used bigint,
  revoked boolean NOT NULL DEFAULT false,
  PRIMARY KEY (account_id, id),
  UNIQUE (account_id, key_hash)
);
-- Authentication starts from the key alone: the one lookup that does not start from an account.
CREATE INDEX api_keys_key_hash ON api_keys (key_hash);
CREATE INDEX api_keys_list ON api_keys (account_id, livemode, created DESC, id DESC);

CREATE TABLE fee_configs (
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  livemode boolean NOT NULL,
  config jsonb NOT NULL,
  updated bigint NOT NULL,
  PRIMARY KEY (account_id, livemode)
);

CREATE TABLE fee_config_changes (
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  changes jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'applied', 'cancelled')),
  requested_by text,
  created bigint NOT NULL,
  resolved_at bigint,
  resolved_by text,
  previous jsonb,
  PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX fee_config_changes_one_pending
  ON fee_config_changes (account_id, livemode) WHERE status = 'pending';
CREATE INDEX fee_config_changes_list
  ON fee_config_changes (account_id, livemode, created DESC, id DESC);

CREATE TABLE charges (
  account_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  created bigint NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  convenience_fee bigint NOT NULL CHECK (convenience_fee >= 0),
  total_amount bigint NOT NULL CHECK (total_amount = amount + convenience_fee),
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  customer text,
  description text,
  metadata jsonb NOT NULL DEFAULT '{}',
  region text,
  card_type text,
  fee_breakdown jsonb NOT NULL,
  compliance jsonb,
  failure_code text,
  failure_message text,
  amount_refunded bigint NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= total_amount),
  fee_refunded bigint NOT NULL DEFAULT 0 CHECK (fee_refunded >= 0 AND fee_refunded <= convenience_fee),
  refunded boolean NOT NULL DEFAULT false,
  disputed boolean NOT NULL DEFAULT false,
  details jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (account_id, id)
);
CREATE INDEX charges_list ON charges (account_id, livemode, created DESC, id DESC);
CREATE INDEX charges_by_customer
  ON charges (account_id, livemode, customer, created DESC, id DESC) WHERE customer IS NOT NULL;

CREATE TABLE refunds (
  account_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  charge_id text COLLATE "C" NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  fee_amount bigint NOT NULL CHECK (fee_amount >= 0),
  reason text,
  status text NOT NULL,
  created bigint NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (account_id, id),
  FOREIGN KEY (account_id, charge_id) REFERENCES charges (account_id, id)
);
CREATE INDEX refunds_list ON refunds (account_id, livemode, created DESC, id DESC);
CREATE INDEX refunds_by_charge ON refunds (account_id, livemode, charge_id, created DESC, id DESC);

CREATE TABLE disputes (
  account_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  charge_id text COLLATE "C" NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  status text NOT NULL CHECK (status IN ('needs_response', 'won', 'lost')),
  reason text NOT NULL,
  created bigint NOT NULL,
  updated bigint NOT NULL,
  PRIMARY KEY (account_id, id),
  FOREIGN KEY (account_id, charge_id) REFERENCES charges (account_id, id)
);
CREATE INDEX disputes_list ON disputes (account_id, livemode, created DESC, id DESC);
CREATE INDEX disputes_by_charge ON disputes (account_id, livemode, charge_id, created DESC, id DESC);

CREATE TABLE idempotency_records (
  account_id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  key text COLLATE "C" NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_progress', 'done')),
  response_status integer,
  response_body jsonb,
  created_ms bigint NOT NULL,
  expires_at_ms bigint NOT NULL,
  PRIMARY KEY (account_id, livemode, key)
);
CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at_ms);

CREATE TABLE events (
  account_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  request jsonb,
  created bigint NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX events_list ON events (account_id, livemode, created DESC, id DESC);
CREATE INDEX events_by_type ON events (account_id, livemode, type, created DESC, id DESC);

CREATE TABLE webhook_endpoints (
  account_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  url text NOT NULL,
  enabled_events jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
  description text,
  secret_ciphertext text NOT NULL,
  created bigint NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX webhook_endpoints_list ON webhook_endpoints (account_id, livemode, created DESC, id DESC);

CREATE TABLE webhook_deliveries (
  account_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  endpoint_id text COLLATE "C" NOT NULL,
  event_id text COLLATE "C" NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at_ms bigint NOT NULL,
  lease_owner text,
  lease_expires_at_ms bigint,
  created bigint NOT NULL,
  PRIMARY KEY (account_id, id),
  UNIQUE (account_id, endpoint_id, event_id),
  FOREIGN KEY (account_id, endpoint_id) REFERENCES webhook_endpoints (account_id, id) ON DELETE CASCADE,
  FOREIGN KEY (account_id, event_id) REFERENCES events (account_id, id)
);
CREATE INDEX webhook_deliveries_list ON webhook_deliveries (account_id, livemode, created DESC, id DESC);
CREATE INDEX webhook_deliveries_by_endpoint
  ON webhook_deliveries (account_id, livemode, endpoint_id, created DESC, id DESC);
-- The dispatcher's queue: due, unfinished deliveries of every account, oldest due first.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at_ms) WHERE status = 'pending';

CREATE TABLE webhook_delivery_attempts (
  account_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  livemode boolean NOT NULL,
  delivery_id text COLLATE "C" NOT NULL,
  attempt integer NOT NULL,
  status_code integer,
  error text,
  duration_ms integer NOT NULL,
  created bigint NOT NULL,
  PRIMARY KEY (account_id, id),
  UNIQUE (account_id, delivery_id, attempt),
  FOREIGN KEY (account_id, delivery_id) REFERENCES webhook_deliveries (account_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_delivery_attempts_list
  ON webhook_delivery_attempts (account_id, livemode, delivery_id, created DESC, id DESC);
`
)

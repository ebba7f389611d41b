/**
 * Every table the SQL stores read and write, each column once (see `Table.ts`), with the
 * schema its JSON columns decode by. The migrations under `migrations/` create them; a column a
 * table has but no field names here (`events.fanned_out`) is left to its default and to the
 * statements that manage it.
 */

import { Schema } from "effect"
import type { Account, ApiKey } from "../AccountRepository.js"
import type { Dispute, StoredCharge, StoredRefund } from "../ChargeRepository.js"
import type { Event } from "../EventRepository.js"
import type { FeeConfig, FeeConfigChange } from "../FeeConfigRepository.js"
import { type Json, JsonObjectSchema, JsonSchema } from "../Json.js"
import type { StoredProcessorChange, StoredProcessorConfig } from "../ProcessorConfigRepository.js"
import type { ReceivedNotification } from "../ProcessorNotificationRepository.js"
import type { RulesetNotice, RulesetRelease } from "../RulesetNoticeRepository.js"
import type { WebhookAttempt, WebhookDelivery } from "../WebhookDeliveryRepository.js"
import type { StoredWebhookEndpoint } from "../WebhookEndpointRepository.js"
import * as T from "./Table.js"

export const accounts = T.make<Account>()("accounts", {
  id: T.text("account_id"),
  name: T.text(),
  created: T.bigint()
})

export const apiKeys = T.make<ApiKey>()("api_keys", {
  id: T.text(),
  accountId: T.text(),
  livemode: T.boolean(),
  kind: T.literal("secret", "publishable")(),
  name: T.nullableText(),
  hash: T.text("key_hash"),
  last4: T.text(),
  created: T.bigint(),
  lastUsed: T.nullableBigint(),
  revoked: T.boolean()
})

export const events = T.make<Event>()("events", {
  id: T.text(),
  accountId: T.text(),
  livemode: T.boolean(),
  type: T.text(),
  data: T.json(JsonObjectSchema),
  request: T.nullableJson(JsonObjectSchema),
  created: T.bigint()
})

export const feeConfigs = T.make<FeeConfig>()("fee_configs", {
  accountId: T.text(),
  livemode: T.boolean(),
  config: T.json(JsonObjectSchema),
  updated: T.bigint(),
  version: T.bigint()
})

export const feeConfigChanges = T.make<FeeConfigChange>()("fee_config_changes", {
  id: T.text(),
  accountId: T.text(),
  livemode: T.boolean(),
  changes: T.json(JsonObjectSchema),
  status: T.literal("pending", "applied", "cancelled")(),
  requestedBy: T.nullableText(),
  created: T.bigint(),
  resolvedAt: T.nullableBigint(),
  resolvedBy: T.nullableText(),
  previous: T.nullableJson(JsonObjectSchema),
  baseVersion: T.nullableBigint()
})

/** An idempotency record as its row holds it: the stored response in two columns. */
export interface IdempotencyRow {
  readonly accountId: string
  readonly livemode: boolean
  readonly key: string
  readonly fingerprint: string
  readonly state: "in_progress" | "done"
  readonly responseStatus: number | null
  /** The body with its sealed fields sealed; SQL NULL until done. */
  readonly responseBody: Json
  readonly createdMs: number
  readonly expiresAtMs: number
}

export const idempotencyRecords = T.make<IdempotencyRow>()("idempotency_records", {
  accountId: T.text(),
  livemode: T.boolean(),
  key: T.text(),
  fingerprint: T.text(),
  state: T.literal("in_progress", "done")(),
  responseStatus: T.nullableInteger(),
  responseBody: T.nullableJson(JsonSchema),
  createdMs: T.bigint(),
  expiresAtMs: T.bigint()
})

export const processorConfigs = T.make<StoredProcessorConfig>()("processor_configs", {
  accountId: T.text(),
  livemode: T.boolean(),
  processor: T.text(),
  surcharge: T.boolean(),
  revision: T.text(),
  created: T.bigint(),
  updated: T.bigint(),
  credentialsCiphertext: T.text()
})

export const pendingProcessorChanges = T.make<StoredProcessorChange>()(
  "pending_processor_config_changes",
  {
    accountId: T.text(),
    livemode: T.boolean(),
    id: T.text(),
    action: T.literal("save", "delete")(),
    processor: T.text(),
    surcharge: T.boolean(),
    baseRevision: T.nullableText(),
    requestedBy: T.text(),
    requestedAt: T.bigint(),
    credentialsCiphertext: T.nullableText()
  }
)

export const webhookEndpoints = T.make<StoredWebhookEndpoint>()("webhook_endpoints", {
  id: T.text(),
  accountId: T.text(),
  livemode: T.boolean(),
  url: T.text(),
  enabledEvents: T.json(Schema.Array(Schema.String)),
  status: T.literal("enabled", "disabled")(),
  description: T.nullableText(),
  created: T.bigint(),
  secretCiphertext: T.text(),
  previousSecretCiphertext: T.nullableText(),
  previousSecretExpiresAtMs: T.nullableBigint()
})

/** A charge's or refund's metadata: string values only (the API's rule). */
export const Metadata = Schema.Record({ key: Schema.String, value: Schema.String })

/** The applied fee in minor units (`{percentage, flatFee, …}`); further fields are kept. */
export const FeeBreakdown = Schema.Struct(
  { percentage: Schema.Int, flatFee: Schema.Int },
  Schema.Record({ key: Schema.String, value: JsonSchema })
)

/** The compliance verdict (`{compliant, rulesetVersion, …}`); further fields are kept. */
export const Compliance = Schema.Struct(
  { compliant: Schema.Boolean, rulesetVersion: Schema.String },
  Schema.Record({ key: Schema.String, value: JsonSchema })
)

export const charges = T.make<StoredCharge>()("charges", {
  id: T.text(),
  accountId: T.text(),
  livemode: T.boolean(),
  created: T.bigint(),
  amount: T.bigint(),
  convenienceFee: T.bigint(),
  totalAmount: T.bigint(),
  currency: T.text(),
  status: T.literal("pending", "succeeded", "failed")(),
  customer: T.nullableText(),
  description: T.nullableText(),
  metadata: T.json(Metadata),
  region: T.nullableText(),
  cardType: T.nullableText(),
  feeBreakdown: T.json(FeeBreakdown),
  compliance: T.nullableJson(Compliance),
  failureCode: T.nullableText(),
  failureMessage: T.nullableText(),
  amountRefunded: T.bigint(),
  feeRefunded: T.bigint(),
  refunded: T.boolean(),
  disputed: T.boolean(),
  details: T.json(JsonObjectSchema),
  processor: T.nullableText(),
  processorKey: T.nullableText(),
  idempotencyKey: T.nullableText(),
  requestFingerprint: T.nullableText(),
  processorReference: T.nullableText(),
  recoverAfterMs: T.nullableBigint("recover_after"),
  estimate: T.nullableText()
})

export const refunds = T.make<StoredRefund>()("refunds", {
  id: T.text(),
  accountId: T.text(),
  livemode: T.boolean(),
  chargeId: T.text(),
  amount: T.bigint(),
  feeAmount: T.bigint(),
  reason: T.nullableText(),
  status: T.text(),
  created: T.bigint(),
  metadata: T.json(Metadata),
  failureCode: T.nullableText(),
  failureMessage: T.nullableText(),
  processor: T.nullableText(),
  processorKey: T.nullableText(),
  idempotencyKey: T.nullableText(),
  requestFingerprint: T.nullableText(),
  processorReference: T.nullableText(),
  recoverAfterMs: T.nullableBigint("recover_after")
})

/** A dispute as its row holds it: a processor's reference and time when a processor opened it. */
export interface StoredDispute extends Dispute {
  readonly processorReference: string | null
  /** The processor's time (Unix seconds) of the status the dispute has. */
  readonly processorUpdatedAt: number | null
}

export const disputes = T.make<StoredDispute>()("disputes", {
  id: T.text(),
  accountId: T.text(),
  livemode: T.boolean(),
  chargeId: T.text(),
  amount: T.bigint(),
  status: T.literal("needs_response", "under_review", "won", "lost")(),
  reason: T.text(),
  created: T.bigint(),
  updated: T.bigint(),
  processorReference: T.nullableText(),
  processorUpdatedAt: T.nullableBigint()
})

export const processorNotifications = T.make<ReceivedNotification>()("processor_notifications", {
  accountId: T.text(),
  livemode: T.boolean(),
  processor: T.text(),
  notificationId: T.text(),
  receivedMs: T.bigint("received")
})

export const webhookDeliveries = T.make<WebhookDelivery>()("webhook_deliveries", {
  id: T.text(),
  accountId: T.text(),
  livemode: T.boolean(),
  endpointId: T.text(),
  eventId: T.text(),
  status: T.literal("pending", "succeeded", "failed")(),
  attempts: T.integer(),
  attemptsAtQueue: T.integer(),
  nextAttemptAtMs: T.bigint(),
  leaseOwner: T.nullableText(),
  leaseExpiresAtMs: T.nullableBigint(),
  created: T.bigint()
})

export const webhookDeliveryAttempts = T.make<WebhookAttempt>()("webhook_delivery_attempts", {
  id: T.text(),
  accountId: T.text(),
  livemode: T.boolean(),
  deliveryId: T.text(),
  attempt: T.integer(),
  statusCode: T.nullableInteger(),
  error: T.nullableText(),
  durationMs: T.integer(),
  created: T.bigint()
})

export const rulesetNotices = T.make<RulesetNotice>()("ruleset_notices", {
  accountId: T.text(),
  livemode: T.boolean(),
  changeId: T.text(),
  region: T.text(),
  effectiveDate: T.text(),
  rulesetVersion: T.text(),
  eventId: T.text(),
  created: T.bigint()
})

export const rulesetReleases = T.make<RulesetRelease>()("ruleset_releases", {
  version: T.text(),
  firstSeen: T.bigint()
})

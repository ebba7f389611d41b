/**
 * Every table the SQL stores read and write, each column once (see `Table.ts`), with the
 * schema its JSON columns decode by. The migrations under `migrations/` create them; a column a
 * table has but no field names here (`events.fanned_out`) is left to its default and to the
 * statements that manage it.
 */

import { Schema } from "effect"
import type { Account, ApiKey } from "../AccountRepository.js"
import type { Event } from "../EventRepository.js"
import type { FeeConfig, FeeConfigChange } from "../FeeConfigRepository.js"
import { type Json, JsonObjectSchema, JsonSchema } from "../Json.js"
import type { StoredProcessorConfig } from "../ProcessorConfigRepository.js"
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
  updated: T.bigint()
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
  previous: T.nullableJson(JsonObjectSchema)
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

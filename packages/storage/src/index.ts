/** @levy/storage: every record Levy keeps, behind repository services, in three stores. */

export {
  type Account,
  AccountRepository,
  type AccountRepositoryService,
  type ApiKey,
  hashKey,
  type NewApiKey
} from "./AccountRepository.js"
export {
  type Charge,
  type ChargeFilter,
  type ChargeNotes,
  type ChargeOutcome,
  ChargeRepository,
  type ChargeRepositoryService,
  type ChargeSettlement,
  type ChargeWrite,
  type Dispute,
  type DisputeFilter,
  type IdempotencyCompletion,
  type NewCharge,
  type Processing,
  type RecoveryClaim,
  type Refund,
  type RefundedSoFar,
  type RefundFailure,
  type RefundSettlement,
  type Settled,
  type SettleEffects,
  type StoredCharge,
  type StoredRefund
} from "./ChargeRepository.js"
export * as DataDirLock from "./DataDirLock.js"
export * as Embedded from "./Embedded.js"
export {
  type Event,
  type EventRef,
  EventRepository,
  type EventRepositoryService
} from "./EventRepository.js"
export {
  type Applied,
  type Approval,
  type ChangeToApply,
  type FeeConfig,
  type FeeConfigChange,
  FeeConfigRepository,
  type FeeConfigRepositoryService,
  type NewChange,
  type Resolution,
  UNSTORED_VERSION
} from "./FeeConfigRepository.js"
export {
  type Begun,
  CLAIM_LEASE_MS as IDEMPOTENCY_CLAIM_LEASE_MS,
  type IdempotencyRecord,
  IdempotencyRepository,
  type IdempotencyRepositoryService,
  type StoredFailure,
  type StoredResponse,
  type StoredSuccess,
  storedFailure,
  storedSuccess,
  TTL_MS as IDEMPOTENCY_TTL_MS
} from "./IdempotencyRepository.js"
export { Ids } from "./Ids.js"
export type { Json, JsonObject } from "./Json.js"
export * as Migrations from "./Migrations.js"
export { MemoryStore } from "./memory/MemoryStore.js"
export * as Page from "./Page.js"
export {
  type AppliedProcessorChange,
  type OpenedProcessorChange,
  type OpenedProcessorConfig,
  PENDING_CHANGE as PENDING_PROCESSOR_CHANGE,
  type ProcessorApproval,
  type ProcessorChange,
  type ProcessorChangeAction,
  type ProcessorChangeRequest,
  type ProcessorConfig,
  ProcessorConfigRepository,
  type ProcessorConfigRepositoryService,
  type ProcessorConfigSave
} from "./ProcessorConfigRepository.js"
export {
  type ProcessorDispute,
  ProcessorNotificationRepository,
  type ProcessorNotificationRepositoryService,
  type ReceivedNotification
} from "./ProcessorNotificationRepository.js"
export {
  type RulesetNotice,
  RulesetNoticeRepository,
  type RulesetNoticeRepositoryService,
  type RulesetRelease
} from "./RulesetNoticeRepository.js"
export { SecretBox } from "./SecretBox.js"
export { Signer, type SignerService } from "./Signer.js"
export * as Storage from "./Storage.js"
export * from "./StorageError.js"
export * as SqlSupport from "./sql/SqlSupport.js"
export * as Tenant from "./Tenant.js"
export * as Testing from "./Testing.js"
export { Transactions } from "./Transactions.js"
export {
  type AttemptOutcome,
  type AttemptRecord,
  type Claim,
  type FanOut,
  type WebhookAttempt,
  type WebhookDelivery,
  WebhookDeliveryRepository,
  type WebhookDeliveryRepositoryService
} from "./WebhookDeliveryRepository.js"
export {
  type NewWebhookEndpoint,
  type SecretRoll,
  type WebhookEndpoint,
  type WebhookEndpointPatch,
  WebhookEndpointRepository,
  type WebhookEndpointRepositoryService
} from "./WebhookEndpointRepository.js"

/**
 * Every failure the workflows free of HTTP may end with, listed once: the API maps them to its
 * errors (ApiErrors.ts) and `Levy` in-process returns them as they are (inprocess/LevyService.ts).
 */
import type { RevokeKeyError } from "./access/revokeKey.js"
import type { CreateChargeError } from "./charges/createCharge.js"
import type { UpdateChargeError } from "./charges/updateCharge.js"
import type { RetrieveDisputeError } from "./disputes/retrieveDispute.js"
import type { DescribeError } from "./estimates/Quoting.js"
import type { ResendEventError } from "./events/resendEvent.js"
import type { RetrieveEventError } from "./events/retrieveEvent.js"
import type { ApproveFeeChangeError } from "./feeConfigs/approveFeeChange.js"
import type { CancelFeeChangeError } from "./feeConfigs/cancelFeeChange.js"
import type { UpdateFeeConfigError } from "./feeConfigs/updateFeeConfig.js"
import type { PageError } from "./lists/Paging.js"
import type { ApproveProcessorChangeError } from "./processorConfigs/approveProcessorChange.js"
import type { CancelProcessorChangeError } from "./processorConfigs/cancelProcessorChange.js"
import type { DeleteProcessorConfigError } from "./processorConfigs/deleteProcessorConfig.js"
import type { ProcessorConfigNotFound } from "./processorConfigs/ProcessorConfigErrors.js"
import type { SaveProcessorConfigError } from "./processorConfigs/saveProcessorConfig.js"
import type { CreateRefundError } from "./refunds/createRefund.js"
import type { RetrieveRefundError } from "./refunds/retrieveRefund.js"
import type { CheckComplianceError } from "./regions/checkCompliance.js"
import type { RegionNotFound } from "./regions/RegionNotFound.js"
import type { RulesetNotFound } from "./rulesets/RulesetNotFound.js"
import type { CreateWebhookEndpointError } from "./webhookEndpoints/createWebhookEndpoint.js"
import type { DeleteWebhookEndpointError } from "./webhookEndpoints/deleteWebhookEndpoint.js"
import type { RollWebhookSecretError } from "./webhookEndpoints/rollWebhookSecret.js"
import type { UpdateWebhookEndpointError } from "./webhookEndpoints/updateWebhookEndpoint.js"

export type WorkflowError =
  | CreateChargeError
  | UpdateChargeError
  | CreateRefundError
  | UpdateFeeConfigError
  | ApproveFeeChangeError
  | CancelFeeChangeError
  | CreateWebhookEndpointError
  | UpdateWebhookEndpointError
  | DeleteWebhookEndpointError
  | RollWebhookSecretError
  | SaveProcessorConfigError
  | DeleteProcessorConfigError
  | ApproveProcessorChangeError
  | CancelProcessorChangeError
  | ProcessorConfigNotFound
  | DescribeError
  | PageError
  | RetrieveRefundError
  | RetrieveDisputeError
  | RetrieveEventError
  | ResendEventError
  | RevokeKeyError
  | RegionNotFound
  | CheckComplianceError
  | RulesetNotFound

/** Failures that were stored as the request's answer, with the write that failed. */
export const isStored = (error: { readonly _tag: string }): boolean =>
  error._tag === "ChargeFailed" || error._tag === "RefundFailed"

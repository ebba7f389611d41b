/**
 * Every failure the workflows free of HTTP may end with, listed once: the API maps them to its
 * errors (ApiErrors.ts) and `Levy` in-process returns them as they are (inprocess/LevyService.ts).
 */
import type { CreateChargeError } from "./charges/createCharge.js"
import type { DescribeError } from "./estimates/Quoting.js"
import type { ApproveFeeChangeError } from "./feeConfigs/approveFeeChange.js"
import type { CancelFeeChangeError } from "./feeConfigs/cancelFeeChange.js"
import type { UpdateFeeConfigError } from "./feeConfigs/updateFeeConfig.js"
import type { DeleteProcessorConfigError } from "./processorConfigs/deleteProcessorConfig.js"
import type { ProcessorConfigNotFound } from "./processorConfigs/ProcessorConfigErrors.js"
import type { SaveProcessorConfigError } from "./processorConfigs/saveProcessorConfig.js"
import type { CreateRefundError } from "./refunds/createRefund.js"
import type { CreateWebhookEndpointError } from "./webhookEndpoints/createWebhookEndpoint.js"
import type { DeleteWebhookEndpointError } from "./webhookEndpoints/deleteWebhookEndpoint.js"
import type { RollWebhookSecretError } from "./webhookEndpoints/rollWebhookSecret.js"
import type { UpdateWebhookEndpointError } from "./webhookEndpoints/updateWebhookEndpoint.js"

export type WorkflowError =
  | CreateChargeError
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
  | ProcessorConfigNotFound
  | DescribeError

/** @levy/api: the `/v1` contract shared by the server and the client. */

export * as ApiError from "./ApiError.js"
export * as Authorization from "./Authorization.js"
export * as Charge from "./Charge.js"
export * as ChargeCreate from "./ChargeCreate.js"
export * as CheckComplianceRequest from "./CheckComplianceRequest.js"
export * as Compliance from "./Compliance.js"
export * as ComplianceCheckResult from "./ComplianceCheckResult.js"
export * as ComplianceContext from "./ComplianceContext.js"
export * as ConfiguredFee from "./ConfiguredFee.js"
export * as CurrentKey from "./CurrentKey.js"
export * as Dispute from "./Dispute.js"
export * as Estimate from "./Estimate.js"
export * as EstimateRequest from "./EstimateRequest.js"
export * as Event from "./Event.js"
export * as EventResend from "./EventResend.js"
export * as FeeConfig from "./FeeConfig.js"
export * as FeeConfigUpdate from "./FeeConfigUpdate.js"
export * as Field from "./Field.js"
export * as Headers from "./Headers.js"
export * as LevyApi from "./LevyApi.js"
export * as List from "./List.js"
export * as ListParams from "./ListParams.js"
export * as Metadata from "./Metadata.js"
export * as Refund from "./Refund.js"
export * as RefundCreate from "./RefundCreate.js"
export * as Region from "./Region.js"
export * as WebhookDelivery from "./WebhookDelivery.js"
export * as WebhookEndpoint from "./WebhookEndpoint.js"
export * as WebhookEndpointCreate from "./WebhookEndpointCreate.js"
export * as WebhookEndpointUpdate from "./WebhookEndpointUpdate.js"
export * as WebhookSignature from "./WebhookSignature.js"
export {
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationReason
} from "./WebhookSignature.js"

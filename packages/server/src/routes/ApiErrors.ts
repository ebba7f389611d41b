/**
 * The workflows' failures as the API's errors (docs/design.md §4, §7, §10), in one place: the
 * workflows (charges/createCharge.ts, …) fail in their own words and know nothing of the API's
 * error shape; the HTTP handlers and `Levy` in-process answer through here.
 */
import { ApiError } from "@levy/api"
import { RulesetVersions } from "@levy/core"
import * as ChargePhases from "@levy/engine/charges/ChargePhases.js"
import type { EstimateRefused } from "@levy/engine/estimates/QuoteErrors.js"
import * as Connect from "@levy/engine/processorConfigs/Connect.js"
import type { WorkflowError } from "@levy/engine/WorkflowError.js"
import type { StoredCharge, StoredRefund } from "@levy/storage"
import { Effect } from "effect"
import * as OtherMode from "../http/OtherMode.js"
import { unavailable } from "../http/Unavailable.js"
import * as ProcessorErrors from "./ProcessorErrors.js"

export { isStored } from "@levy/engine/WorkflowError.js"

/** Every failure a workflow may end with: its own unions, and the API's errors as they are. */
export type DomainError = WorkflowError | ApiError.AnyError

/** The API's error each workflow failure becomes (an API error stays itself). */
interface ApiErrorMap {
  readonly ProcessorNotConfigured: ApiError.InvalidRequestError
  readonly CardMismatch: ApiError.InvalidRequestError
  readonly FeeNotCompliant: ApiError.InvalidRequestError
  readonly FeeError: ApiError.InvalidRequestError
  readonly SourceInvalid: ApiError.InvalidRequestError
  readonly ProcessorRefused: ApiError.InvalidRequestError
  readonly ProcessorUnavailable: ApiError.ServiceUnavailableError
  readonly OutcomeUnknown: ApiError.ServiceUnavailableError
  readonly ChargeFailed: ApiError.CardError | ApiError.InvalidRequestError
  readonly ProcessorChanged: ApiError.ServiceUnavailableError
  readonly IdempotencyKeyReused: ApiError.InvalidRequestError
  readonly IdempotencyKeyInUse: ApiError.IdempotencyError
  readonly StorageError: ApiError.ServiceUnavailableError
  readonly ChargeNotFound: ApiError.NotFoundError
  readonly ChargeDisputed: ApiError.InvalidRequestError
  readonly ChargePending: ApiError.InvalidRequestError
  readonly ChargeMetadataInvalid: ApiError.InvalidRequestError
  readonly ChargeContended: ApiError.ServiceUnavailableError
  readonly RefundNotPossible: ApiError.InvalidRequestError
  readonly RefundExceedsCharge: ApiError.InvalidRequestError
  readonly RefundContended: ApiError.ServiceUnavailableError
  readonly RefundFailed: ApiError.InvalidRequestError
  readonly RulesetVersionUnknown: ApiError.InvalidRequestError
  readonly DefaultRegionNotCompliant: ApiError.InvalidRequestError
  readonly FeeChangeAlreadyPending: ApiError.InvalidRequestError
  readonly FeeConfigContended: ApiError.IdempotencyError
  readonly FeeChangeStale: ApiError.IdempotencyError
  readonly NoPendingFeeChange: ApiError.NotFoundError
  readonly ApproverIsRequester: ApiError.PermissionError
  readonly WebhookEndpointNotFound: ApiError.NotFoundError
  readonly WebhookUrlRefused: ApiError.InvalidRequestError
  readonly WebhookEndpointLimitReached: ApiError.InvalidRequestError
  readonly CredentialsInvalid: ApiError.InvalidRequestError
  readonly CredentialsRefused: ApiError.InvalidRequestError
  readonly ProcessorUnreachable: ApiError.ServiceUnavailableError
  readonly ProcessorConfigNotFound: ApiError.NotFoundError
  readonly EstimateRefused: ApiError.InvalidRequestError
  readonly EstimateMismatch: ApiError.InvalidRequestError
  readonly EstimateRequired: ApiError.InvalidRequestError
  readonly ProcessorChangeAlreadyPending: ApiError.InvalidRequestError
  readonly ProcessorConfigContended: ApiError.IdempotencyError
  readonly ProcessorChangeStale: ApiError.IdempotencyError
  readonly NoPendingProcessorChange: ApiError.NotFoundError
  readonly CursorNotFound: ApiError.InvalidRequestError
  readonly CursorsConflict: ApiError.InvalidRequestError
  readonly RefundNotFound: ApiError.NotFoundError
  readonly DisputeNotFound: ApiError.NotFoundError
  readonly EventNotFound: ApiError.NotFoundError
  readonly EndpointNotSubscribed: ApiError.InvalidRequestError
  readonly EndpointsChanged: ApiError.ServiceUnavailableError
  readonly ApiKeyNotFound: ApiError.NotFoundError
  readonly KeyRevokesItself: ApiError.InvalidRequestError
  readonly RegionNotFound: ApiError.NotFoundError
  readonly RulesetNotFound: ApiError.NotFoundError
}

/** A list cursor's query parameter, as the engine names the field. */
const CURSOR_PARAM = { startingAfter: "starting_after", endingBefore: "ending_before" } as const

export type ApiErrorOf<E> = E extends { readonly _tag: infer T }
  ? T extends keyof ApiErrorMap
    ? ApiErrorMap[T]
    : E
  : never

/** Why a charge does not honour its estimate, and what to do (docs/quotes.md). */
const estimateRefusal = (error: EstimateRefused): string => {
  switch (error.reason) {
    case "unknown":
      return "No such estimate: pass the id POST /v1/estimates answered (est_…)."
    case "altered":
      return "The estimate was altered, or was not made by this Levy: its signature does not verify. Ask for a new estimate."
    case "other_account":
      return "The estimate was made for another account: ask for one with this account's key."
    case "other_mode":
      return "The estimate was made in the other mode: test-mode estimates are for test charges, live ones for live charges."
    case "expired":
      return `The estimate expired at ${error.expiredAt ?? "its expiresAt"} (Unix seconds): ask for a new one and show the shopper its fee.`
    case "used":
      return "The estimate was already used by a charge that succeeded or is in progress: each quote pays for one charge. Ask for a new estimate."
  }
}

/**
 * The error a charge the processor refused answers, from what the charge keeps (its request's
 * first answer and every replay of it are the same): a decline is a 402 card error naming the
 * charge, a refusal a 400 naming the field it was for.
 */
const chargeFailed = (charge: StoredCharge): ApiError.CardError | ApiError.InvalidRequestError => {
  const failure = ChargePhases.failureOf(charge)
  const code = charge.failureCode ?? "card_declined"
  const message = charge.failureMessage ?? "Your card was declined."
  switch (failure?.kind) {
    case "refused":
      return new ApiError.InvalidRequestError({ code, message })
    case "request_refused":
      return new ApiError.InvalidRequestError({
        code,
        message,
        ...(failure.param === undefined ? {} : { param: failure.param })
      })
    case "source_invalid":
      return new ApiError.InvalidRequestError({ code, message, param: "source" })
    default:
      return new ApiError.CardError({
        code,
        message,
        ...(failure?.declineCode === undefined ? {} : { declineCode: failure.declineCode }),
        charge: charge.id
      })
  }
}

/** The error a refund the processor refused answers, from what the refund keeps. */
const refundFailed = (refund: StoredRefund) =>
  new ApiError.InvalidRequestError({
    code: "refund_failed",
    param: "charge",
    message: `The payment processor refused the refund of charge ${refund.chargeId}: ${refund.failureMessage ?? "refused"} (${refund.failureCode ?? "refund_failed"}). Nothing was refunded; the amount is refundable again.`
  })

/** A workflow's failure as the API's error; store failures and unanswering processors are logged. */
export const toApiError = <E extends DomainError>(error: E): Effect.Effect<never, ApiErrorOf<E>> =>
  apiErrorOf(error) as Effect.Effect<never, ApiErrorOf<E>>

const apiErrorOf = (error: DomainError): Effect.Effect<never, ApiError.AnyError> => {
  switch (error._tag) {
    case "ProcessorNotConfigured":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "processor_not_configured",
          message:
            "No payment processor is configured for this account in live mode, so live charges cannot be made. Configure one, or use a development key to charge in test mode."
        })
      )
    case "CardMismatch":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "card_mismatch",
          param: error.field,
          message: `${error.field} '${error.asked}' contradicts the source '${error.source}', a ${error.card} card. Leave ${error.field} out, or send the source of the card you mean.`
        })
      )
    case "FeeNotCompliant":
      // An unknown region is the request's `region`, not the fee.
      return Effect.fail(
        error.reasonCode === "unknown_region"
          ? new ApiError.InvalidRequestError({
              code: "unknown_region",
              param: "region",
              message: error.reason ?? "Unknown region."
            })
          : new ApiError.InvalidRequestError({
              code: error.reasonCode ?? "fee_not_compliant",
              message: `The convenience fee is not allowed here: ${error.reason ?? "not compliant"}`
            })
      )
    case "FeeError":
      return Effect.fail(ApiError.fromFeeError(error))
    case "SourceInvalid":
      return Effect.fail(ProcessorErrors.sourceInvalid(error))
    case "ProcessorRefused":
      return Effect.fail(ProcessorErrors.refused(error))
    case "ProcessorUnavailable":
      return ProcessorErrors.unavailable(error)
    case "OutcomeUnknown":
      return ProcessorErrors.unavailable(error.error, error.pending)
    case "ChargeFailed":
      return Effect.fail(chargeFailed(error.charge))
    case "ProcessorChanged":
      return Effect.fail(
        new ApiError.ServiceUnavailableError({
          message: `Charge ${error.chargeId} is pending at the processor '${error.pendingAt}', which is no longer the account's processor ('${error.current}'); it cannot be completed until that processor is configured again.`
        })
      )
    case "EstimateRefused":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: `estimate_${error.reason}`,
          param: "estimate",
          message: estimateRefusal(error)
        })
      )
    case "EstimateMismatch":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "estimate_mismatch",
          param: error.field,
          message: `The charge's ${error.field} (${error.asked}) is not the estimate's (${error.quoted}): a quote holds for the amount, currency and region it was made for. Charge those, or ask for a new estimate.`
        })
      )
    case "EstimateRequired":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "estimate_required",
          param: "estimate",
          message:
            "This account requires live charges to name the estimate the shopper was shown (requireEstimate): make one with POST /v1/estimates and pass its id as estimate."
        })
      )
    case "IdempotencyKeyReused":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "idempotency_key_reused",
          param: "Idempotency-Key",
          message:
            "This Idempotency-Key was already used with a different request; use a new key for a new request."
        })
      )
    case "IdempotencyKeyInUse":
      return Effect.fail(
        new ApiError.IdempotencyError({
          message:
            "A request with this Idempotency-Key is still being processed; retry after it finishes."
        })
      )
    case "StorageError":
      return unavailable(error)
    case "ChargeNotFound":
      return Effect.fail(
        OtherMode.notFound(
          error.tenant,
          "charge",
          error.chargeId,
          error.inOtherMode,
          error.param ?? "charge"
        )
      )
    case "ChargeDisputed":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "charge_disputed",
          param: "charge",
          message:
            error.dispute === "open"
              ? `Charge ${error.chargeId} has an open dispute, so it cannot be refunded: the card network returns the money if the cardholder wins. Respond to the dispute at your payment processor instead; once it is won, a refund is possible again.`
              : `Charge ${error.chargeId} lost its dispute, so it cannot be refunded: the card network already returned the disputed amount to the cardholder, and a refund would pay them twice.`
        })
      )
    case "ChargePending":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "charge_pending",
          message: `Charge ${error.chargeId} is still pending at the payment processor, so it cannot be updated yet; update it once it has succeeded or failed.`
        })
      )
    case "ChargeMetadataInvalid":
      return Effect.fail(ApiError.fromParseError(error.error))
    case "ChargeContended":
      return Effect.fail(
        new ApiError.ServiceUnavailableError({
          message: `Charge ${error.chargeId} is being updated by other requests at the same time; retry.`
        })
      )
    case "RefundNotPossible":
      return Effect.fail(
        new ApiError.InvalidRequestError(
          error.param === undefined
            ? { code: error.code, message: error.message }
            : { code: error.code, message: error.message, param: error.param }
        )
      )
    case "RefundExceedsCharge":
      // The store refused it: another refund got there first.
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "amount_too_large",
          message: `The refund is more than what is left to refund of charge ${error.chargeId}.`,
          param: "amount"
        })
      )
    case "RefundContended":
      return Effect.fail(
        new ApiError.ServiceUnavailableError({
          message: `Charge ${error.chargeId} is being refunded by other requests at the same time; retry.`
        })
      )
    case "RefundFailed":
      return Effect.fail(refundFailed(error.refund))
    case "RulesetVersionUnknown":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "parameter_invalid",
          param: "rulesetVersion",
          message: `Invalid rulesetVersion: ${RulesetVersions.unknownMessage(error.version)} See GET /v1/rulesets.`
        })
      )
    case "DefaultRegionNotCompliant":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: error.reasonCode ?? "fee_not_compliant",
          param: error.param,
          message: `The fee would not be compliant in ${error.region}: ${error.reason ?? "not allowed"}`
        })
      )
    case "FeeChangeAlreadyPending":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "fee_config_change_pending",
          message:
            "A change is already pending approval: approve or cancel it (POST /v1/fee-configs/pending/approve or /cancel) first; a stale one (pendingChange.stale) can only be cancelled."
        })
      )
    case "FeeConfigContended":
      return Effect.fail(
        new ApiError.IdempotencyError({
          code: "fee_config_contended",
          message: `The fee configuration changed ${error.attempts} times while this change was being decided; nothing was written. Retry the request.`
        })
      )
    case "FeeChangeStale":
      return Effect.fail(
        new ApiError.IdempotencyError({
          code: "fee_config_change_stale",
          param: "id",
          message: `The pending fee configuration change '${error.id}' was requested against a configuration that has changed since, so approving it would apply something nobody reviewed. Cancel it (POST /v1/fee-configs/pending/cancel) and request it again.`
        })
      )
    case "NoPendingFeeChange":
      return Effect.fail(
        error.id === undefined
          ? new ApiError.NotFoundError({ message: "No fee configuration change is pending." })
          : new ApiError.NotFoundError({
              message: `No pending fee configuration change '${error.id}': it was approved, cancelled or replaced. Read the pending change (GET /v1/fee-configs) and approve it by its id.`,
              param: "id"
            })
      )
    case "ApproverIsRequester":
      return Effect.fail(
        new ApiError.PermissionError({
          code: "approval_requires_another_key",
          message:
            "A pending change must be approved with a different secret key than the one that requested it."
        })
      )
    case "WebhookEndpointNotFound":
      return Effect.fail(ApiError.noSuch("webhook endpoint", error.id))
    case "WebhookUrlRefused":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "url_invalid",
          param: "url",
          message: error.message
        })
      )
    case "WebhookEndpointLimitReached":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "webhook_endpoint_limit_reached",
          message: `This account already has ${error.limit} webhook endpoints in ${error.livemode ? "live" : "test"} mode, the most allowed (disabled endpoints count too). Delete one you no longer need (DELETE /v1/webhook-endpoints/{id}), or point an existing endpoint at the new URL (POST /v1/webhook-endpoints/{id} with url and enabledEvents) instead of adding one.`
        })
      )
    case "CredentialsInvalid":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: error.code,
          message: error.message,
          param: error.param
        })
      )
    case "CredentialsRefused":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "processor_credentials_refused",
          message: Connect.explain(error),
          param: error.setting ?? "credentials"
        })
      )
    case "ProcessorUnreachable":
      return Effect.fail(
        new ApiError.ServiceUnavailableError({
          code: "processor_unavailable",
          message: Connect.explain(error)
        })
      )
    case "ProcessorConfigNotFound":
      return Effect.fail(
        new ApiError.NotFoundError({
          code: "processor_not_configured",
          message:
            error.pending === undefined
              ? `No payment processor is configured for this account in ${error.tenant.livemode ? "live" : "test"} mode. Save one with POST /v1/processor-config {"processor": "stripe" | "adyen", "credentials": {…}}, \`levy processors set\`, or the dashboard's Payment processor page (docs/processors.md).`
              : `No payment processor is in force for this account in ${error.tenant.livemode ? "live" : "test"} mode: a change to ${error.pending.action} ${error.pending.processor} ('${error.pending.id}') is held until another secret key approves it (GET /v1/processor-config/pending shows it; POST /v1/processor-config/pending/approve {"id": "${error.pending.id}"} with another key, or \`levy processors approve ${error.pending.id}\`, applies it).`
        })
      )
    case "ProcessorChangeAlreadyPending":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "processor_config_change_pending",
          message:
            "A processor configuration change is already held for approval: approve or cancel it (POST /v1/processor-config/pending/approve or /cancel) first; a stale one (pendingChange.stale) can only be cancelled."
        })
      )
    case "ProcessorConfigContended":
      return Effect.fail(
        new ApiError.IdempotencyError({
          code: "processor_config_contended",
          message: `The processor configuration changed ${error.attempts} times while this change was being held; nothing was written. Retry the request.`
        })
      )
    case "ProcessorChangeStale":
      return Effect.fail(
        new ApiError.IdempotencyError({
          code: "processor_config_change_stale",
          param: "id",
          message: `The held processor configuration change '${error.id}' was requested against a configuration that is no longer in force, so approving it would apply something nobody reviewed. Cancel it (POST /v1/processor-config/pending/cancel) and request it again.`
        })
      )
    case "NoPendingProcessorChange":
      return Effect.fail(
        error.id === undefined
          ? new ApiError.NotFoundError({
              message: "No processor configuration change is held for approval."
            })
          : new ApiError.NotFoundError({
              message: `No held processor configuration change '${error.id}': it was approved, cancelled or replaced. Read the held change (GET /v1/processor-config/pending) and approve it by its id.`,
              param: "id"
            })
      )
    case "CursorNotFound": {
      const param = CURSOR_PARAM[error.param]
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "resource_missing",
          param,
          message: `No such object for ${param}: '${error.id}'`
        })
      )
    }
    case "CursorsConflict":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          param: "ending_before",
          message: "Use starting_after or ending_before, not both."
        })
      )
    case "RefundNotFound":
      return Effect.fail(OtherMode.notFound(error.tenant, "refund", error.id, error.inOtherMode))
    case "DisputeNotFound":
      return Effect.fail(OtherMode.notFound(error.tenant, "dispute", error.id, error.inOtherMode))
    case "EventNotFound":
      return Effect.fail(OtherMode.notFound(error.tenant, "event", error.id, error.inOtherMode))
    case "EndpointNotSubscribed":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "resource_missing",
          param: "endpoint",
          message: `No enabled webhook endpoint '${error.endpoint}' subscribed to ${error.eventType} in this account and mode.`
        })
      )
    case "EndpointsChanged":
      return Effect.fail(
        new ApiError.ServiceUnavailableError({
          message: "The webhook endpoints changed during the request; retry."
        })
      )
    case "ApiKeyNotFound":
      return Effect.fail(ApiError.noSuch("API key", error.id))
    case "KeyRevokesItself":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "key_in_use",
          param: "id",
          message:
            "A key cannot revoke itself: revoke it with another secret key of the account, or with levy keys revoke."
        })
      )
    case "RegionNotFound":
      return Effect.fail(ApiError.noSuch("region", error.code, "code"))
    case "RulesetNotFound":
      return Effect.fail(
        new ApiError.NotFoundError({
          message: RulesetVersions.unknownMessage(error.version),
          param: "version"
        })
      )
    default:
      return Effect.fail(error)
  }
}

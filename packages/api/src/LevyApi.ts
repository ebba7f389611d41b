/**
 * The `/v1` HTTP API: every endpoint with its path, parameters, body, success and error
 * responses. The server serves it (its edge decodes and encodes with these schemas), the client derives from it with
 * HttpApiClient, and the OpenAPI 3.1 document comes from `OpenApi.fromApi(LevyApi)`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Schema } from "effect"
import {
  ApiErrorWire,
  CardErrorWire,
  IdempotencyErrorWire,
  InvalidRequestErrorWire,
  NotFoundErrorWire,
  PayloadTooLargeErrorWire,
  RateLimitErrorWire,
  ServiceUnavailableErrorWire
} from "./ApiError.js"
import { ApiKey } from "./ApiKey.js"
import { Authorization, PublishableKeyAllowed } from "./Authorization.js"
import { Charge } from "./Charge.js"
import { ChargeCreate } from "./ChargeCreate.js"
import { ChargeUpdate } from "./ChargeUpdate.js"
import { CheckComplianceRequest } from "./CheckComplianceRequest.js"
import { ComplianceCheckResult } from "./ComplianceCheckResult.js"
import { Dispute } from "./Dispute.js"
import { Estimate } from "./Estimate.js"
import { EstimateRequest } from "./EstimateRequest.js"
import { Event } from "./Event.js"
import { EventResend } from "./EventResend.js"
import { FeeConfig } from "./FeeConfig.js"
import { FeeConfigApprove } from "./FeeConfigApprove.js"
import { FeeConfigUpdate } from "./FeeConfigUpdate.js"
import { API_VERSION, PostHeaders } from "./Headers.js"
import { List } from "./List.js"
import {
  ChargeListParams,
  DisputeListParams,
  EventListParams,
  ListParams,
  RefundListParams,
  RegionListParams,
  RegionParams
} from "./ListParams.js"
import * as OpenApiDocument from "./OpenApiDocument.js"
import {
  DeletedProcessorConfig,
  ProcessorConfig,
  ProcessorConfigChange
} from "./ProcessorConfig.js"
import { ProcessorConfigApprove } from "./ProcessorConfigApprove.js"
import { ProcessorConfigCreate } from "./ProcessorConfigCreate.js"
import { Refund } from "./Refund.js"
import { RefundCreate } from "./RefundCreate.js"
import { Region } from "./Region.js"
import { RulesetVersion, VersionPath } from "./RulesetVersion.js"
import { WebhookDelivery } from "./WebhookDelivery.js"
import { DeletedWebhookEndpoint, WebhookEndpoint } from "./WebhookEndpoint.js"
import { WebhookEndpointCreate } from "./WebhookEndpointCreate.js"
import { WebhookEndpointUpdate } from "./WebhookEndpointUpdate.js"

/** `{id}` in a path: any id; an unknown or ill-formed one is a 404, not a 400. */
export const IdPath = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255))
})

/** `{code}` in a region path. */
export const CodePath = Schema.Struct({
  code: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))
})

const docs = (summary: string, description?: string) =>
  OpenApi.annotations(description === undefined ? { summary } : { summary, description })

/** A GET endpoint: may fail with 400 for bad query parameters. */
const read = <const Name extends string>(
  name: Name,
  path: HttpApiEndpoint.PathSegment,
  summary: string,
  description?: string
) =>
  HttpApiEndpoint.get(name, path)
    .addError(InvalidRequestErrorWire)
    .annotateContext(docs(summary, description))

/** A POST endpoint: takes an Idempotency-Key; 400 for bad input, 409 while the same key is in flight. */
const write = <const Name extends string>(
  name: Name,
  path: HttpApiEndpoint.PathSegment,
  summary: string,
  description?: string
) =>
  HttpApiEndpoint.post(name, path)
    .setHeaders(PostHeaders)
    .addError(InvalidRequestErrorWire)
    .addError(IdempotencyErrorWire)
    .annotateContext(docs(summary, description))

// ---- groups ----------------------------------------------------------------

/** Fee estimates. */
export class EstimatesGroup extends HttpApiGroup.make("estimates").add(
  write(
    "create",
    "/v1/estimates",
    "Estimate a fee",
    "Calculates the fee without creating a charge."
  )
    .setPayload(EstimateRequest)
    .addSuccess(Estimate)
    .addError(PayloadTooLargeErrorWire)
    .annotate(PublishableKeyAllowed, true)
) {}

/** Charges. */
export class ChargesGroup extends HttpApiGroup.make("charges")
  .add(
    write(
      "create",
      "/v1/charges",
      "Create a charge",
      "Charges amount + a compliant fee. A declined card is a 402 card_error; the failed charge is stored."
    )
      .setPayload(ChargeCreate)
      .addSuccess(Charge)
      .addError(CardErrorWire)
      .addError(PayloadTooLargeErrorWire)
  )
  .add(
    read("retrieve", "/v1/charges/:id", "Retrieve a charge")
      .setPath(IdPath)
      .addSuccess(Charge)
      .addError(NotFoundErrorWire)
  )
  .add(
    write(
      "update",
      "/v1/charges/:id",
      "Update a charge",
      'Changes the description and metadata (keys merged; a key set to "" is removed). A pending charge cannot be updated. No event is emitted: the answer is the updated charge.'
    )
      .setPath(IdPath)
      .setPayload(ChargeUpdate)
      .addSuccess(Charge)
      .addError(NotFoundErrorWire)
      .addError(PayloadTooLargeErrorWire)
  )
  .add(
    read("list", "/v1/charges", "List charges, newest first")
      .setUrlParams(ChargeListParams)
      .addSuccess(List(Charge, "ChargeList"))
  ) {}

/** Refunds. */
export class RefundsGroup extends HttpApiGroup.make("refunds")
  .add(
    write(
      "create",
      "/v1/refunds",
      "Refund a charge",
      "Refunds part or all of a charge; the fee goes back pro rata unless refundFee says otherwise."
    )
      .setPayload(RefundCreate)
      .addSuccess(Refund)
      .addError(NotFoundErrorWire)
      .addError(PayloadTooLargeErrorWire)
  )
  .add(
    read("retrieve", "/v1/refunds/:id", "Retrieve a refund")
      .setPath(IdPath)
      .addSuccess(Refund)
      .addError(NotFoundErrorWire)
  )
  .add(
    read("list", "/v1/refunds", "List refunds, newest first")
      .setUrlParams(RefundListParams)
      .addSuccess(List(Refund, "RefundList"))
  ) {}

/** Disputes. */
export class DisputesGroup extends HttpApiGroup.make("disputes")
  .add(
    read("retrieve", "/v1/disputes/:id", "Retrieve a dispute")
      .setPath(IdPath)
      .addSuccess(Dispute)
      .addError(NotFoundErrorWire)
  )
  .add(
    read("list", "/v1/disputes", "List disputes, newest first")
      .setUrlParams(DisputeListParams)
      .addSuccess(List(Dispute, "DisputeList"))
  ) {}

/** The fee configuration and its approval workflow. */
export class FeeConfigsGroup extends HttpApiGroup.make("feeConfigs")
  .add(read("retrieve", "/v1/fee-configs", "Retrieve the fee configuration").addSuccess(FeeConfig))
  .add(
    write(
      "update",
      "/v1/fee-configs",
      "Update the fee configuration",
      "Test mode applies at once (updated: true). In live mode a change that raises the fee is held for approval (updated: false, pendingChange). A change not compliant in defaultRegion is a 400."
    )
      .setPayload(FeeConfigUpdate)
      .addSuccess(FeeConfig)
      .addError(PayloadTooLargeErrorWire)
  )
  .add(
    write(
      "approvePending",
      "/v1/fee-configs/pending/approve",
      "Approve the pending change",
      "Names the change approved ({id: pendingChange.id}); needs a secret key other than the one that requested it (else 403). 404 when that change is not the pending one."
    )
      .setPayload(FeeConfigApprove)
      .addSuccess(FeeConfig)
      .addError(NotFoundErrorWire)
      .addError(PayloadTooLargeErrorWire)
  )
  .add(
    write(
      "cancelPending",
      "/v1/fee-configs/pending/cancel",
      "Cancel the pending change",
      "404 when nothing is pending."
    )
      .addSuccess(FeeConfig)
      .addError(NotFoundErrorWire)
  ) {}

/** Regional compliance rules. */
export class RegionsGroup extends HttpApiGroup.make("regions")
  .add(
    read("list", "/v1/regions", "List regions (places only)")
      .setUrlParams(RegionListParams)
      .addSuccess(List(Region, "RegionList"))
  )
  .add(
    read("retrieve", "/v1/regions/:code", "Retrieve a region's rules")
      .setPath(CodePath)
      .setUrlParams(RegionParams)
      .addSuccess(Region)
      .addError(NotFoundErrorWire)
      .annotate(PublishableKeyAllowed, true)
  )
  .add(
    write(
      "checkCompliance",
      "/v1/regions/check-compliance",
      "Check whether a fee is compliant",
      "Answers compliant: false with a reasonCode and reason when fees are forbidden or over a limit."
    )
      .setPayload(CheckComplianceRequest)
      .addSuccess(ComplianceCheckResult)
      .addError(PayloadTooLargeErrorWire)
      .annotate(PublishableKeyAllowed, true)
  ) {}

/** The released versions of the ruleset (docs/design.md §3). */
export class RulesetsGroup extends HttpApiGroup.make("rulesets")
  .add(
    read("list", "/v1/rulesets", "List the ruleset's versions, oldest first").addSuccess(
      List(RulesetVersion, "RulesetList")
    )
  )
  .add(
    read("retrieve", "/v1/rulesets/:version", "Retrieve a ruleset version")
      .setPath(VersionPath)
      .addSuccess(RulesetVersion)
      .addError(NotFoundErrorWire)
  ) {}

/** Events. */
export class EventsGroup extends HttpApiGroup.make("events")
  .add(
    read("list", "/v1/events", "List events, newest first")
      .setUrlParams(EventListParams)
      .addSuccess(List(Event, "EventList"))
  )
  .add(
    read("retrieve", "/v1/events/:id", "Retrieve an event")
      .setPath(IdPath)
      .addSuccess(Event)
      .addError(NotFoundErrorWire)
  )
  .add(
    write(
      "resend",
      "/v1/events/:id/resend",
      "Resend an event",
      "Delivers the event again to every enabled endpoint subscribed to its type, or with {endpoint} to that one."
    )
      .setPath(IdPath)
      .setPayload(EventResend)
      .addError(PayloadTooLargeErrorWire)
      .addSuccess(Event)
      .addError(NotFoundErrorWire)
  ) {}

/** Webhook endpoints and their deliveries. */
export class WebhookEndpointsGroup extends HttpApiGroup.make("webhookEndpoints")
  .add(
    write(
      "create",
      "/v1/webhook-endpoints",
      "Create a webhook endpoint",
      "The response carries the signing secret, once."
    )
      .setPayload(WebhookEndpointCreate)
      .addSuccess(WebhookEndpoint)
      .addError(PayloadTooLargeErrorWire)
  )
  .add(
    read("list", "/v1/webhook-endpoints", "List webhook endpoints")
      .setUrlParams(ListParams)
      .addSuccess(List(WebhookEndpoint, "WebhookEndpointList"))
  )
  .add(
    read("retrieve", "/v1/webhook-endpoints/:id", "Retrieve a webhook endpoint")
      .setPath(IdPath)
      .addSuccess(WebhookEndpoint)
      .addError(NotFoundErrorWire)
  )
  .add(
    write("update", "/v1/webhook-endpoints/:id", "Update a webhook endpoint")
      .setPath(IdPath)
      .setPayload(WebhookEndpointUpdate)
      .addSuccess(WebhookEndpoint)
      .addError(NotFoundErrorWire)
      .addError(PayloadTooLargeErrorWire)
  )
  .add(
    HttpApiEndpoint.del("delete", "/v1/webhook-endpoints/:id")
      .setPath(IdPath)
      .addSuccess(DeletedWebhookEndpoint)
      .addError(InvalidRequestErrorWire)
      .addError(NotFoundErrorWire)
      .annotateContext(docs("Delete a webhook endpoint"))
  )
  .add(
    write(
      "rollSecret",
      "/v1/webhook-endpoints/:id/roll-secret",
      "Roll the signing secret",
      "Returns the endpoint with its new secret, once. Deliveries carry a v1= signature for each secret while the old one expires."
    )
      .setPath(IdPath)
      .addSuccess(WebhookEndpoint)
      .addError(NotFoundErrorWire)
  )
  .add(
    read(
      "listDeliveries",
      "/v1/webhook-endpoints/:id/deliveries",
      "List an endpoint's deliveries, newest first"
    )
      .setPath(IdPath)
      .setUrlParams(ListParams)
      .addSuccess(List(WebhookDelivery, "WebhookDeliveryList"))
      .addError(NotFoundErrorWire)
  ) {}

/** The account's API keys in the key's mode: listed and revoked (never shown). */
export class KeysGroup extends HttpApiGroup.make("keys")
  .add(
    read("list", "/v1/keys", "List the API keys of this account and mode, newest first")
      .setUrlParams(ListParams)
      .addSuccess(List(ApiKey, "ApiKeyList"))
  )
  .add(
    write(
      "revoke",
      "/v1/keys/:id/revoke",
      "Revoke an API key",
      "From its next request the key is refused (401). A key of another account or mode is a 404; the key making the request cannot revoke itself (400)."
    )
      .setPath(IdPath)
      .addSuccess(ApiKey)
      .addError(NotFoundErrorWire)
  ) {}

/**
 * The payment processor of the key's account and mode: saved (checked with the processor
 * first), shown masked, removed. Secret keys only, like every endpoint that is not a
 * publishable key's. In live mode a save or delete decides where the money goes, so it is
 * held until another secret key approves it (docs/design.md §4).
 */
export class ProcessorConfigGroup extends HttpApiGroup.make("processorConfig")
  .add(
    write(
      "create",
      "/v1/processor-config",
      "Save the payment processor",
      "Creates or replaces the processor configuration of this account and mode. The credentials are checked with one read-only call to the processor first: a refusal is a 400 processor_credentials_refused with the processor's reason, an unreachable processor a 503; nothing is saved then. Test mode applies at once. In live mode the change is held until another secret key approves it: the answer is the configuration requested with applied: false and pendingChange (a 400 processor_config_change_pending while another is held). The response shows the credentials masked, never in full."
    )
      .setPayload(ProcessorConfigCreate)
      .addSuccess(ProcessorConfig)
      .addError(PayloadTooLargeErrorWire)
  )
  .add(
    read(
      "retrieve",
      "/v1/processor-config",
      "Retrieve the payment processor",
      "The configuration in force, with pendingChange when a live-mode change is held. 404 when none is in force (its message names a held change, if any: GET /v1/processor-config/pending)."
    )
      .addSuccess(ProcessorConfig)
      .addError(NotFoundErrorWire)
  )
  .add(
    HttpApiEndpoint.del("delete", "/v1/processor-config")
      .addSuccess(DeletedProcessorConfig)
      .addError(InvalidRequestErrorWire)
      .addError(IdempotencyErrorWire)
      .addError(NotFoundErrorWire)
      .annotateContext(
        docs(
          "Delete the payment processor",
          "Live charges are refused (processor_not_configured) until another is saved; test mode falls back to the simulator. In live mode the deletion is held until another secret key approves it (deleted: false, pendingChange). 404 when none is configured."
        )
      )
  )
  .add(
    read(
      "retrievePending",
      "/v1/processor-config/pending",
      "Retrieve the held change",
      "The live-mode change held for approval, its credentials masked. 404 when none is held."
    )
      .addSuccess(ProcessorConfigChange)
      .addError(NotFoundErrorWire)
  )
  .add(
    write(
      "approvePending",
      "/v1/processor-config/pending/approve",
      "Approve the held change",
      "Names the change approved ({id: pendingChange.id}) and applies it (status: applied, with a processor_config.updated or processor_config.deleted event). Needs a secret key other than the one that requested it (else 403 approval_requires_another_key); 404 when that change is not the one held; 409 processor_config_change_stale when the configuration changed since it was requested."
    )
      .setPayload(ProcessorConfigApprove)
      .addSuccess(ProcessorConfigChange)
      .addError(NotFoundErrorWire)
      .addError(PayloadTooLargeErrorWire)
  )
  .add(
    write(
      "cancelPending",
      "/v1/processor-config/pending/cancel",
      "Cancel the held change",
      "Drops it (status: cancelled). 404 when nothing is held."
    )
      .addSuccess(ProcessorConfigChange)
      .addError(NotFoundErrorWire)
  ) {}

/** The Levy `/v1` API. */
export class LevyApi extends HttpApi.make("levy")
  .add(EstimatesGroup)
  .add(ChargesGroup)
  .add(RefundsGroup)
  .add(DisputesGroup)
  .add(FeeConfigsGroup)
  .add(RegionsGroup)
  .add(RulesetsGroup)
  .add(EventsGroup)
  .add(WebhookEndpointsGroup)
  .add(KeysGroup)
  .add(ProcessorConfigGroup)
  .addError(RateLimitErrorWire)
  .addError(ApiErrorWire)
  .addError(ServiceUnavailableErrorWire)
  .middleware(Authorization)
  .annotateContext(
    OpenApi.annotations({
      title: "Levy API",
      version: API_VERSION,
      description:
        "Convenience-fee engine: estimates, charges, refunds, disputes, fee configuration, regional compliance, events and webhooks, the payment processor. Amounts are integers in the currency's minor unit; timestamps are Unix seconds. Every error has the body {error: {type, code, message, param?}}.",
      transform: OpenApiDocument.transform
    })
  ) {}

/** The operations publishable keys may call (docs/design.md §5), as `METHOD /path/:param`. */
export const publishableOperations = (): ReadonlyArray<string> => {
  const found: Array<string> = []
  HttpApi.reflect(LevyApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      if (Context.get(mergedAnnotations, PublishableKeyAllowed)) {
        found.push(`${endpoint.method} ${endpoint.path}`)
      }
    }
  })
  return found
}

const publishableRoutes: ReadonlyArray<{ readonly method: string; readonly pattern: RegExp }> =
  publishableOperations().map((operation) => {
    const [method = "", path = ""] = operation.split(" ")
    const pattern = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")
    return { method, pattern: new RegExp(`^${pattern}$`) }
  })

/**
 * Whether a publishable key may make this request (docs/design.md §5): for the Authorization
 * middleware, which sees the request but not the endpoint. Anything else needs a secret key.
 */
export const allowsPublishableKey = (method: string, pathname: string): boolean =>
  publishableRoutes.some((r) => r.method === method.toUpperCase() && r.pattern.test(pathname))

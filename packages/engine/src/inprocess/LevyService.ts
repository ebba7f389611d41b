/**
 * Levy in-process (docs/embedding.md "Levy in-process, no HTTP"): every operation the `/v1`
 * API serves, through the same workflows — estimates, charges, refunds, disputes, the fee
 * configuration, regions and rulesets, events, webhook endpoints and their deliveries, keys,
 * the processor configuration — as a service a checkout backend calls with a store and no
 * HTTP server. Lists page as the API's do (`limit` 1 to 100, one cursor naming an item of the
 * list: `CursorNotFound` otherwise, naming `startingAfter` or `endingBefore`). Each call takes the tenant (an
 * account and its mode) and answers the wire's typed result or the workflow's own error
 * (`ChargeFailed`, `FeeError`, `StorageError`, …), never an HTTP status. Inputs are checked
 * against the API's schemas (`InvalidInput`), and writes under an `idempotencyKey` keep
 * docs/design.md §7: the first result is stored with the write and replayed for the same
 * input, the same key with another input is `IdempotencyKeyReused`, and one still running is
 * `IdempotencyKeyInUse` — in the same records and key space as the HTTP API's keys, and
 * fingerprinted as the API fingerprints a request (Fingerprint.ts): one key used over HTTP and
 * in-process is one request.
 *
 * `LevyService.layer` runs, besides the service, what the API's server runs beside its
 * handlers (ApiServices.ts): the processors (configured, else the simulator in test mode),
 * the ruleset, webhook delivery and the recovery of pending charges in the background.
 */
import {
  ApiKey as ApiKeyWire,
  Charge,
  ChargeCreate,
  ChargeUpdate,
  CheckComplianceRequest,
  type ComplianceCheckResult,
  type Dispute,
  type Estimate,
  EstimateRequest,
  Event,
  EventResend,
  FeeConfig,
  FeeConfigApprove,
  FeeConfigUpdate,
  ProcessorConfig,
  ProcessorConfigApprove,
  ProcessorConfigCreate,
  Refund,
  RefundCreate,
  type Region,
  type RulesetVersion,
  type WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate
} from "@levy/api"
import type { ComplianceRules, FeeError } from "@levy/core"
import {
  type AccountRepository,
  type ChargeRepository,
  type EventRepository,
  type FeeConfigRepository,
  type IdempotencyKeyInUse,
  type IdempotencyKeyReused,
  type IdempotencyRepository,
  type Ids,
  type Json,
  type Page,
  type ProcessorConfigRepository,
  type Signer,
  type Storage,
  type StorageError,
  type StoredResponse,
  Tenant,
  type Transactions,
  type WebhookDeliveryRepository,
  type WebhookEndpointRepository
} from "@levy/storage"
import { type ConfigError, Context, Effect, Layer, Option, Schema } from "effect"
import * as Accounts from "../access/Accounts.js"
import { listKeys } from "../access/listKeys.js"
import { type RevokeKeyError, revokeKey } from "../access/revokeKey.js"
import type { ChargeNotFound } from "../charges/ChargeErrors.js"
import * as ChargeWire from "../charges/ChargeWire.js"
import { type CreateChargeError, createCharge } from "../charges/createCharge.js"
import { ChargeListRequest, listCharges } from "../charges/listCharges.js"
import * as TenantCharge from "../charges/TenantCharge.js"
import { type UpdateChargeError, updateCharge } from "../charges/updateCharge.js"
import { DisputeListRequest, listDisputes } from "../disputes/listDisputes.js"
import { type RetrieveDisputeError, retrieveDispute } from "../disputes/retrieveDispute.js"
import * as EngineServices from "../EngineServices.js"
import { createEstimate } from "../estimates/createEstimate.js"
import type { FeeNotCompliant } from "../estimates/PaymentErrors.js"
import type { DescribeError } from "../estimates/Quoting.js"
import { EventListRequest, listEvents } from "../events/listEvents.js"
import { type ResendEventError, resendEvent } from "../events/resendEvent.js"
import { type RetrieveEventError, retrieveEvent } from "../events/retrieveEvent.js"
import { type ApproveFeeChangeError, approveFeeChange } from "../feeConfigs/approveFeeChange.js"
import { type CancelFeeChangeError, cancelFeeChange } from "../feeConfigs/cancelFeeChange.js"
import { retrieveFeeConfig } from "../feeConfigs/retrieveFeeConfig.js"
import { type UpdateFeeConfigError, updateFeeConfig } from "../feeConfigs/updateFeeConfig.js"
import type { Claim } from "../idempotency/Claim.js"
import * as Fingerprint from "../idempotency/Fingerprint.js"
import * as IdempotencyKey from "../idempotency/IdempotencyKey.js"
import * as Keyed from "../idempotency/Keyed.js"
import * as Written from "../idempotency/Written.js"
import * as ListRequest from "../lists/ListRequest.js"
import type { PageError } from "../lists/Paging.js"
import {
  type ApproveProcessorChangeError,
  approveProcessorChange
} from "../processorConfigs/approveProcessorChange.js"
import {
  type CancelProcessorChangeError,
  cancelProcessorChange
} from "../processorConfigs/cancelProcessorChange.js"
import {
  type DeleteProcessorConfigError,
  deleteProcessorConfig
} from "../processorConfigs/deleteProcessorConfig.js"
import type { NoPendingProcessorChange } from "../processorConfigs/ProcessorChangeErrors.js"
import type { ProcessorConfigNotFound } from "../processorConfigs/ProcessorConfigErrors.js"
import {
  retrievePendingProcessorChange,
  retrieveProcessorConfig
} from "../processorConfigs/retrieveProcessorConfig.js"
import {
  type SaveProcessorConfigError,
  saveProcessorConfig
} from "../processorConfigs/saveProcessorConfig.js"
import * as ApiBaseUrls from "../processors/ApiBaseUrls.js"
import type { PaymentProcessors } from "../processors/PaymentProcessors.js"
import { type CreateRefundError, createRefund } from "../refunds/createRefund.js"
import { listRefunds, RefundListRequest } from "../refunds/listRefunds.js"
import { type RetrieveRefundError, retrieveRefund } from "../refunds/retrieveRefund.js"
import { type CheckComplianceError, checkCompliance } from "../regions/checkCompliance.js"
import { listRegions, RegionListRequest } from "../regions/listRegions.js"
import type { RegionNotFound } from "../regions/RegionNotFound.js"
import { RegionRequest, retrieveRegion } from "../regions/retrieveRegion.js"
import { listRulesets } from "../rulesets/listRulesets.js"
import type { RulesetNotFound } from "../rulesets/RulesetNotFound.js"
import { retrieveRuleset } from "../rulesets/retrieveRuleset.js"
import * as Store from "../Store.js"
import { isStored, type WorkflowError } from "../WorkflowError.js"
import type { DispatcherConfig } from "../webhookDeliveries/DispatcherConfig.js"
import * as DispatcherLayer from "../webhookDeliveries/DispatcherLayer.js"
import {
  type CreateWebhookEndpointError,
  createWebhookEndpoint
} from "../webhookEndpoints/createWebhookEndpoint.js"
import {
  type DeleteWebhookEndpointError,
  deleteWebhookEndpoint
} from "../webhookEndpoints/deleteWebhookEndpoint.js"
import { listWebhookDeliveries } from "../webhookEndpoints/listWebhookDeliveries.js"
import { listWebhookEndpoints } from "../webhookEndpoints/listWebhookEndpoints.js"
import { retrieveWebhookEndpoint } from "../webhookEndpoints/retrieveWebhookEndpoint.js"
import {
  type RollWebhookSecretError,
  rollWebhookSecret
} from "../webhookEndpoints/rollWebhookSecret.js"
import {
  type UpdateWebhookEndpointError,
  updateWebhookEndpoint
} from "../webhookEndpoints/updateWebhookEndpoint.js"
import type { WebhookEndpointNotFound } from "../webhookEndpoints/WebhookEndpointErrors.js"
import * as InvalidInput from "./InvalidInput.js"
import * as Replays from "./Replays.js"

export { DeadlineExceeded } from "../idempotency/Keyed.js"
export { CursorNotFound, CursorsConflict } from "../lists/ListErrors.js"
export { InvalidInput } from "./InvalidInput.js"

/** Options of a write. */
export interface WriteOptions {
  /** Stripe-style idempotency key: the same input under it is made once, its result replayed. */
  readonly idempotencyKey?: string | undefined
}

/** Options of a change to the fee or processor configuration. */
export interface ActingOptions extends WriteOptions {
  /**
   * Who acts, as your app names them (a user's id): a change held for approval must be
   * approved by someone else. Default `"in-process"`.
   */
  readonly by?: string | undefined
}

/** Options of an approval: who approves, never whoever requested the change. */
export interface ApproveOptions extends WriteOptions {
  readonly by: string
}

/** Who acts when a fee configuration call does not say. */
const IN_PROCESS = "in-process"

/** Options of a key's revocation. */
export interface RevokeOptions extends WriteOptions {
  /** The key making the request, if a key makes it: a key cannot revoke itself. */
  readonly acting?: string | undefined
}

export type { ChargeListRequest } from "../charges/listCharges.js"
export type { DisputeListRequest } from "../disputes/listDisputes.js"
export type { EventListRequest } from "../events/listEvents.js"
export type { ListRequest } from "../lists/ListRequest.js"
export type { RefundListRequest } from "../refunds/listRefunds.js"
export type { RegionListRequest } from "../regions/listRegions.js"
export type { RegionRequest } from "../regions/retrieveRegion.js"

/** Failures of a list, beside the store's: a request the API would refuse, a cursor of nothing. */
export type ListError = InvalidInput.InvalidInput | PageError

/** Failures of a write under a key, beside the workflow's own. */
export type KeyedError =
  | InvalidInput.InvalidInput
  | IdempotencyKeyInUse
  | IdempotencyKeyReused
  | Keyed.DeadlineExceeded
  | StorageError

/** Every failure a call of the service may end with. */
export type ServiceError = WorkflowError | KeyedError | FeeError

/** The service. */
export interface Service {
  readonly accounts: {
    /** A new account with its four API keys (returned once), for the HTTP API or the dashboard. */
    readonly create: (name: string) => Effect.Effect<Accounts.Created, StorageError>
  }
  readonly estimates: {
    readonly create: (
      tenant: Tenant.Tenant,
      input: EstimateRequest.EstimateRequest
    ) => Effect.Effect<
      Estimate.Estimate,
      InvalidInput.InvalidInput | FeeError | FeeNotCompliant | DescribeError
    >
  }
  readonly charges: {
    readonly create: (
      tenant: Tenant.Tenant,
      input: ChargeCreate.ChargeCreate,
      options?: WriteOptions
    ) => Effect.Effect<Charge.Charge, CreateChargeError | KeyedError>
    readonly retrieve: (
      tenant: Tenant.Tenant,
      id: string
    ) => Effect.Effect<Charge.Charge, ChargeNotFound | StorageError>
    /** A new description, metadata keys merged (a key set to "" is removed). */
    readonly update: (
      tenant: Tenant.Tenant,
      id: string,
      input: ChargeUpdate.ChargeUpdate,
      options?: WriteOptions
    ) => Effect.Effect<Charge.Charge, UpdateChargeError | KeyedError>
    /** Newest first; `customer` for one customer's. */
    readonly list: (
      tenant: Tenant.Tenant,
      request?: ChargeListRequest
    ) => Effect.Effect<Page.Page<Charge.Charge>, ListError>
  }
  readonly refunds: {
    readonly create: (
      tenant: Tenant.Tenant,
      input: RefundCreate.RefundCreate,
      options?: WriteOptions
    ) => Effect.Effect<Refund.Refund, CreateRefundError | KeyedError>
    readonly retrieve: (
      tenant: Tenant.Tenant,
      id: string
    ) => Effect.Effect<Refund.Refund, RetrieveRefundError>
    /** Newest first; `charge` for one charge's. */
    readonly list: (
      tenant: Tenant.Tenant,
      request?: RefundListRequest
    ) => Effect.Effect<Page.Page<Refund.Refund>, ListError>
  }
  /** Disputes, opened by the processor (in test mode `tok_chargeDispute`), never by a call. */
  readonly disputes: {
    readonly retrieve: (
      tenant: Tenant.Tenant,
      id: string
    ) => Effect.Effect<Dispute.Dispute, RetrieveDisputeError>
    /** Newest first; `charge` and `status` filter. */
    readonly list: (
      tenant: Tenant.Tenant,
      request?: DisputeListRequest
    ) => Effect.Effect<Page.Page<Dispute.Dispute>, ListError>
  }
  readonly feeConfig: {
    /** The configuration in force (the defaults until one is stored) and any pending change. */
    readonly retrieve: (tenant: Tenant.Tenant) => Effect.Effect<FeeConfig.FeeConfig, StorageError>
    /** Applied at once (`updated: true`), or in live mode held for approval when it raises a fee. */
    readonly update: (
      tenant: Tenant.Tenant,
      input: FeeConfigUpdate.FeeConfigUpdate,
      options?: ActingOptions
    ) => Effect.Effect<FeeConfig.FeeConfig, UpdateFeeConfigError | KeyedError>
    /** Applies the held change `id` (`pendingChange.id`), approved by someone else than its requester. */
    readonly approve: (
      tenant: Tenant.Tenant,
      id: string,
      options: ApproveOptions
    ) => Effect.Effect<FeeConfig.FeeConfig, ApproveFeeChangeError | KeyedError>
    /** Drops the held change; the configuration in force. */
    readonly cancel: (
      tenant: Tenant.Tenant,
      options?: ActingOptions
    ) => Effect.Effect<FeeConfig.FeeConfig, CancelFeeChangeError | KeyedError>
  }
  /** The ruleset's places and the compliance check (docs/design.md §3). */
  readonly regions: {
    /** By code, one country's (`country`) or all, on `date` (ISO) when given. */
    readonly list: (
      request?: RegionListRequest
    ) => Effect.Effect<Page.Page<Region.Region>, InvalidInput.InvalidInput | PageError>
    readonly retrieve: (
      code: string,
      request?: RegionRequest
    ) => Effect.Effect<Region.Region, InvalidInput.InvalidInput | RegionNotFound>
    /** The verdict by the ruleset version the account pins; an unknown place is refused. */
    readonly checkCompliance: (
      tenant: Tenant.Tenant,
      input: CheckComplianceRequest.CheckComplianceRequest
    ) => Effect.Effect<
      ComplianceCheckResult.ComplianceCheckResult,
      InvalidInput.InvalidInput | CheckComplianceError
    >
  }
  /** The ruleset's released versions (docs/design.md §3). */
  readonly rulesets: {
    /** Oldest first. */
    readonly list: () => Effect.Effect<ReadonlyArray<RulesetVersion.RulesetVersion>>
    readonly retrieve: (
      version: string
    ) => Effect.Effect<RulesetVersion.RulesetVersion, RulesetNotFound>
  }
  /** The account's events (docs/design.md §8). */
  readonly events: {
    /** Newest first; `type` for one type's. */
    readonly list: (
      tenant: Tenant.Tenant,
      request?: EventListRequest
    ) => Effect.Effect<Page.Page<Event.Event>, ListError>
    readonly retrieve: (
      tenant: Tenant.Tenant,
      id: string
    ) => Effect.Effect<Event.Event, RetrieveEventError>
    /** Delivered again to every enabled endpoint subscribed to its type, or to `endpoint`. */
    readonly resend: (
      tenant: Tenant.Tenant,
      id: string,
      input?: EventResend.EventResend,
      options?: WriteOptions
    ) => Effect.Effect<Event.Event, ResendEventError | KeyedError>
  }
  /** The account's API keys in the tenant's mode (docs/design.md §5), never the keys themselves. */
  readonly keys: {
    /** Newest first. */
    readonly list: (
      tenant: Tenant.Tenant,
      request?: ListRequest.ListRequest
    ) => Effect.Effect<Page.Page<ApiKeyWire.ApiKey>, ListError>
    /** Refused from its next request. */
    readonly revoke: (
      tenant: Tenant.Tenant,
      id: string,
      options?: RevokeOptions
    ) => Effect.Effect<ApiKeyWire.ApiKey, RevokeKeyError | KeyedError>
  }
  readonly webhookEndpoints: {
    /** A new endpoint, with its signing secret (shown here only, and when rolled). */
    readonly create: (
      tenant: Tenant.Tenant,
      input: WebhookEndpointCreate.WebhookEndpointCreate,
      options?: WriteOptions
    ) => Effect.Effect<WebhookEndpoint.WebhookEndpoint, CreateWebhookEndpointError | KeyedError>
    readonly retrieve: (
      tenant: Tenant.Tenant,
      id: string
    ) => Effect.Effect<WebhookEndpoint.WebhookEndpoint, WebhookEndpointNotFound | StorageError>
    /** Newest first. */
    readonly list: (
      tenant: Tenant.Tenant,
      request?: ListRequest.ListRequest
    ) => Effect.Effect<Page.Page<WebhookEndpoint.WebhookEndpoint>, ListError>
    /** The endpoint's deliveries, newest first, each with its attempts. */
    readonly listDeliveries: (
      tenant: Tenant.Tenant,
      id: string,
      request?: ListRequest.ListRequest
    ) => Effect.Effect<
      Page.Page<WebhookDelivery.WebhookDelivery>,
      ListError | WebhookEndpointNotFound
    >
    readonly update: (
      tenant: Tenant.Tenant,
      id: string,
      input: WebhookEndpointUpdate.WebhookEndpointUpdate,
      options?: WriteOptions
    ) => Effect.Effect<WebhookEndpoint.WebhookEndpoint, UpdateWebhookEndpointError | KeyedError>
    readonly delete: (
      tenant: Tenant.Tenant,
      id: string,
      options?: WriteOptions
    ) => Effect.Effect<
      WebhookEndpoint.DeletedWebhookEndpoint,
      DeleteWebhookEndpointError | KeyedError
    >
    /** A new signing secret; the old one keeps signing beside it for 24 hours. */
    readonly rollSecret: (
      tenant: Tenant.Tenant,
      id: string,
      options?: WriteOptions
    ) => Effect.Effect<WebhookEndpoint.WebhookEndpoint, RollWebhookSecretError | KeyedError>
  }
  readonly processorConfig: {
    /**
     * Checked with the processor, then saved; answered with the credentials masked. In live
     * mode held until someone else approves it (`applied: false`, `pendingChange`).
     */
    readonly save: (
      tenant: Tenant.Tenant,
      input: ProcessorConfigCreate.ProcessorConfigCreate,
      options?: ActingOptions
    ) => Effect.Effect<ProcessorConfig.ProcessorConfig, SaveProcessorConfigError | KeyedError>
    /** The configuration in force, with `pendingChange` when a change is held. */
    readonly retrieve: (
      tenant: Tenant.Tenant
    ) => Effect.Effect<ProcessorConfig.ProcessorConfig, ProcessorConfigNotFound | StorageError>
    /** Removed; in live mode held until someone else approves it (`deleted: false`). */
    readonly delete: (
      tenant: Tenant.Tenant,
      options?: ActingOptions
    ) => Effect.Effect<
      ProcessorConfig.DeletedProcessorConfig,
      DeleteProcessorConfigError | KeyedError
    >
    /** The change held for approval, credentials masked. */
    readonly retrievePending: (
      tenant: Tenant.Tenant
    ) => Effect.Effect<
      ProcessorConfig.ProcessorConfigChange,
      NoPendingProcessorChange | StorageError
    >
    /** Applies the held change `id` (`pendingChange.id`), approved by someone else than its requester. */
    readonly approve: (
      tenant: Tenant.Tenant,
      id: string,
      options: ApproveOptions
    ) => Effect.Effect<
      ProcessorConfig.ProcessorConfigChange,
      ApproveProcessorChangeError | KeyedError
    >
    /** Drops the held change. */
    readonly cancel: (
      tenant: Tenant.Tenant,
      options?: WriteOptions
    ) => Effect.Effect<
      ProcessorConfig.ProcessorConfigChange,
      CancelProcessorChangeError | KeyedError
    >
  }
}

export class LevyService extends Context.Tag("@levy/engine/LevyService")<LevyService, Service>() {}

/** The tenant of an account in test or live mode. */
export const tenant = (accountId: string, mode: "test" | "live"): Tenant.Tenant =>
  Tenant.make(accountId, mode === "live")

/** `input` checked against the API's schema for it. */
const checked = <A, I>(schema: Schema.Schema<A, I>, input: A) =>
  Effect.mapError(Schema.validate(schema)(input), InvalidInput.fromParseError)

const checkedKey = (options: WriteOptions | undefined) => {
  const key = options?.idempotencyKey
  if (key === undefined) return Effect.succeedNone
  return IdempotencyKey.isValid(key)
    ? Effect.succeed(Option.some(key))
    : Effect.fail(
        new InvalidInput.InvalidInput({
          code: "parameter_invalid",
          param: "idempotencyKey",
          message: `An idempotency key must be 1 to ${IdempotencyKey.MAX_LENGTH} characters.`
        })
      )
}

/**
 * A write for `tenant` that is a request to `operation` with `parameters` (as the operation's
 * schema decodes them; `undefined` when it takes none): run once without a key; under a key,
 * claimed, run or replayed (`Keyed.run`) and its stored answer read back by `replay`.
 */
const keyed = <B, BI, E, R, ER, RR>(
  tenant: Tenant.Tenant,
  options: WriteOptions | undefined,
  operation: string,
  parameters: unknown,
  encode: Schema.Schema<B, BI>,
  write: (claim: Option.Option<Claim>) => Effect.Effect<Written.Written<B>, E, R>,
  replay: (tenant: Tenant.Tenant, key: string, response: StoredResponse) => Effect.Effect<B, ER, RR>
) =>
  Effect.gen(function* () {
    const key = yield* checkedKey(options)
    if (Option.isNone(key)) return (yield* write(Option.none())).value
    const ran = yield* Keyed.run(
      tenant,
      key.value,
      Fingerprint.ofParameters(operation, parameters),
      (claim) => write(Option.some(claim)),
      {
        response: (value) => ({
          outcome: "succeeded",
          body: Schema.encodeSync(encode)(value) as Json
        }),
        isStored: (error) => isStored(error as Parameters<typeof isStored>[0])
      }
    )
    return ran._tag === "Ran" ? ran.value : yield* replay(tenant, key.value, ran.response)
  })

/**
 * A write of `input` (checked by `schema`) for `tenant`, the request being `operation` with
 * that input: `keyed`.
 */
const writing =
  <A, I, B, BI, E, R, ER, RR>(
    operation: string,
    schema: Schema.Schema<A, I>,
    encode: Schema.Schema<B, BI>,
    write: (
      tenant: Tenant.Tenant,
      input: A,
      claim: Option.Option<Claim>
    ) => Effect.Effect<Written.Written<B>, E, R>,
    replay: (
      tenant: Tenant.Tenant,
      key: string,
      response: StoredResponse
    ) => Effect.Effect<B, ER, RR>
  ) =>
  (tenant: Tenant.Tenant, input: A, options?: WriteOptions) =>
    Effect.gen(function* () {
      const valid = yield* checked(schema, input)
      return yield* keyed(
        tenant,
        options,
        operation,
        valid,
        encode,
        (claim) => write(tenant, valid, claim),
        replay
      )
    })

/**
 * An approval of the held change `id` by `options.by` (`operation` its request, `{id}` its
 * body): `writing`, its answer replayed under a key.
 */
const approving =
  <B, BI, E, R>(
    operation: string,
    body: Schema.Schema<{ readonly id: string }, { readonly id: string }>,
    answer: Schema.Schema<B, BI>,
    approve: (
      tenant: Tenant.Tenant,
      id: string,
      by: string,
      claim: Option.Option<Claim>
    ) => Effect.Effect<Written.Written<B>, E, R>
  ) =>
  (tenant: Tenant.Tenant, id: string, options: ApproveOptions) =>
    writing(
      operation,
      body,
      answer,
      (t, valid, claim) => approve(t, valid.id, options.by, claim),
      Replays.success(answer)
    )(tenant, { id }, options)

/** A list of `request` (checked by `schema`, defaults to none) run by `list`. */
const listing =
  <A, I, B, E, R>(
    schema: Schema.Schema<A, I>,
    list: (tenant: Tenant.Tenant, request: A) => Effect.Effect<B, E, R>
  ) =>
  (tenant: Tenant.Tenant, request: A) =>
    Effect.flatMap(checked(schema, request), (valid) => list(tenant, valid))

/** A write that stores nothing itself: its taker stores the answer for the key. */
const unrecorded = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(effect, Written.untouched)

type Services =
  | AccountRepository
  | ChargeRepository
  | ComplianceRules
  | EventRepository
  | FeeConfigRepository
  | IdempotencyRepository
  | Ids
  | PaymentProcessors
  | ProcessorConfigRepository
  | Signer
  | Transactions
  | WebhookDeliveryRepository
  | WebhookEndpointRepository

/** The service over the services it runs on (the waking ones of the dispatcher's layer). */
export const make = Effect.gen(function* () {
  const context = yield* Effect.context<Services>()
  const run = <A, E>(effect: Effect.Effect<A, E, Services>) => Effect.provide(effect, context)

  const createChargeKeyed = writing(
    "POST /v1/charges",
    ChargeCreate.ChargeCreate,
    Charge.Charge,
    createCharge,
    Replays.charge
  )
  const createRefundKeyed = writing(
    "POST /v1/refunds",
    RefundCreate.RefundCreate,
    Refund.Refund,
    createRefund,
    Replays.refund
  )
  const createEndpointKeyed = writing(
    "POST /v1/webhook-endpoints",
    WebhookEndpointCreate.WebhookEndpointCreate,
    WebhookEndpoint.WebhookEndpoint,
    createWebhookEndpoint,
    Replays.success(WebhookEndpoint.WebhookEndpoint)
  )

  return LevyService.of({
    accounts: {
      // The account's id is fresh: a clash is a defect.
      create: (name) => run(Effect.catchTag(Accounts.create(name), "DuplicateRecord", Effect.die))
    },
    estimates: {
      create: (tenant, input) =>
        run(
          Effect.flatMap(checked(EstimateRequest.EstimateRequest, input), (valid) =>
            createEstimate(tenant, valid)
          )
        )
    },
    charges: {
      create: (tenant, input, options) => run(createChargeKeyed(tenant, input, options)),
      retrieve: (tenant, id) =>
        run(Effect.map(TenantCharge.get(tenant, id, "id"), ChargeWire.toWire)),
      update: (tenant, id, input, options) =>
        run(
          writing(
            `POST /v1/charges/${id}`,
            ChargeUpdate.ChargeUpdate,
            Charge.Charge,
            (t, valid, claim) => updateCharge(t, id, valid, claim),
            Replays.success(Charge.Charge)
          )(tenant, input, options)
        ),
      list: (tenant, request = {}) => run(listing(ChargeListRequest, listCharges)(tenant, request))
    },
    refunds: {
      create: (tenant, input, options) => run(createRefundKeyed(tenant, input, options)),
      retrieve: (tenant, id) => run(retrieveRefund(tenant, id)),
      list: (tenant, request = {}) => run(listing(RefundListRequest, listRefunds)(tenant, request))
    },
    disputes: {
      retrieve: (tenant, id) => run(retrieveDispute(tenant, id)),
      list: (tenant, request = {}) =>
        run(listing(DisputeListRequest, listDisputes)(tenant, request))
    },
    feeConfig: {
      retrieve: (tenant) => run(retrieveFeeConfig(tenant)),
      update: (tenant, input, options) =>
        run(
          writing(
            "POST /v1/fee-configs",
            FeeConfigUpdate.FeeConfigUpdate,
            FeeConfig.FeeConfig,
            (t, valid, claim) => updateFeeConfig(t, valid, options?.by ?? IN_PROCESS, claim),
            Replays.success(FeeConfig.FeeConfig)
          )(tenant, input, options)
        ),
      approve: (tenant, id, options) =>
        run(
          approving(
            "POST /v1/fee-configs/pending/approve",
            FeeConfigApprove.FeeConfigApprove,
            FeeConfig.FeeConfig,
            approveFeeChange
          )(tenant, id, options)
        ),
      cancel: (tenant, options) =>
        run(
          keyed(
            tenant,
            options,
            "POST /v1/fee-configs/pending/cancel",
            undefined,
            FeeConfig.FeeConfig,
            (claim) => cancelFeeChange(tenant, options?.by ?? IN_PROCESS, claim),
            Replays.success(FeeConfig.FeeConfig)
          )
        )
    },
    regions: {
      list: (request = {}) => run(Effect.flatMap(checked(RegionListRequest, request), listRegions)),
      retrieve: (code, request = {}) =>
        run(
          Effect.flatMap(checked(RegionRequest, request), (valid) => retrieveRegion(code, valid))
        ),
      checkCompliance: (tenant, input) =>
        run(listing(CheckComplianceRequest.CheckComplianceRequest, checkCompliance)(tenant, input))
    },
    rulesets: {
      list: () => Effect.sync(listRulesets),
      retrieve: retrieveRuleset
    },
    events: {
      list: (tenant, request = {}) => run(listing(EventListRequest, listEvents)(tenant, request)),
      retrieve: (tenant, id) => run(retrieveEvent(tenant, id)),
      // No input is the API's request without a body (null), the same request under a key.
      resend: (tenant, id, input = null, options) =>
        run(
          writing(
            `POST /v1/events/${id}/resend`,
            EventResend.EventResend,
            Event.Event,
            (t, valid, claim) => resendEvent(t, id, valid, claim),
            Replays.success(Event.Event)
          )(tenant, input, options)
        )
    },
    keys: {
      list: (tenant, request = {}) =>
        run(listing(ListRequest.ListRequest, listKeys)(tenant, request)),
      revoke: (tenant, id, options) =>
        run(
          keyed(
            tenant,
            options,
            `POST /v1/keys/${id}/revoke`,
            undefined,
            ApiKeyWire.ApiKey,
            () => unrecorded(revokeKey(tenant, id, options?.acting)),
            Replays.success(ApiKeyWire.ApiKey)
          )
        )
    },
    webhookEndpoints: {
      create: (tenant, input, options) => run(createEndpointKeyed(tenant, input, options)),
      retrieve: (tenant, id) => run(retrieveWebhookEndpoint(tenant, id)),
      list: (tenant, request = {}) =>
        run(listing(ListRequest.ListRequest, listWebhookEndpoints)(tenant, request)),
      listDeliveries: (tenant, id, request = {}) =>
        run(
          listing(ListRequest.ListRequest, (t, valid: ListRequest.ListRequest) =>
            listWebhookDeliveries(t, id, valid)
          )(tenant, request)
        ),
      update: (tenant, id, input, options) =>
        run(
          writing(
            `POST /v1/webhook-endpoints/${id}`,
            WebhookEndpointUpdate.WebhookEndpointUpdate,
            WebhookEndpoint.WebhookEndpoint,
            (t, valid, claim) => updateWebhookEndpoint(t, id, valid, claim),
            Replays.success(WebhookEndpoint.WebhookEndpoint)
          )(tenant, input, options)
        ),
      delete: (tenant, id, options) =>
        run(
          keyed(
            tenant,
            options,
            `DELETE /v1/webhook-endpoints/${id}`,
            undefined,
            WebhookEndpoint.DeletedWebhookEndpoint,
            (claim) => deleteWebhookEndpoint(tenant, id, claim),
            Replays.success(WebhookEndpoint.DeletedWebhookEndpoint)
          )
        ),
      rollSecret: (tenant, id, options) =>
        run(
          keyed(
            tenant,
            options,
            `POST /v1/webhook-endpoints/${id}/roll-secret`,
            undefined,
            WebhookEndpoint.WebhookEndpoint,
            (claim) => rollWebhookSecret(tenant, id, claim),
            Replays.success(WebhookEndpoint.WebhookEndpoint)
          )
        )
    },
    processorConfig: {
      save: (tenant, input, options) =>
        run(
          writing(
            "POST /v1/processor-config",
            ProcessorConfigCreate.ProcessorConfigCreate,
            ProcessorConfig.ProcessorConfig,
            (t, valid, claim) =>
              saveProcessorConfig(t, valid, { by: options?.by ?? IN_PROCESS }, claim),
            Replays.success(ProcessorConfig.ProcessorConfig)
          )(tenant, input, options)
        ),
      retrieve: (tenant) => run(retrieveProcessorConfig(tenant)),
      delete: (tenant, options) =>
        run(
          keyed(
            tenant,
            options,
            "DELETE /v1/processor-config",
            undefined,
            ProcessorConfig.DeletedProcessorConfig,
            (claim) => deleteProcessorConfig(tenant, { by: options?.by ?? IN_PROCESS }, claim),
            Replays.success(ProcessorConfig.DeletedProcessorConfig)
          )
        ),
      retrievePending: (tenant) => run(retrievePendingProcessorChange(tenant)),
      approve: (tenant, id, options) =>
        run(
          approving(
            "POST /v1/processor-config/pending/approve",
            ProcessorConfigApprove.ProcessorConfigApprove,
            ProcessorConfig.ProcessorConfigChange,
            approveProcessorChange
          )(tenant, id, options)
        ),
      cancel: (tenant, options) =>
        run(
          keyed(
            tenant,
            options,
            "POST /v1/processor-config/pending/cancel",
            undefined,
            ProcessorConfig.ProcessorConfigChange,
            (claim) => cancelProcessorChange(tenant, claim),
            Replays.success(ProcessorConfig.ProcessorConfigChange)
          )
        )
    }
  })
})

/** Settings of `layerWith`. */
export interface Options {
  /** Webhook delivery settings over the production defaults. */
  readonly webhooks?: Partial<DispatcherConfig>
  /**
   * Where each processor's API is when not at its own address (a proxy, a local fake):
   * `{ stripe: "http://…" }`, as `levy serve` reads `LEVY_STRIPE_API_BASE_URL`.
   */
  readonly processorApiBaseUrls?: ApiBaseUrls.Urls
}

/**
 * The service and its background work, over the store (`Storage.Repositories` and `Ids`); the
 * recovery sweeper reads `LEVY_RECOVERY_INTERVAL` and the housekeeping `LEVY_RETENTION_DAYS`
 * (a bad value fails the layer: `ConfigError`).
 */
export const layerWith = (
  options: Options = {}
): Layer.Layer<LevyService, ConfigError.ConfigError, Storage.Repositories | Ids> => {
  const service = EngineServices.provide(
    Layer.effect(LevyService, make),
    DispatcherLayer.layer(options.webhooks)
  )
  const urls = options.processorApiBaseUrls
  return urls === undefined
    ? service
    : service.pipe(Layer.provide(Layer.succeed(ApiBaseUrls.ProcessorApiBaseUrls, urls)))
}

/** `layerWith` the defaults. */
export const layer = layerWith()

/**
 * A store to run the service on, as `levy serve --store … --data-dir …` takes it:
 * `{ store: "memory" }`, `{ store: "embedded", dataDir }` (PGlite in `<dataDir>/data`, the
 * key file `<dataDir>/secret.key`; `dataDir` defaults to `.levy`) or
 * `{ store: "postgres", databaseUrl }`; SQL stores migrate when the layer is built. Any layer
 * of `Storage.Repositories` and `Ids` does as well.
 */
export const store = (options: Store.Choice) => Store.layer(options)

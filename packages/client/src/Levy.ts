/**
 * The Promise facade for code that does not use Effect:
 *
 *     const levy = new Levy("sk_dev_service_…", { baseUrl: "http://127.0.0.1:4000" })
 *     const charge = await levy.charges.create({ amount: 10000, currency: "usd", source: "tok_visa" })
 *
 * Every call goes through the Effect client (same headers, idempotency keys, timeout and
 * retries) and rejects with a `LevyError` subclass. Types come from the API's schemas.
 */
import type {
  ApiKey,
  Charge,
  ChargeCreate,
  ChargeUpdate,
  CheckComplianceRequest,
  ComplianceCheckResult,
  Dispute,
  Estimate,
  EstimateRequest,
  Event,
  FeeConfig,
  FeeConfigUpdate,
  List,
  ListParams,
  ProcessorConfig,
  ProcessorConfigCreate,
  Refund,
  RefundCreate,
  Region,
  RulesetVersion,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate
} from "@levy/api"
import { Cause, Effect, Exit, Option } from "effect"
import { type Client, makeFetch } from "./LevyClient.js"
import type { Options } from "./Options.js"
import { type Cursor, type PagePromise, paginate } from "./Page.js"
import { withLevyErrors } from "./toLevyError.js"

/** Per-call options of a POST. */
export interface RequestOptions {
  /** Your own Idempotency-Key; by default each call gets a fresh one (kept across its retries). */
  readonly idempotencyKey?: string | undefined
}

/** A list's query as the caller writes it: `limit` may be left out (default 10). */
export type ListQuery<P extends { readonly limit: number }> = Omit<P, "limit"> & Cursor

const headersOf = (options: RequestOptions | undefined) =>
  options?.idempotencyKey === undefined ? {} : { "idempotency-key": options.idempotencyKey }

const withLimit = <P extends { readonly limit: number }>(query: ListQuery<P>): P =>
  ({ ...query, limit: query.limit ?? 10 }) as unknown as P

const byId = (item: { readonly id: string }) => item.id

/** Runs a call, rejecting with the `LevyError` (not Effect's FiberFailure) when it fails. */
const run = async <A, E>(call: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(withLevyErrors(call))
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  throw Option.isSome(failure) ? failure.value : Cause.squash(exit.cause)
}

const estimates = (client: Client) => ({
  /** `POST /v1/estimates`: the fee for an amount, without charging. */
  create: (
    params: EstimateRequest.EstimateRequest,
    options?: RequestOptions
  ): Promise<Estimate.Estimate> =>
    run(client.estimates.create({ payload: params, headers: headersOf(options) }))
})

const charges = (client: Client) => {
  const list = (query: ListParams.ChargeListParams) =>
    run(client.charges.list({ urlParams: query }))
  return {
    /** `POST /v1/charges`: amount + a compliant fee; a decline rejects with `CardError`. */
    create: (params: ChargeCreate.ChargeCreate, options?: RequestOptions): Promise<Charge.Charge> =>
      run(client.charges.create({ payload: params, headers: headersOf(options) })),
    /** `GET /v1/charges/{id}`. */
    retrieve: (id: string): Promise<Charge.Charge> =>
      run(client.charges.retrieve({ path: { id } })),
    /**
     * `POST /v1/charges/{id}`: a new description, metadata keys merged (a key set to "" is
     * removed).
     */
    update: (
      id: string,
      params: ChargeUpdate.ChargeUpdate,
      options?: RequestOptions
    ): Promise<Charge.Charge> =>
      run(client.charges.update({ path: { id }, payload: params, headers: headersOf(options) })),
    /** `GET /v1/charges`, newest first; iterate the result to walk every page. */
    list: (query: ListQuery<ListParams.ChargeListParams> = {}): PagePromise<Charge.Charge> =>
      paginate(list, byId, withLimit(query))
  }
}

const refunds = (client: Client) => {
  const list = (query: ListParams.RefundListParams) =>
    run(client.refunds.list({ urlParams: query }))
  return {
    /** `POST /v1/refunds`: part or all of a charge. */
    create: (params: RefundCreate.RefundCreate, options?: RequestOptions): Promise<Refund.Refund> =>
      run(client.refunds.create({ payload: params, headers: headersOf(options) })),
    /** `GET /v1/refunds/{id}`. */
    retrieve: (id: string): Promise<Refund.Refund> =>
      run(client.refunds.retrieve({ path: { id } })),
    /** `GET /v1/refunds`, newest first. */
    list: (query: ListQuery<ListParams.RefundListParams> = {}): PagePromise<Refund.Refund> =>
      paginate(list, byId, withLimit(query))
  }
}

const disputes = (client: Client) => {
  const list = (query: ListParams.DisputeListParams) =>
    run(client.disputes.list({ urlParams: query }))
  return {
    /** `GET /v1/disputes/{id}`. */
    retrieve: (id: string): Promise<Dispute.Dispute> =>
      run(client.disputes.retrieve({ path: { id } })),
    /** `GET /v1/disputes`, newest first. */
    list: (query: ListQuery<ListParams.DisputeListParams> = {}): PagePromise<Dispute.Dispute> =>
      paginate(list, byId, withLimit(query))
  }
}

const feeConfigs = (client: Client) => ({
  /** `GET /v1/fee-configs`. */
  retrieve: (): Promise<FeeConfig.FeeConfig> => run(client.feeConfigs.retrieve()),
  /** `POST /v1/fee-configs`: applied at once in test mode; raising a live fee waits for approval. */
  update: (
    params: FeeConfigUpdate.FeeConfigUpdate,
    options?: RequestOptions
  ): Promise<FeeConfig.FeeConfig> =>
    run(client.feeConfigs.update({ payload: params, headers: headersOf(options) })),
  /**
   * `POST /v1/fee-configs/pending/approve`: applies the pending change `id` (its
   * `pendingChange.id`), by a key other than the requester's.
   */
  approvePending: (id: string, options?: RequestOptions): Promise<FeeConfig.FeeConfig> =>
    run(client.feeConfigs.approvePending({ payload: { id }, headers: headersOf(options) })),
  /** `POST /v1/fee-configs/pending/cancel`. */
  cancelPending: (options?: RequestOptions): Promise<FeeConfig.FeeConfig> =>
    run(client.feeConfigs.cancelPending({ headers: headersOf(options) }))
})

const regions = (client: Client) => {
  const list = (query: ListParams.RegionListParams) =>
    run(client.regions.list({ urlParams: query }))
  return {
    /** `GET /v1/regions/{code}`, optionally the rules in force on `date` (YYYY-MM-DD). */
    retrieve: (code: string, query: ListParams.RegionParams = {}): Promise<Region.Region> =>
      run(client.regions.retrieve({ path: { code }, urlParams: query })),
    /** `GET /v1/regions`, by code. */
    list: (query: ListQuery<ListParams.RegionListParams> = {}): PagePromise<Region.Region> =>
      paginate(list, (region) => region.regionCode, withLimit(query)),
    /** `POST /v1/regions/check-compliance`. */
    checkCompliance: (
      params: CheckComplianceRequest.CheckComplianceRequest,
      options?: RequestOptions
    ): Promise<ComplianceCheckResult.ComplianceCheckResult> =>
      run(client.regions.checkCompliance({ payload: params, headers: headersOf(options) }))
  }
}

const rulesets = (client: Client) => ({
  /** `GET /v1/rulesets`: every released version of the ruleset, oldest first, in one list. */
  list: (): Promise<List.List<RulesetVersion.RulesetVersion>> => run(client.rulesets.list()),
  /** `GET /v1/rulesets/{version}`: one version ("1.0.0"); a NotFoundError lists the known ones. */
  retrieve: (version: string): Promise<RulesetVersion.RulesetVersion> =>
    run(client.rulesets.retrieve({ path: { version } }))
})

const events = (client: Client) => {
  const list = (query: ListParams.EventListParams) => run(client.events.list({ urlParams: query }))
  return {
    /** `GET /v1/events/{id}`. */
    retrieve: (id: string): Promise<Event.Event> => run(client.events.retrieve({ path: { id } })),
    /** `GET /v1/events`, newest first. */
    list: (query: ListQuery<ListParams.EventListParams> = {}): PagePromise<Event.Event> =>
      paginate(list, byId, withLimit(query)),
    /** `POST /v1/events/{id}/resend`: delivers it again to the subscribed endpoints, or to `endpoint` only. */
    resend: (
      id: string,
      params: { readonly endpoint?: string } = {},
      options?: RequestOptions
    ): Promise<Event.Event> =>
      run(
        client.events.resend({
          path: { id },
          payload: params.endpoint === undefined ? null : { endpoint: params.endpoint },
          headers: headersOf(options)
        })
      )
  }
}

const webhookEndpoints = (client: Client) => {
  const list = (query: ListParams.ListParams) =>
    run(client.webhookEndpoints.list({ urlParams: query }))
  return {
    /** `POST /v1/webhook-endpoints`: the response carries the signing secret, once. */
    create: (
      params: WebhookEndpointCreate.WebhookEndpointCreate,
      options?: RequestOptions
    ): Promise<WebhookEndpoint.WebhookEndpoint> =>
      run(client.webhookEndpoints.create({ payload: params, headers: headersOf(options) })),
    /** `GET /v1/webhook-endpoints`. */
    list: (
      query: ListQuery<ListParams.ListParams> = {}
    ): PagePromise<WebhookEndpoint.WebhookEndpoint> => paginate(list, byId, withLimit(query)),
    /** `GET /v1/webhook-endpoints/{id}`. */
    retrieve: (id: string): Promise<WebhookEndpoint.WebhookEndpoint> =>
      run(client.webhookEndpoints.retrieve({ path: { id } })),
    /** `POST /v1/webhook-endpoints/{id}`. */
    update: (
      id: string,
      params: WebhookEndpointUpdate.WebhookEndpointUpdate,
      options?: RequestOptions
    ): Promise<WebhookEndpoint.WebhookEndpoint> =>
      run(
        client.webhookEndpoints.update({
          path: { id },
          payload: params,
          headers: headersOf(options)
        })
      ),
    /** `DELETE /v1/webhook-endpoints/{id}`. */
    del: (id: string): Promise<WebhookEndpoint.DeletedWebhookEndpoint> =>
      run(client.webhookEndpoints.delete({ path: { id } })),
    /** `POST /v1/webhook-endpoints/{id}/roll-secret`: the new secret, once. */
    rollSecret: (id: string, options?: RequestOptions): Promise<WebhookEndpoint.WebhookEndpoint> =>
      run(client.webhookEndpoints.rollSecret({ path: { id }, headers: headersOf(options) })),
    /** `GET /v1/webhook-endpoints/{id}/deliveries`, newest first. */
    listDeliveries: (
      id: string,
      query: ListQuery<ListParams.ListParams> = {}
    ): PagePromise<WebhookDelivery.WebhookDelivery> =>
      paginate(
        (q: ListParams.ListParams) =>
          run(client.webhookEndpoints.listDeliveries({ path: { id }, urlParams: q })),
        byId,
        withLimit(query)
      )
  }
}

const keys = (client: Client) => {
  const list = (query: ListParams.ListParams) => run(client.keys.list({ urlParams: query }))
  return {
    /** `GET /v1/keys`: the account's keys in this key's mode (never the keys themselves). */
    list: (query: ListQuery<ListParams.ListParams> = {}): PagePromise<ApiKey.ApiKey> =>
      paginate(list, byId, withLimit(query)),
    /** `POST /v1/keys/{id}/revoke`: refused from its next request. */
    revoke: (id: string, options?: RequestOptions): Promise<ApiKey.ApiKey> =>
      run(client.keys.revoke({ path: { id }, headers: headersOf(options) }))
  }
}

const processorConfig = (client: Client) => ({
  /**
   * `POST /v1/processor-config`: connects Stripe or Adyen for this key's mode (replacing any
   * processor configured), after the processor accepted the credentials; shown masked. In live
   * mode it is held until another secret key approves it: `applied: false` and `pendingChange`.
   */
  create: (
    params: ProcessorConfigCreate.ProcessorConfigCreate,
    options?: RequestOptions
  ): Promise<ProcessorConfig.ProcessorConfig> =>
    run(client.processorConfig.create({ payload: params, headers: headersOf(options) })),
  /**
   * `GET /v1/processor-config`: the configuration in force, with `pendingChange` when a change
   * is held; rejects with a 404 `NotFoundError` when none is in force.
   */
  retrieve: (): Promise<ProcessorConfig.ProcessorConfig> => run(client.processorConfig.retrieve()),
  /** `DELETE /v1/processor-config`: in live mode held for approval (`deleted: false`). */
  del: (): Promise<ProcessorConfig.DeletedProcessorConfig> => run(client.processorConfig.delete()),
  /** `GET /v1/processor-config/pending`: the held change; a 404 `NotFoundError` when none. */
  retrievePending: (): Promise<ProcessorConfig.ProcessorConfigChange> =>
    run(client.processorConfig.retrievePending()),
  /**
   * `POST /v1/processor-config/pending/approve`: applies the held change `id`, by a key other
   * than the requester's.
   */
  approvePending: (
    id: string,
    options?: RequestOptions
  ): Promise<ProcessorConfig.ProcessorConfigChange> =>
    run(client.processorConfig.approvePending({ payload: { id }, headers: headersOf(options) })),
  /** `POST /v1/processor-config/pending/cancel`. */
  cancelPending: (options?: RequestOptions): Promise<ProcessorConfig.ProcessorConfigChange> =>
    run(client.processorConfig.cancelPending({ headers: headersOf(options) }))
})

/** The Levy API for Promise code. */
export class Levy {
  readonly estimates: ReturnType<typeof estimates>
  readonly charges: ReturnType<typeof charges>
  readonly refunds: ReturnType<typeof refunds>
  readonly disputes: ReturnType<typeof disputes>
  readonly feeConfigs: ReturnType<typeof feeConfigs>
  readonly regions: ReturnType<typeof regions>
  readonly rulesets: ReturnType<typeof rulesets>
  readonly events: ReturnType<typeof events>
  readonly webhookEndpoints: ReturnType<typeof webhookEndpoints>
  readonly keys: ReturnType<typeof keys>
  readonly processorConfig: ReturnType<typeof processorConfig>

  constructor(apiKey: string, options: Options = {}) {
    const client = makeFetch(apiKey, options)
    this.estimates = estimates(client)
    this.charges = charges(client)
    this.refunds = refunds(client)
    this.disputes = disputes(client)
    this.feeConfigs = feeConfigs(client)
    this.regions = regions(client)
    this.rulesets = rulesets(client)
    this.events = events(client)
    this.webhookEndpoints = webhookEndpoints(client)
    this.keys = keys(client)
    this.processorConfig = processorConfig(client)
  }
}

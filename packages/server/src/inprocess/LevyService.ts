/**
 * Levy in-process (docs/embedding.md "Levy in-process, no HTTP"): the same workflows the
 * `/v1` API serves — estimates, charges, refunds, the fee configuration — as a service a
 * checkout backend calls with a store and no HTTP server. Each call takes the tenant (an
 * account and its mode) and answers the wire's typed result or the workflow's own error
 * (`ChargeFailed`, `FeeError`, `StorageError`, …), never an HTTP status. Inputs are checked
 * against the API's schemas (`InvalidInput`), and writes under an `idempotencyKey` keep
 * docs/design.md §7: the first result is stored with the write and replayed for the same
 * input, the same key with another input is `IdempotencyKeyReused`, and one still running is
 * `IdempotencyKeyInUse` — in the same records and key space as the HTTP API's keys.
 *
 * `LevyService.layer` runs, besides the service, what the API's server runs beside its
 * handlers (ApiServices.ts): the processors (configured, else the simulator in test mode),
 * the ruleset, webhook delivery and the recovery of pending charges in the background.
 */
import {
  Charge,
  ChargeCreate,
  type Estimate,
  EstimateRequest,
  type FeeConfig,
  Refund,
  RefundCreate
} from "@levy/api"
import { ComplianceRules, type FeeError } from "@levy/core"
import {
  type AccountRepository,
  ChargeRepository,
  FeeConfigRepository,
  type IdempotencyKeyInUse,
  type IdempotencyKeyReused,
  type IdempotencyRepository,
  type Ids,
  type Page,
  type Storage,
  type StorageError,
  type StoredResponse,
  Tenant,
  type Transactions
} from "@levy/storage"
import { type ConfigError, Context, Effect, Layer, Option, Schema } from "effect"
import * as Accounts from "../Accounts.js"
import { isStored } from "../ApiErrors.js"
import * as ApiServices from "../ApiServices.js"
import * as ChargeWire from "../charges/ChargeWire.js"
import { type CreateChargeError, createCharge } from "../charges/createCharge.js"
import * as Store from "../cli/Store.js"
import { createEstimate } from "../estimates/createEstimate.js"
import * as Config from "../feeConfigs/Config.js"
import { MAX_KEY_LENGTH } from "../http/IdempotencyEdge.js"
import type { Claim } from "../idempotency/Claim.js"
import * as Keyed from "../idempotency/Keyed.js"
import type { Written } from "../idempotency/Written.js"
import type { PaymentProcessors } from "../processors/PaymentProcessors.js"
import { type CreateRefundError, createRefund } from "../refunds/createRefund.js"
import { ChargeNotFound } from "../refunds/RefundErrors.js"
import type { DispatcherConfig } from "../webhooks/DispatcherConfig.js"
import * as DispatcherLayer from "../webhooks/DispatcherLayer.js"
import * as InvalidInput from "./InvalidInput.js"
import * as Replays from "./Replays.js"

export { DeadlineExceeded } from "../idempotency/Keyed.js"
export { InvalidInput } from "./InvalidInput.js"

/** Options of a write. */
export interface WriteOptions {
  /** Stripe-style idempotency key: the same input under it is made once, its result replayed. */
  readonly idempotencyKey?: string | undefined
}

/** A page of charges, newest first. */
export interface ChargeListRequest extends Page.PageRequest {
  readonly customer?: string | undefined
}

/** Failures of a write under a key, beside the workflow's own. */
export type KeyedError =
  | InvalidInput.InvalidInput
  | IdempotencyKeyInUse
  | IdempotencyKeyReused
  | Keyed.DeadlineExceeded
  | StorageError

/** Every failure a call of the service may end with. */
export type LevyError = CreateChargeError | CreateRefundError | KeyedError | FeeError

/** The service. */
export interface Levy {
  readonly accounts: {
    /** A new account with its four API keys (returned once), for the HTTP API or the dashboard. */
    readonly create: (name: string) => Effect.Effect<Accounts.Created, StorageError>
  }
  readonly estimates: {
    readonly create: (
      tenant: Tenant.Tenant,
      input: EstimateRequest.EstimateRequest
    ) => Effect.Effect<Estimate.Estimate, InvalidInput.InvalidInput | FeeError | StorageError>
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
    readonly list: (
      tenant: Tenant.Tenant,
      request?: ChargeListRequest
    ) => Effect.Effect<Page.Page<Charge.Charge>, InvalidInput.InvalidInput | StorageError>
  }
  readonly refunds: {
    readonly create: (
      tenant: Tenant.Tenant,
      input: RefundCreate.RefundCreate,
      options?: WriteOptions
    ) => Effect.Effect<Refund.Refund, CreateRefundError | KeyedError>
  }
  readonly feeConfig: {
    /** The configuration in force (the defaults until one is stored) and any pending change. */
    readonly retrieve: (tenant: Tenant.Tenant) => Effect.Effect<FeeConfig.FeeConfig, StorageError>
  }
}

export class LevyService extends Context.Tag("@levy/server/LevyService")<LevyService, Levy>() {}

/** The tenant of an account in test or live mode. */
export const tenant = (accountId: string, mode: "test" | "live"): Tenant.Tenant =>
  Tenant.make(accountId, mode === "live")

/** `input` checked against the API's schema for it. */
const checked = <A, I>(schema: Schema.Schema<A, I>, input: A) =>
  Effect.mapError(Schema.validate(schema)(input), InvalidInput.fromParseError)

const checkedKey = (options: WriteOptions | undefined) => {
  const key = options?.idempotencyKey
  if (key === undefined) return Effect.succeedNone
  return key.length > 0 && key.length <= MAX_KEY_LENGTH
    ? Effect.succeed(Option.some(key))
    : Effect.fail(
        new InvalidInput.InvalidInput({
          code: "parameter_invalid",
          param: "idempotencyKey",
          message: `An idempotency key must be 1 to ${MAX_KEY_LENGTH} characters.`
        })
      )
}

/**
 * A write of `input` (checked by `schema`) for `tenant`: run once without a key; under a key,
 * claimed, run or replayed (`Keyed.run`) and its stored answer read back by `replay`.
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
    ) => Effect.Effect<Written<B>, E, R>,
    replay: (
      tenant: Tenant.Tenant,
      key: string,
      response: StoredResponse
    ) => Effect.Effect<B, ER, RR>
  ) =>
  (tenant: Tenant.Tenant, input: A, options?: WriteOptions) =>
    Effect.gen(function* () {
      const valid = yield* checked(schema, input)
      const key = yield* checkedKey(options)
      if (Option.isNone(key)) return (yield* write(tenant, valid, Option.none())).value
      const keyed = yield* Keyed.run(
        tenant,
        key.value,
        Keyed.fingerprint(operation, yield* Effect.orDie(Schema.encode(schema)(valid))),
        (claim) => write(tenant, valid, Option.some(claim)),
        {
          response: (value) => ({
            status: 200,
            body: Schema.encodeSync(encode)(value) as StoredResponse["body"]
          }),
          isStored: (error) => isStored(error as Parameters<typeof isStored>[0])
        }
      )
      return keyed._tag === "Ran" ? keyed.value : yield* replay(tenant, key.value, keyed.response)
    })

type Services =
  | AccountRepository
  | ChargeRepository
  | ComplianceRules
  | FeeConfigRepository
  | IdempotencyRepository
  | Ids
  | PaymentProcessors
  | Transactions

/** The service over the services it runs on (the waking ones of the dispatcher's layer). */
export const make = Effect.gen(function* () {
  const context = yield* Effect.context<Services>()
  const run = <A, E>(effect: Effect.Effect<A, E, Services>) => Effect.provide(effect, context)
  const charges = yield* ChargeRepository
  const feeConfigs = yield* FeeConfigRepository
  const rules = yield* ComplianceRules

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
        charges.get(tenant, id).pipe(
          Effect.map(ChargeWire.toWire),
          Effect.catchTag("RecordNotFound", () =>
            charges.get(Tenant.make(tenant.accountId, !tenant.livemode), id).pipe(
              Effect.as(true),
              Effect.orElseSucceed(() => false),
              Effect.flatMap((inOtherMode) =>
                Effect.fail(new ChargeNotFound({ tenant, chargeId: id, inOtherMode }))
              )
            )
          )
        ),
      list: (tenant, request = {}) =>
        charges.list(tenant, request).pipe(
          Effect.map((page) => ({ data: page.data.map(ChargeWire.toWire), hasMore: page.hasMore })),
          Effect.catchTag("RecordNotFound", (e) =>
            Effect.fail(
              new InvalidInput.InvalidInput({
                code: "parameter_invalid",
                param: request.startingAfter === undefined ? "endingBefore" : "startingAfter",
                message: `No such charge: '${e.id}'; a cursor names a charge of the same account and mode.`
              })
            )
          )
        )
    },
    refunds: {
      create: (tenant, input, options) => run(createRefundKeyed(tenant, input, options))
    },
    feeConfig: {
      retrieve: (tenant) =>
        Effect.gen(function* () {
          const config = yield* Config.inForce(tenant)
          const pending = yield* feeConfigs.pending(tenant)
          return Config.toWire(rules, tenant, config, { pending })
        }).pipe(Effect.provideService(FeeConfigRepository, feeConfigs))
    }
  })
})

/** Settings of `layerWith`. */
export interface Options {
  /** Webhook delivery settings over the production defaults. */
  readonly webhooks?: Partial<DispatcherConfig>
}

/**
 * The service and its background work, over the store (`Storage.Repositories` and `Ids`); the
 * recovery sweeper reads `LEVY_RECOVERY_INTERVAL` (a bad value fails the layer: `ConfigError`).
 */
export const layerWith = (
  options: Options = {}
): Layer.Layer<LevyService, ConfigError.ConfigError, Storage.Repositories | Ids> =>
  ApiServices.provideWorkflows(
    Layer.effect(LevyService, make),
    DispatcherLayer.layer(options.webhooks)
  )

/** `layerWith` the defaults. */
export const layer = layerWith()

/**
 * A store to run the service on, as `levy serve --store … --data-dir …` takes it: `memory`,
 * `embedded` (PGlite in `dataDir`) or `postgres` (with `databaseUrl`); SQL stores migrate
 * when the layer is built. Any layer of `Storage.Repositories` and `Ids` does as well.
 */
export const store = (options: Store.Options) => Store.layer(options)

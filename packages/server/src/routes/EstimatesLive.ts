/**
 * `POST /v1/estimates`: the account's configuration for the key's mode (created with the
 * defaults on first use) through `Estimate.estimate`: what a charge with the same inputs
 * collects, its disclosure rendered, signed into a quote a charge can name (Quoting.ts); with
 * `source`, for the card the processor describes. Publishable keys are allowed (the
 * Authorization middleware checks it): a checkout page quotes as the shopper picks a card.
 *
 * The configuration is
 * read from the store on every request; what is derived from a stored configuration (its
 * parsed form, the engine's schedule) is kept per stored object, which no store mutates: an
 * update stores a new object, so a changed configuration is never served from the cache.
 */
import {
  type ApiError,
  CurrentKey,
  type EstimateRequest,
  type Estimate as EstimateWire
} from "@levy/api"
import { ComplianceRules, type FeeError, type FeeSchedule } from "@levy/core"
import * as Quote from "@levy/engine/estimates/Quote.js"
import * as Quoting from "@levy/engine/estimates/Quoting.js"
import * as Config from "@levy/engine/feeConfigs/Config.js"
import { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import { FeeConfigRepository, type JsonObject, Signer, type Tenant } from "@levy/storage"
import { Effect, Either, Option } from "effect"
import * as ApiHandlers from "../http/ApiHandlers.js"
import * as Unavailable from "../http/Unavailable.js"
import { toApiError } from "./ApiErrors.js"
import * as Handle from "./Handle.js"

/** A stored configuration with the engine's schedule for it (or the engine's refusal). */
interface Prepared {
  readonly config: Config.StoredConfig
  readonly schedule: Either.Either<FeeSchedule.FeeSchedule, FeeError>
}

/** The estimate for a decoded payload, for the request's key. */
const makeEstimate = Effect.gen(function* () {
  const rules = yield* ComplianceRules
  const repo = yield* FeeConfigRepository
  const prepared = new WeakMap<JsonObject, Prepared>()

  const prepare = (json: JsonObject): Prepared => {
    const cached = prepared.get(json)
    if (cached !== undefined) return cached
    const config = Config.fromJson(json)
    const fresh = { config, schedule: Config.scheduleOf(config) }
    prepared.set(json, fresh)
    return fresh
  }

  const defaults = Config.toJson(Config.DEFAULT)
  /** The tenant's stored configuration, else the defaults (an estimate writes nothing). */
  const configOf = (tenant: Tenant.Tenant) =>
    repo.get(tenant).pipe(
      Effect.catchTag("StorageError", Unavailable.unavailable),
      Effect.map((found) => prepare(Option.isSome(found) ? found.value.config : defaults))
    )

  /** The quote, synchronously: everything after the configuration is pure. */
  const quote = (
    { config, schedule: scheduled }: Prepared,
    payload: EstimateRequest.EstimateRequest
  ): Effect.Effect<EstimateWire.Estimate, ApiError.InvalidRequestError> => {
    // A stored configuration the engine refuses is our fault, not the caller's.
    if (Either.isLeft(scheduled)) return Effect.die(Config.refused(scheduled.left))
    const ruleset = Config.rulesetOf(rules, config)
    if (ruleset === undefined) return Effect.die(Config.unknownPin(config))
    const quoted = Quote.quote(config, scheduled.right, ruleset, payload)
    return Either.isLeft(quoted) ? toApiError(quoted.left) : Effect.succeed(quoted.right)
  }

  const signer = yield* Signer
  const processors = yield* PaymentProcessors
  /** The estimate for the card the processor describes, or the API's error. */
  const forSource = (tenant: Tenant.Tenant, payload: EstimateRequest.EstimateRequest) =>
    Quoting.describeSource(tenant, payload).pipe(
      Effect.provideService(PaymentProcessors, processors),
      Effect.catchAll(toApiError)
    )

  return (key: CurrentKey.Key, payload: EstimateRequest.EstimateRequest) => {
    const tenant = Handle.tenantOf(key)
    const now = Math.floor(Date.now() / 1000)
    // The hot path: no card to describe, no fiber more than reading the configuration.
    if (payload.source === undefined) {
      return Effect.flatMap(configOf(tenant), (config) =>
        Effect.map(quote(config, payload), (e) => Quoting.issue(signer, tenant, e, null, now))
      )
    }
    return Effect.gen(function* () {
      const described = yield* forSource(tenant, payload)
      const estimate = yield* quote(yield* configOf(tenant), Quoting.forCard(payload, described))
      const card = Option.isSome(described) ? described.value.card : null
      return Quoting.issue(signer, tenant, estimate, card, now)
    })
  }
})

export const EstimatesLive = ApiHandlers.group("estimates", (handlers) =>
  Effect.map(makeEstimate, (create) =>
    handlers.handle("create", ({ payload }) =>
      Effect.flatMap(CurrentKey.CurrentKey, (key) => create(key, payload))
    )
  )
)

/**
 * The fee configuration and its approval workflow (decisions §6): read, update (validated
 * with `FeeSchedule.make` over the current configuration; a change not compliant in the
 * account's `defaultRegion` is refused), and in live mode a change that raises the fee held
 * until another secret key approves it. Every applied change writes `fee_config.updated`
 * in the same transaction.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ApiError, CurrentKey } from "@levy/api"
import { type Compliance, ComplianceRules, Decimal, type FeeSchedule } from "@levy/core"
import {
  type Applied,
  EventRepository,
  type FeeConfigChange,
  FeeConfigRepository,
  Ids,
  type Tenant,
  Transactions
} from "@levy/storage"
import { type Context, Effect, Either, Option } from "effect"
import { ServerApi } from "../ServerApi.js"
import * as Config from "./Config.js"

const now = () => Math.floor(Date.now() / 1000)

/** Whether `next` can charge more than `before`: a higher rate or flat fee, a higher or removed limit. */
export const raisesFee = (before: FeeSchedule.FeeSchedule, next: FeeSchedule.FeeSchedule) =>
  next.percentage > before.percentage ||
  Decimal.toNumber(next.flatFee) > Decimal.toNumber(before.flatFee) ||
  (next.minFee !== null && (before.minFee === null || next.minFee > before.minFee)) ||
  (before.maxFee !== null && (next.maxFee === null || next.maxFee > before.maxFee))

/** The field a non-compliance verdict is about. */
const paramOfReason = (reason: Compliance.ReasonCode | null): string => {
  switch (reason) {
    case "percentage_over_limit":
    case "network_cap_exceeded":
    case "over_cost_of_acceptance":
      return "percentage"
    case "flat_fee_over_limit":
    case "convenience_fee_must_be_flat":
      return "flatFee"
    default:
      return "defaultRegion"
  }
}

/**
 * A configuration must be compliant in its `defaultRegion` for a consumer's credit card
 * (the card a surcharge is commonly allowed on), without an amount: the nominal rate.
 */
const checkDefaultRegion = (
  rules: Context.Tag.Service<ComplianceRules>,
  config: Config.StoredConfig,
  schedule: FeeSchedule.FeeSchedule
) =>
  Effect.gen(function* () {
    if (config.defaultRegion === null) return
    const costOfAcceptance = yield* Config.costOfAcceptancePpm(config.costOfAcceptance)
    const verdict = yield* rules
      .check({
        region: config.defaultRegion,
        cardType: "credit",
        percentage: schedule.percentage,
        flatFee: schedule.flatFee,
        costOfAcceptance,
        allowUncertain: config.allowUncertain
      })
      .pipe(
        Either.mapLeft((e) =>
          ApiError.fromFeeError(e.param === "region" ? { ...e, param: "defaultRegion" } : e)
        )
      )
    if (!verdict.compliant) {
      return yield* new ApiError.InvalidRequestError({
        code: verdict.reasonCode ?? "fee_not_compliant",
        param: paramOfReason(verdict.reasonCode),
        message: `The fee would not be compliant in ${config.defaultRegion}: ${verdict.reason ?? "not allowed"}`
      })
    }
  })

export const FeeConfigsLive = HttpApiBuilder.group(ServerApi, "feeConfigs", (handlers) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    const repo = yield* FeeConfigRepository
    const events = yield* EventRepository
    const transactions = yield* Transactions
    const ids = yield* Ids

    const pendingOf = (tenant: Tenant.Tenant) =>
      repo.pending(tenant).pipe(Effect.catchTag("StorageError", Config.unavailable))

    /** Runs a change that applies the configuration, writing `fee_config.updated` with it. */
    const applying = <E>(
      tenant: Tenant.Tenant,
      write: Effect.Effect<Applied, E>,
      pending: Option.Option<FeeConfigChange>
    ) =>
      transactions.run(
        Effect.gen(function* () {
          const applied = yield* write
          const config = Config.fromJson(applied.config.config)
          const wire = Config.toWire(rules, tenant, config, { pending, updated: true })
          yield* events
            .insert({
              id: yield* ids.make("evt"),
              accountId: tenant.accountId,
              livemode: tenant.livemode,
              type: "fee_config.updated",
              data: { object: Config.toJson(wire) },
              request: null,
              created: now()
            })
            .pipe(Effect.catchTag("DuplicateRecord", Effect.die))
          return wire
        })
      )

    return handlers
      .handle("retrieve", () =>
        Effect.gen(function* () {
          const tenant = Config.tenantOf(yield* CurrentKey.CurrentKey)
          const { config } = yield* Config.current(tenant)
          return Config.toWire(rules, tenant, config, { pending: yield* pendingOf(tenant) })
        })
      )
      .handle("update", ({ payload }) =>
        Effect.gen(function* () {
          const key = yield* CurrentKey.CurrentKey
          const tenant = Config.tenantOf(key)
          const { config: before } = yield* Config.current(tenant)
          const next = Config.fromJson(Config.toJson({ ...before, ...payload }))
          const beforeSchedule = yield* Config.schedule(before).pipe(Effect.orDie)
          const nextSchedule = yield* Config.schedule(next)
          yield* checkDefaultRegion(rules, next, nextSchedule)
          const changes = Config.toJson(payload)
          const id = yield* ids.make("fcc")
          const change = { id, changes, requestedBy: key.keyId, at: now() }
          if (tenant.livemode && raisesFee(beforeSchedule, nextSchedule)) {
            const held = yield* repo.request(tenant, change).pipe(
              Effect.catchTags({
                DuplicateRecord: () =>
                  new ApiError.InvalidRequestError({
                    code: "fee_config_change_pending",
                    message:
                      "A change is already pending approval: approve or cancel it (POST /v1/fee-configs/pending/approve or /cancel) first."
                  }),
                StorageError: Config.unavailable
              })
            )
            return Config.toWire(rules, tenant, before, {
              pending: Option.some(held),
              updated: false
            })
          }
          return yield* applying(
            tenant,
            repo.apply(tenant, change).pipe(Effect.catchTag("DuplicateRecord", Effect.die)),
            yield* pendingOf(tenant)
          ).pipe(Effect.catchTag("StorageError", Config.unavailable))
        })
      )
      .handle("approvePending", () =>
        Effect.gen(function* () {
          const key = yield* CurrentKey.CurrentKey
          const tenant = Config.tenantOf(key)
          const pending = yield* pendingOf(tenant)
          if (Option.isNone(pending)) {
            return yield* new ApiError.NotFoundError({
              message: "No fee configuration change is pending."
            })
          }
          if (pending.value.requestedBy === key.keyId) {
            return yield* new ApiError.PermissionError({
              code: "approval_requires_another_key",
              message:
                "A pending change must be approved with a different secret key than the one that requested it."
            })
          }
          // The configuration may have changed since the request: the result must still be valid.
          const { config: before } = yield* Config.current(tenant)
          const next = Config.fromJson(Config.toJson({ ...before, ...pending.value.changes }))
          yield* checkDefaultRegion(rules, next, yield* Config.schedule(next))
          return yield* applying(
            tenant,
            repo.approve(tenant, { by: key.keyId, at: now() }),
            Option.none()
          ).pipe(
            Effect.catchTags({
              RecordNotFound: () =>
                new ApiError.NotFoundError({ message: "No fee configuration change is pending." }),
              StorageError: Config.unavailable
            })
          )
        })
      )
      .handle("cancelPending", () =>
        Effect.gen(function* () {
          const key = yield* CurrentKey.CurrentKey
          const tenant = Config.tenantOf(key)
          yield* repo.cancel(tenant, { by: key.keyId, at: now() }).pipe(
            Effect.catchTags({
              RecordNotFound: () =>
                new ApiError.NotFoundError({ message: "No fee configuration change is pending." }),
              StorageError: Config.unavailable
            })
          )
          const { config } = yield* Config.current(tenant)
          return Config.toWire(rules, tenant, config, { pending: Option.none() })
        })
      )
  })
)

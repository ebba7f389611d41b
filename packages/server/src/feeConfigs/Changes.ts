/**
 * Applying fee configuration changes (docs/design.md §6), shared by the HTTP handlers and the
 * `levy fee-configs approve|cancel` command: the compliance check of a configuration in its
 * `defaultRegion`, applying a change together with its `fee_config.updated` event, and
 * approving or cancelling the pending (live-mode) change. Failures are API errors, so the
 * handlers return them as they are and the CLI prints their message.
 */
import { ApiError, FeeConfig } from "@levy/api"
import { Compliance, ComplianceRules, type FeeSchedule } from "@levy/core"
import {
  type Applied,
  EventRepository,
  type FeeConfigChange,
  FeeConfigRepository,
  Ids,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, Either, Option } from "effect"
import * as Outbox from "../events/Outbox.js"
import * as Idempotency from "../http/Idempotency.js"
import * as Config from "./Config.js"

const now = () => Math.floor(Date.now() / 1000)

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

const noPending = (id?: string) =>
  new ApiError.NotFoundError({
    message:
      id === undefined
        ? "No fee configuration change is pending."
        : `No pending fee configuration change '${id}': it was approved, cancelled or replaced. Read the pending change (GET /v1/fee-configs) and approve it by its id.`,
    ...(id === undefined ? {} : { param: "id" })
  })

/** The operations, over the services they need. */
export const make = Effect.gen(function* () {
  const rules = yield* ComplianceRules
  const repo = yield* FeeConfigRepository
  const _events = yield* EventRepository
  const transactions = yield* Transactions
  const _ids = yield* Ids

  /**
   * A configuration must be compliant in its `defaultRegion` for a consumer's credit card
   * (the card a surcharge is commonly allowed on), without an amount: the nominal rate; by
   * the ruleset version the configuration pins.
   */
  const checkDefaultRegion = (config: Config.StoredConfig, schedule: FeeSchedule.FeeSchedule) =>
    Effect.gen(function* () {
      if (config.defaultRegion === null) return
      const costOfAcceptance = yield* Config.costOfAcceptancePpm(config.costOfAcceptance)
      const ruleset = yield* Config.pinnedRuleset(rules, config)
      const verdict = yield* Compliance.check(ruleset, {
        region: config.defaultRegion,
        cardType: "credit",
        percentage: schedule.percentage,
        flatFee: schedule.flatFee,
        costOfAcceptance,
        allowUncertain: config.allowUncertain
      }).pipe(
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

  const pendingOf = (tenant: Tenant.Tenant) =>
    repo.pending(tenant).pipe(Effect.catchTag("StorageError", Config.unavailable))

  /**
   * Runs a change that applies the configuration, writing `fee_config.updated` and the
   * request's idempotent response with it.
   */
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
        yield* Outbox.record(tenant, "fee_config.updated", wire)
        yield* Idempotency.recordSuccess(FeeConfig.FeeConfig, wire)
        return wire
      })
    )

  /**
   * Applies the pending change `id`, approved `by` (a key id, or "cli" for the owner on the
   * command line); never by the key that requested it. Both checks, and the compliance of the
   * result, run under the lock that applies it: a change swapped in after the approver looked
   * is not the one named, so it is not applied.
   */
  const approve = (tenant: Tenant.Tenant, id: string, by: string) =>
    applying(
      tenant,
      repo.approve(tenant, {
        id,
        by,
        at: now(),
        check: (pending, stored) =>
          Effect.gen(function* () {
            if (pending.requestedBy === by) {
              return yield* new ApiError.PermissionError({
                code: "approval_requires_another_key",
                message:
                  "A pending change must be approved with a different secret key than the one that requested it."
              })
            }
            // The configuration may have changed since the request: the result must still be valid.
            const next = Config.fromJson({ ...stored, ...pending.changes })
            yield* checkDefaultRegion(next, yield* Config.schedule(next))
          })
      }),
      Option.none()
    ).pipe(
      Effect.catchTags({ RecordNotFound: () => noPending(id), StorageError: Config.unavailable })
    )

  /** Drops the pending change, cancelled `by`; returns the configuration in force. */
  const cancel = (tenant: Tenant.Tenant, by: string) =>
    Effect.gen(function* () {
      // A pending change means the configuration is stored; without one nothing is written.
      const config = yield* Config.peek(tenant)
      const wire = Config.toWire(rules, tenant, config, { pending: Option.none() })
      yield* transactions
        .run(
          Effect.zipRight(
            repo.cancel(tenant, { by, at: now() }),
            Idempotency.recordSuccess(FeeConfig.FeeConfig, wire)
          )
        )
        .pipe(
          Effect.catchTags({ RecordNotFound: () => noPending(), StorageError: Config.unavailable })
        )
      return wire
    })

  return { checkDefaultRegion, pendingOf, applying, approve, cancel } as const
})

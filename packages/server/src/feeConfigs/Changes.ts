/**
 * What the fee configuration workflows share (docs/design.md §6): the compliance check of a
 * configuration in its `defaultRegion`, and applying a change together with its
 * `fee_config.updated` event and the response stored for the request's key.
 */
import { FeeConfig } from "@levy/api"
import {
  Compliance,
  ComplianceRules,
  FeeError,
  type FeeSchedule,
  RulesetVersions
} from "@levy/core"
import { type Applied, type FeeConfigChange, type Tenant, Transactions } from "@levy/storage"
import { Effect, Either, type Option } from "effect"
import * as Outbox from "../events/Outbox.js"
import * as Claims from "../idempotency/Claim.js"
import * as Config from "./Config.js"
import { DefaultRegionNotCompliant, RulesetVersionUnknown } from "./FeeConfigErrors.js"

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

/** A pin to set must name a released version (or "latest"). */
export const checkPin = (config: Config.StoredConfig) =>
  config.rulesetVersion === RulesetVersions.LATEST ||
  RulesetVersions.find(config.rulesetVersion) !== undefined
    ? Effect.void
    : Effect.fail(new RulesetVersionUnknown({ version: config.rulesetVersion }))

/**
 * A configuration must be compliant in its `defaultRegion` for a consumer's credit card (the
 * card a surcharge is commonly allowed on), without an amount: the nominal rate; by the
 * ruleset version the configuration pins.
 */
export const checkDefaultRegion = (
  config: Config.StoredConfig,
  schedule: FeeSchedule.FeeSchedule
): Effect.Effect<void, FeeError | DefaultRegionNotCompliant, ComplianceRules> =>
  Effect.gen(function* () {
    if (config.defaultRegion === null) return
    const costOfAcceptance = yield* Config.costOfAcceptanceOf(config.costOfAcceptance)
    const ruleset = yield* Config.pinnedRuleset(yield* ComplianceRules, config)
    const verdict = yield* Compliance.check(ruleset, {
      region: config.defaultRegion,
      cardType: "credit",
      percentage: schedule.percentage,
      flatFee: schedule.flatFee,
      costOfAcceptance,
      allowUncertain: config.allowUncertain
    }).pipe(
      // The region checked is the configuration's own: name the field it came from.
      Either.mapLeft((e) =>
        e.param === "region"
          ? new FeeError({ code: e.code, message: e.message, param: "defaultRegion" })
          : e
      )
    )
    if (!verdict.compliant) {
      return yield* new DefaultRegionNotCompliant({
        region: config.defaultRegion,
        reasonCode: verdict.reasonCode,
        reason: verdict.reason,
        param: paramOfReason(verdict.reasonCode)
      })
    }
  })

/**
 * Runs `write`, a change that applies the configuration, in one transaction with its
 * `fee_config.updated` event and the response stored for `claim`; the configuration as the
 * wire shows it after the change.
 */
export const applying = <E, R>(
  tenant: Tenant.Tenant,
  write: Effect.Effect<Applied, E, R>,
  pending: Option.Option<FeeConfigChange>,
  claim: Option.Option<Claims.Claim>
) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    const transactions = yield* Transactions
    return yield* transactions.run(
      Effect.gen(function* () {
        const applied = yield* write
        const config = Config.fromJson(applied.config.config)
        const wire = Config.toWire(rules, tenant, config, {
          pending,
          version: applied.config.version,
          updated: true
        })
        yield* Outbox.recordUnder(claim, tenant, "fee_config.updated", wire)
        yield* Claims.recordSuccess(claim, FeeConfig.FeeConfig, wire)
        return wire
      })
    )
  })

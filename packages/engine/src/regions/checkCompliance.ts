/**
 * Whether a fee is compliant in a place (docs/design.md §3), by the ruleset version the
 * account pins (an account never configured follows the latest). A place that forbids fees
 * answers `compliant: false`; a place the ruleset does not know is refused as a charge refuses
 * it (`FeeNotCompliant`, `unknown_region`): no fee is checked there.
 */
import { type CheckComplianceRequest, ComplianceCheckResult } from "@levy/api"
import { Compliance, ComplianceRules, type FeeError, Rate } from "@levy/core"
import { FeeConfigRepository, type StorageError, type Tenant } from "@levy/storage"
import { Effect, Either, Option } from "effect"
import type { FeeNotCompliant } from "../estimates/PaymentErrors.js"
import * as Quote from "../estimates/Quote.js"
import * as Config from "../feeConfigs/Config.js"

export type CheckComplianceError = FeeError | FeeNotCompliant | StorageError

/**
 * The tenant's ruleset (the version its fee configuration pins, else the latest) and its
 * merchant category, which a check that states none is judged with, as a charge is.
 */
const accountOf = (tenant: Tenant.Tenant) =>
  Effect.gen(function* () {
    const rules = yield* ComplianceRules
    const found = yield* Effect.flatMap(FeeConfigRepository, (repo) => repo.get(tenant))
    if (Option.isNone(found)) return { ruleset: rules.ruleset, category: null }
    const config = Config.fromJson(found.value.config)
    const ruleset = yield* Config.pinnedRuleset(rules, config)
    return { ruleset, category: config.merchantCategoryCode }
  })

export const checkCompliance = (
  tenant: Tenant.Tenant,
  request: CheckComplianceRequest.CheckComplianceRequest
): Effect.Effect<
  ComplianceCheckResult.ComplianceCheckResult,
  CheckComplianceError,
  ComplianceRules | FeeConfigRepository
> =>
  Effect.gen(function* () {
    const { percentage, flatFee, costOfAcceptance, ...context } = request
    const input = yield* Either.all({
      percentage: Rate.parsePercentage(percentage),
      flatFee: Rate.parseFlatFee(flatFee),
      costOfAcceptance:
        costOfAcceptance === undefined
          ? Either.right(undefined)
          : Rate.parsePercentage(costOfAcceptance, "costOfAcceptance")
    })
    const { ruleset, category } = yield* accountOf(tenant)
    const verdict = yield* Compliance.check(ruleset, {
      ...context,
      merchantCategoryCode: context.merchantCategoryCode ?? category,
      ...input
    })
    const unknown = Quote.unknownRegion(verdict)
    if (unknown !== undefined) return yield* unknown
    return ComplianceCheckResult.fromEngine(request.region, verdict)
  })

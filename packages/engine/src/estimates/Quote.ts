/**
 * An estimate from an account's configuration, pure (docs/design.md §2, §3): what a charge
 * with the same inputs collects, its disclosure rendered. The HTTP handler (EstimatesLive.ts)
 * and the in-process workflow (createEstimate.ts) both answer through it; each turns the
 * engine's `FeeError` into its own failure. A region the ruleset does not know is refused as a
 * charge refuses it (`FeeNotCompliant`, `unknown_region`): a quote is what a charge collects,
 * and a charge there collects nothing (docs/compliance.md).
 */
import { type EstimateRequest, Estimate as EstimateWire } from "@levy/api"
import { Estimate, type FeeError, type FeeSchedule, type Ruleset } from "@levy/core"
import { Either } from "effect"
import * as Config from "../feeConfigs/Config.js"
import { FeeNotCompliant } from "./PaymentErrors.js"

/** The estimate of `payload` under `config` (its schedule and ruleset already resolved). */
export const quote = (
  config: Config.StoredConfig,
  schedule: FeeSchedule.FeeSchedule,
  ruleset: Ruleset.Ruleset,
  payload: EstimateRequest.EstimateRequest
): Either.Either<EstimateWire.Estimate, FeeError | FeeNotCompliant> => {
  const { costOfAcceptance, merchantCategoryCode, region, source: _source, ...context } = payload
  const coa = Config.costOfAcceptanceOf(costOfAcceptance ?? config.costOfAcceptance)
  if (Either.isLeft(coa)) return Either.left(coa.left)
  const where = Config.regionOf(config, region)
  if (Either.isLeft(where)) return Either.left(where.left)
  const estimated = Estimate.estimate(schedule, ruleset, {
    ...context,
    region: where.right,
    costOfAcceptance: coa.right,
    merchantCategoryCode: merchantCategoryCode ?? config.merchantCategoryCode,
    allowUncertain: config.allowUncertain
  })
  if (Either.isLeft(estimated)) return Either.left(estimated.left)
  const unknown = unknownRegion(estimated.right.compliance)
  if (unknown !== undefined) return Either.left(unknown)
  // Under `reject` a charge is refused, not lowered: the estimate says so.
  const quoted =
    config.nonCompliant === "reject" ? Estimate.asConfigured(estimated.right) : estimated.right
  const wire = EstimateWire.fromEngine(quoted)
  // A day, a cost of acceptance or a merchant category of the caller's choosing: no charge is
  // judged by them.
  const whatIf =
    payload.date !== undefined ||
    costOfAcceptance !== undefined ||
    merchantCategoryCode !== undefined
  return Either.right(whatIf ? { ...wire, whatIf: true } : wire)
}

/**
 * The charge's refusal of a place the ruleset does not know (Payment.checkCompliant), for any
 * verdict: an estimate, a compliance check. Undefined for a known place, whatever its verdict.
 */
export const unknownRegion = (verdict: {
  readonly reasonCode: string | null
  readonly reason: string | null
}): FeeNotCompliant | undefined =>
  verdict.reasonCode === "unknown_region"
    ? new FeeNotCompliant({ reasonCode: verdict.reasonCode, reason: verdict.reason })
    : undefined

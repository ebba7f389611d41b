/**
 * The fee engine in the page: @levy/core is pure (no I/O), and its shipped ruleset is the one
 * the server checks against (same workspace version), so the draft preview and the compliance
 * matrix are computed here on every keystroke, with no request: the matrix alone would be
 * 3 checks × every region, far past the API's rate limit.
 */
import type { FeeConfig } from "@levy/api"
import {
  Compliance,
  Estimate,
  type FeeError,
  FeeSchedule,
  Rate,
  RegionInfo,
  Ruleset
} from "@levy/core"

/** The configuration fields the engine reads: a saved configuration or the form's draft. */
export type Draft = Pick<
  FeeConfig.FeeConfig,
  | "percentage"
  | "flatFee"
  | "minFee"
  | "maxFee"
  | "minAmount"
  | "maxAmount"
  | "rounding"
  | "model"
  | "costOfAcceptance"
  | "merchantCategoryCode"
  | "allowUncertain"
  | "defaultRegion"
  | "currencyFees"
>

/** A draft the engine accepts: its schedule and its cost of acceptance (parts per million). */
export interface Prepared {
  readonly draft: Draft
  readonly schedule: FeeSchedule.FeeSchedule
  readonly costOfAcceptance: Rate.Percentage | undefined
}

/** An input the engine refuses: the field it names and why. */
export interface Refusal {
  readonly param: string
  readonly message: string
}

type Result<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly error: Refusal }

const refused = (error: FeeError): { readonly ok: false; readonly error: Refusal } => ({
  ok: false,
  error: { param: error.param, message: error.message }
})

/** The engine's schedule for a draft, exactly as the server builds one (Config.scheduleOf). */
export const prepare = (draft: Draft): Result<Prepared> => {
  const schedule = FeeSchedule.make(draft)
  if (schedule._tag === "Left") return refused(schedule.left)
  if (draft.costOfAcceptance === null)
    return { ok: true, value: { draft, schedule: schedule.right, costOfAcceptance: undefined } }
  const coa = Rate.parsePercentage(draft.costOfAcceptance, "costOfAcceptance")
  if (coa._tag === "Left") return refused(coa.left)
  return { ok: true, value: { draft, schedule: schedule.right, costOfAcceptance: coa.right } }
}

/** What a sample is estimated for: the preview's controls. */
export interface Sample {
  readonly amount: number
  readonly currency: string
  readonly region: string | undefined
  readonly cardType: Compliance.ComplianceContext["cardType"]
}

/** The estimate POST /v1/estimates would give for `sample` under the draft. */
export const estimate = (prepared: Prepared, sample: Sample): Result<Estimate.Estimate> => {
  const result = Estimate.estimate(prepared.schedule, Ruleset.DEFAULT, {
    amount: sample.amount,
    currency: sample.currency,
    region: sample.region ?? prepared.draft.defaultRegion,
    cardType: sample.cardType,
    costOfAcceptance: prepared.costOfAcceptance,
    merchantCategoryCode: prepared.draft.merchantCategoryCode,
    allowUncertain: prepared.draft.allowUncertain
  })
  return result._tag === "Left" ? refused(result.left) : { ok: true, value: result.right }
}

let regions: ReadonlyArray<RegionInfo.RegionInfo> | undefined

/** Every region of the ruleset (its places), by code: what GET /v1/regions pages through. */
export const allRegions = (): ReadonlyArray<RegionInfo.RegionInfo> => {
  regions ??= RegionInfo.list(Ruleset.DEFAULT)
  return regions
}

/**
 * The verdict on the draft's nominal fee in a region for a card type, as
 * POST /v1/regions/check-compliance gives it, with the draft's own opt-in to uncertain law
 * cost of acceptance and merchant category (a charge under this configuration is checked with
 * them).
 */
export const check = (
  prepared: Prepared,
  region: string,
  cardType: NonNullable<Sample["cardType"]>
): Result<Compliance.ComplianceVerdict> => {
  const result = Compliance.check(Ruleset.DEFAULT, {
    region,
    cardType,
    percentage: prepared.schedule.percentage,
    flatFee: prepared.schedule.flatFee,
    costOfAcceptance: prepared.costOfAcceptance,
    merchantCategoryCode: prepared.draft.merchantCategoryCode,
    allowUncertain: prepared.draft.allowUncertain
  })
  return result._tag === "Left" ? refused(result.left) : { ok: true, value: result.right }
}

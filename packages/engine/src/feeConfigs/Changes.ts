/**
 * What the fee configuration workflows share (docs/design.md §6): the compliance check of a
 * configuration in its `defaultRegion`, and applying a change together with its
 * `fee_config.updated` event and the response stored for the request's key.
 */
import { FeeConfig } from "@levy/api"
import {
  Compliance,
  ComplianceRules,
  Currency,
  Fee,
  FeeError,
  FeeSchedule,
  isFeeError,
  type Ruleset,
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
 * card a surcharge is commonly allowed on), judged on the whole fee (docs/design.md §6): the
 * nominal rate and flat fee against the caps, then the fee at the smallest amount the
 * configuration accepts in the region's currency, where a flat fee or a minimum fee weighs
 * most. That fee's percentage part is rounded down, so a rate exactly at a cap is never
 * refused for a rounding the charge would lower by a minor unit anyway.
 */
export const checkDefaultRegion = (
  config: Config.StoredConfig,
  schedule: FeeSchedule.FeeSchedule
): Effect.Effect<void, FeeError | DefaultRegionNotCompliant, ComplianceRules> =>
  Effect.gen(function* () {
    if (config.defaultRegion === null) return
    const region = config.defaultRegion
    const costOfAcceptance = yield* Config.costOfAcceptanceOf(config.costOfAcceptance)
    const ruleset = yield* Config.pinnedRuleset(yield* ComplianceRules, config)
    const context = {
      region,
      cardType: "credit",
      percentage: schedule.percentage,
      costOfAcceptance,
      merchantCategoryCode: config.merchantCategoryCode,
      allowUncertain: config.allowUncertain
    } as const
    const nominal = yield* Compliance.check(ruleset, {
      ...context,
      flatFee: schedule.flatFee
    }).pipe(Either.mapLeft(asDefaultRegionError))
    if (!nominal.compliant) return yield* notCompliant(region, nominal)
    const unit = placeCurrency(ruleset, region)
    if (unit === undefined) return
    const smallest = smallestAccepted(schedule, unit)
    const at = (amount: number) => wholeFeeVerdict(ruleset, context, schedule, unit, amount)
    const verdict = yield* at(smallest)
    if (verdict.compliant) return
    const from = yield* leastCompliantAmount(at, smallest, largestAccepted(schedule, unit))
    return yield* notCompliant(region, verdict, wholeFeeHint(unit, smallest, from))
  })

/** A region named by the configuration: an engine refusal about it names `defaultRegion`. */
const asDefaultRegionError = (e: FeeError) =>
  e.param === "region"
    ? new FeeError({ code: e.code, message: e.message, param: "defaultRegion" })
    : e

const notCompliant = (region: string, verdict: Compliance.ComplianceVerdict, hint?: string) =>
  new DefaultRegionNotCompliant({
    region,
    reasonCode: verdict.reasonCode,
    reason: hint === undefined ? verdict.reason : `${verdict.reason ?? "Not allowed."} ${hint}`,
    param: hint === undefined ? paramOfReason(verdict.reasonCode) : "minAmount"
  })

/** The currency of the place's rules (its flat caps are in it), if the ruleset knows the place. */
const placeCurrency = (ruleset: Ruleset.Ruleset, region: string) => {
  const versions = ruleset.places.get(region.toUpperCase())
  const code = versions?.[versions.length - 1]?.rule.currency
  return code === undefined ? undefined : Currency.lookup(code)
}

const smallestAccepted = (schedule: FeeSchedule.FeeSchedule, unit: Currency.Currency) => {
  const least = Math.max(schedule.minAmount, unit.minimumCharge)
  return Math.ceil(least / unit.increment) * unit.increment
}

const largestAccepted = (schedule: FeeSchedule.FeeSchedule, unit: Currency.Currency) =>
  Math.min(schedule.maxAmount ?? unit.maximumCharge, unit.maximumCharge)

/**
 * The verdict on the configured fee at `amount`, its percentage part rounded down. A quote the
 * engine refuses (a flat fee the currency cannot carry) is the change's error.
 */
const wholeFeeVerdict = (
  ruleset: Ruleset.Ruleset,
  context: Omit<Compliance.ComplianceInput, "flatFee">,
  schedule: FeeSchedule.FeeSchedule,
  unit: Currency.Currency,
  amount: number
) => {
  const q = Fee.quoteIn({ ...schedule, rounding: "down" }, amount, unit, unit.code)
  if (isFeeError(q)) return Either.left(q)
  return Compliance.check(ruleset, {
    ...context,
    flatFee: FeeSchedule.feesIn(schedule, unit).flatFee,
    amount,
    currency: unit.code,
    fee: q.convenienceFee,
    flatPart: Math.min(q.feeBreakdown.flatFee, q.convenienceFee)
  })
}

/**
 * The least amount in (`from`, `to`] at which the fee is compliant, or undefined: the share a
 * flat or minimum fee takes only falls as the amount grows, so the search halves the range.
 */
const leastCompliantAmount = (
  at: (amount: number) => Either.Either<Compliance.ComplianceVerdict, FeeError>,
  from: number,
  to: number
) =>
  Effect.gen(function* () {
    // The largest amount is refused when the fee takes the total over the currency's maximum:
    // look lower for the top of the range.
    let top = to
    while (top > from && isTooLarge(at(top))) top = Math.floor((from + top) / 2)
    if (top <= from || !(yield* at(top)).compliant) return undefined
    let refused = from
    let allowed = top
    while (allowed - refused > 1) {
      const mid = Math.floor((refused + allowed) / 2)
      if ((yield* at(mid)).compliant) allowed = mid
      else refused = mid
    }
    return allowed
  })

const isTooLarge = (verdict: Either.Either<unknown, FeeError>) =>
  Either.isLeft(verdict) && verdict.left.code === "amount_too_large"

const wholeFeeHint = (unit: Currency.Currency, smallest: number, from: number | undefined) =>
  from === undefined
    ? `With its flat or minimum fee the fee is over the cap at every amount the configuration accepts from ${Currency.describe(unit, smallest)}: lower the flat fee, minFee or percentage.`
    : `With its flat or minimum fee the fee is over the cap on amounts below ${Currency.describe(unit, from)}: set minAmount to at least ${from} (minor units), or lower the flat fee, minFee or percentage.`

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

/**
 * The reference `FeeRaise` is judged by (FeeRaise.property.test.ts): brute force with the real
 * engine, sharing no code with the decision. A charge's fee is computed as the charge handler
 * computes it (createCharge.ts: the region or the account's default, refused when the account
 * requires one; `Estimate.chargeQuote`; refused when not compliant, or when lowered under
 * `nonCompliant: reject`), and a raise is looked for at every amount of a domain in every
 * context given.
 */
import { type Compliance, type ComplianceRules, Estimate, FeeSchedule } from "@levy/core"
import { type Context, Either } from "effect"
import * as Config from "../src/feeConfigs/Config.js"

type Rules = Context.Tag.Service<ComplianceRules>

/** A charge request's pricing fields: amount, currency and its compliance context. */
export type Request = Omit<
  Compliance.ComplianceContext,
  "costOfAcceptance" | "merchantCategoryCode" | "allowUncertain"
> & {
  readonly amount: number
  readonly currency: string
}

/** The fee a charge collects under `config`; undefined when the charge is refused. */
export const chargedFee = (
  rules: Rules,
  config: Config.StoredConfig,
  request: Request
): number | undefined => feeUnder(rules, config)(request)

/**
 * The fee a charge collects under `config`, as a function of the request: the configuration's
 * parts are read once, not at every amount of the brute force.
 */
const feeUnder = (rules: Rules, config: Config.StoredConfig) => {
  const schedule = FeeSchedule.make(config)
  const coa = Config.costOfAcceptanceOf(config.costOfAcceptance)
  const ruleset = Config.rulesetOf(rules, config)
  return (request: Request): number | undefined => {
    const region = Config.regionOf(config, request.region ?? undefined)
    if (Either.isLeft(schedule) || Either.isLeft(region) || Either.isLeft(coa)) return undefined
    if (ruleset === undefined) return undefined
    const quote = Estimate.chargeQuote(schedule.right, ruleset, {
      ...request,
      region: region.right,
      costOfAcceptance: coa.right,
      merchantCategoryCode: config.merchantCategoryCode,
      allowUncertain: config.allowUncertain
    })
    if (Either.isLeft(quote)) return undefined
    const q = quote.right
    if (!q.compliant) return undefined
    if (config.nonCompliant === "reject" && !q.configured.compliant) return undefined
    return q.convenienceFee
  }
}

/** Whether the charge collects more under `next` than under `before`, or is refused before and collects a fee after. */
export const raisedAt = (
  rules: Rules,
  before: Config.StoredConfig,
  next: Config.StoredConfig,
  request: Request
): boolean => raisedUnder(feeUnder(rules, before), feeUnder(rules, next))(request)

type Fee = (request: Request) => number | undefined

const raisedUnder =
  (before: Fee, next: Fee) =>
  (request: Request): boolean => {
    const after = next(request)
    if (after === undefined) return false
    const was = before(request)
    return was === undefined ? after > 0 : after > was
  }

/** Every amount from one increment up to `upTo` in each currency, in every context: the first raise. */
export const bruteRaise = (
  rules: Rules,
  before: Config.StoredConfig,
  next: Config.StoredConfig,
  currencies: ReadonlyArray<{ readonly code: string; readonly increment: number }>,
  contexts: ReadonlyArray<Omit<Request, "amount" | "currency">>,
  upTo: number
): Request | undefined => {
  const raised = raisedUnder(feeUnder(rules, before), feeUnder(rules, next))
  for (const { code, increment } of currencies)
    for (const context of contexts)
      for (let amount = increment; amount <= upTo; amount += increment) {
        const request = { ...context, amount, currency: code }
        if (raised(request)) return request
      }
  return undefined
}

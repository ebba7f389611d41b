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
export type Request = Omit<Compliance.ComplianceContext, "costOfAcceptance" | "allowUncertain"> & {
  readonly amount: number
  readonly currency: string
}

/** The fee a charge collects under `config`; undefined when the charge is refused. */
export const chargedFee = (
  rules: Rules,
  config: Config.StoredConfig,
  request: Request
): number | undefined => {
  const schedule = FeeSchedule.make(config)
  const region = Config.regionOf(config, request.region ?? undefined)
  const coa = Config.costOfAcceptanceOf(config.costOfAcceptance)
  const ruleset = Config.rulesetOf(rules, config)
  if (Either.isLeft(schedule) || Either.isLeft(region) || Either.isLeft(coa)) return undefined
  if (ruleset === undefined) return undefined
  const quote = Estimate.chargeQuote(schedule.right, ruleset, {
    ...request,
    region: region.right,
    costOfAcceptance: coa.right,
    allowUncertain: config.allowUncertain
  })
  if (Either.isLeft(quote)) return undefined
  const q = quote.right
  if (!q.compliant) return undefined
  if (config.nonCompliant === "reject" && !q.configured.compliant) return undefined
  return q.convenienceFee
}

/** Whether the charge collects more under `next` than under `before`, or is refused before and collects a fee after. */
export const raisedAt = (
  rules: Rules,
  before: Config.StoredConfig,
  next: Config.StoredConfig,
  request: Request
): boolean => {
  const after = chargedFee(rules, next, request)
  if (after === undefined) return false
  const was = chargedFee(rules, before, request)
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
  for (const { code, increment } of currencies)
    for (const context of contexts)
      for (let amount = increment; amount <= upTo; amount += increment) {
        const request = { ...context, amount, currency: code }
        if (raisedAt(rules, before, next, request)) return request
      }
  return undefined
}

/**
 * Fee calculation as an Effect service over the plain functions, with the compliance
 * rules it checks against resolved once from `ComplianceRules`.
 */
import { Context, Effect, type Either, Layer } from "effect"
import { ComplianceRules } from "./ComplianceRules.js"
import type { Ruleset } from "./compliance/Ruleset.js"
import * as Estimate from "./Estimate.js"
import * as Fee from "./Fee.js"
import type { FeeError } from "./FeeError.js"
import type { FeeSchedule } from "./FeeSchedule.js"

export interface FeeCalculatorService {
  readonly quote: (
    schedule: FeeSchedule,
    amount: unknown,
    currency: unknown
  ) => Either.Either<Fee.FeeQuote, FeeError>
  readonly estimate: (
    schedule: FeeSchedule,
    request: Estimate.FeeRequest
  ) => Either.Either<Estimate.Estimate, FeeError>
  readonly chargeQuote: (
    schedule: FeeSchedule,
    request: Estimate.FeeRequest
  ) => Either.Either<Estimate.ChargeQuote, FeeError>
}

/** The service checking against `ruleset`. */
export const make = (ruleset: Ruleset): FeeCalculatorService => ({
  quote: Fee.quote,
  estimate: (schedule, request) => Estimate.estimate(schedule, ruleset, request),
  chargeQuote: (schedule, request) => Estimate.chargeQuote(schedule, ruleset, request)
})

export class FeeCalculator extends Context.Tag("@levy/core/FeeCalculator")<
  FeeCalculator,
  FeeCalculatorService
>() {
  /** Needs `ComplianceRules`. */
  static readonly Live = Layer.effect(
    FeeCalculator,
    Effect.map(ComplianceRules, (rules) => make(rules.ruleset))
  )
  /** With the shipped ruleset. */
  static readonly Default = FeeCalculator.Live.pipe(Layer.provide(ComplianceRules.Live))
}

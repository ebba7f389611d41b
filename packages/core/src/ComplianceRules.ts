/**
 * The compliance engine as an Effect service: the shipped ruleset by default, or one an
 * embedding application builds or overrides. Methods return `Either`, which is an Effect,
 * so a caller can `yield*` them without a fiber per call.
 */
import { Context, type Either, Layer } from "effect"
import * as Compliance from "./compliance/Compliance.js"
import * as RegionInfo from "./compliance/RegionInfo.js"
import type { Rule } from "./compliance/Rule.js"
import * as Ruleset from "./compliance/Ruleset.js"
import type { FeeError } from "./FeeError.js"

export interface ComplianceRulesService {
  readonly ruleset: Ruleset.Ruleset
  readonly check: (
    input: Compliance.ComplianceInput
  ) => Either.Either<Compliance.ComplianceVerdict, FeeError>
  readonly maxFee: (
    input: Compliance.ComplianceInput & { readonly amount: number }
  ) => Either.Either<number | null, FeeError>
  readonly region: (code: string, date?: string) => RegionInfo.RegionInfo | undefined
  readonly regions: (date?: string) => ReadonlyArray<RegionInfo.RegionInfo>
}

/** The service over a ruleset. */
export const make = (ruleset: Ruleset.Ruleset): ComplianceRulesService => ({
  ruleset,
  check: (input) => Compliance.check(ruleset, input),
  maxFee: (input) => Compliance.maxFee(ruleset, input),
  region: (code, date) => RegionInfo.describe(ruleset, code, date),
  regions: (date) => RegionInfo.list(ruleset, date)
})

export class ComplianceRules extends Context.Tag("@levy/core/ComplianceRules")<
  ComplianceRules,
  ComplianceRulesService
>() {
  /** The shipped ruleset, from the cited dataset. */
  static readonly Live = Layer.succeed(ComplianceRules, make(Ruleset.DEFAULT))
  /** A custom ruleset. */
  static readonly layer = (ruleset: Ruleset.Ruleset) =>
    Layer.succeed(ComplianceRules, make(ruleset))
  /** The shipped ruleset with `rules` laid over it; `version` names the overrides. */
  static readonly withOverrides = (rules: ReadonlyArray<Rule>, version: string) =>
    Layer.succeed(ComplianceRules, make(Ruleset.override(Ruleset.DEFAULT, rules, version)))
}

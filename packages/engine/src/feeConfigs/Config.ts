/**
 * The account's fee configuration as stored (a JSON object of the wire's fields, docs/design.md
 * §6) and what the handlers need from it: the lazily created default, the engine's
 * `FeeSchedule` (or its refusal, a `FeeError` naming the field) and the wire `FeeConfig`.
 */

import type { FeeConfig, FeeConfigUpdate } from "@levy/api"
import {
  type ComplianceRules,
  FeeError,
  FeeSchedule,
  Rate,
  RegionInfo,
  type Ruleset,
  RulesetVersions
} from "@levy/core"
import {
  type FeeConfigChange,
  FeeConfigRepository,
  type JsonObject,
  type Tenant,
  UNSTORED_VERSION
} from "@levy/storage"
import { type Context, Effect, Either, Option } from "effect"

/** The stored configuration: every field of `FeeConfigUpdate`, all present. */
export interface StoredConfig {
  readonly percentage: number
  readonly flatFee: number
  readonly minAmount: number
  readonly maxAmount: number | null
  readonly billingMode: FeeConfig.FeeConfig["billingMode"]
  readonly rounding: FeeConfig.FeeConfig["rounding"]
  readonly model: FeeConfig.FeeConfig["model"]
  readonly minFee: number | null
  readonly maxFee: number | null
  readonly costOfAcceptance: number | null
  /** ISO 18245 merchant category code; null: none stated (docs/compliance.md "Merchant categories"). */
  readonly merchantCategoryCode: string | null
  readonly defaultRegion: string | null
  readonly nonCompliant: FeeConfigUpdate.NonCompliant
  readonly allowUncertain: boolean
  readonly requireRegion: boolean
  /** Live charges must name an estimate (docs/quotes.md). */
  readonly requireEstimate: boolean
  readonly currencyFees: Readonly<Record<string, FeeConfigUpdate.CurrencyFees>>
  readonly regionCodes: ReadonlyArray<string>
  /** "latest" or a pinned ruleset version (docs/design.md §3). */
  readonly rulesetVersion: string
}

/** A new account's configuration: the specification's default (docs/design.md §2). */
export const DEFAULT: StoredConfig = {
  percentage: 2.9,
  flatFee: 0.3,
  minAmount: 50,
  maxAmount: null,
  billingMode: "direct",
  rounding: "half_up",
  model: "add_on",
  minFee: null,
  maxFee: null,
  costOfAcceptance: null,
  merchantCategoryCode: null,
  defaultRegion: null,
  nonCompliant: "adjust",
  allowUncertain: false,
  requireRegion: false,
  requireEstimate: false,
  currencyFees: {},
  regionCodes: [],
  rulesetVersion: RulesetVersions.LATEST
}

/** The stored object over the defaults (a field the store lacks keeps its default). */
export const fromJson = (json: JsonObject): StoredConfig =>
  ({ ...DEFAULT, ...json }) as unknown as StoredConfig

export const toJson = (value: object): JsonObject => value as unknown as JsonObject

/**
 * The configuration in force, read without writing: the stored one, else the defaults. Reads,
 * quotes and charges use it, so a request that is refused leaves no row behind; only a change
 * to the configuration stores it.
 */
export const inForce = (tenant: Tenant.Tenant) => Effect.map(versioned(tenant), (v) => v.config)

/** The configuration in force with its version: what a change is decided against. */
export interface Versioned {
  readonly config: StoredConfig
  readonly version: number
}

/** `inForce` with the version a compare-and-set names (docs/design.md §6). */
export const versioned = (tenant: Tenant.Tenant) =>
  Effect.gen(function* () {
    const repo = yield* FeeConfigRepository
    const found = yield* repo.get(tenant)
    return Option.isSome(found)
      ? { config: fromJson(found.value.config), version: found.value.version }
      : { config: DEFAULT, version: UNSTORED_VERSION }
  })

/** The engine's schedule for a configuration, or the refusal naming the field. */
export const scheduleOf = (config: StoredConfig) => FeeSchedule.make(config)

/**
 * The defect for a stored configuration the engine refuses: the server's fault, answered
 * 500 (and logged), never a 400 that blames the caller for the account's stored data.
 */
export const refused = (error: { readonly message: string }) =>
  new Error(`The stored fee configuration is refused by the engine: ${error.message}`)

/** The refusal of a request without a region by an account that requires one. */
const regionRequired = new FeeError({
  code: "parameter_missing",
  param: "region",
  message:
    "Missing required param: region. This account requires one (requireRegion); pass the payer's region (US-NY, GB, ...) or set defaultRegion on the fee configuration."
})

/**
 * The region an estimate or charge is checked in: the request's, else the account's default.
 * With neither, no rules apply (answered `no_region`), unless the account requires a region.
 */
export const regionOf = (
  config: StoredConfig,
  requested: string | undefined
): Either.Either<string | null, FeeError> => {
  const region = requested ?? config.defaultRegion
  return region === null && config.requireRegion
    ? Either.left(regionRequired)
    : Either.right(region)
}

type Rules = Context.Tag.Service<ComplianceRules>

/**
 * The ruleset the account's estimates, charges and checks are decided by (docs/design.md §3):
 * the service's own for "latest" (with any overrides an embedding app laid over it), else the
 * pinned release; undefined for a version this server does not know.
 */
export const rulesetOf = (rules: Rules, config: StoredConfig): Ruleset.Ruleset | undefined =>
  config.rulesetVersion === RulesetVersions.LATEST
    ? rules.ruleset
    : RulesetVersions.find(config.rulesetVersion)?.ruleset()

/**
 * A stored pin this server does not know (a store written by a newer version of Levy) is the
 * server's fault, a defect, never a silent answer by another version.
 */
export const unknownPin = (config: StoredConfig) =>
  new Error(
    `The stored fee configuration pins an unknown ruleset: ${RulesetVersions.unknownMessage(config.rulesetVersion)}`
  )

/** The account's ruleset (`rulesetOf`), or the defect of an unknown stored pin. */
export const pinnedRuleset = (rules: Rules, config: StoredConfig) => {
  const ruleset = rulesetOf(rules, config)
  return ruleset === undefined ? Effect.die(unknownPin(config)) : Effect.succeed(ruleset)
}

/** `costOfAcceptance` in percent, as the wire has it → the engine's rate. */
export const costOfAcceptanceOf = (
  percent: number | null | undefined
): Either.Either<Rate.Percentage | undefined, FeeError> =>
  percent === null || percent === undefined
    ? Either.right(undefined)
    : Rate.parsePercentage(percent, "costOfAcceptance")

/** `costOfAcceptanceOf` in parts per million (for FeeRaise's own keys). */
export const costOfAcceptancePpm = (percent: number | null | undefined) =>
  Either.map(costOfAcceptanceOf(percent), (rate) => rate?.ppm)

/** The cap and disclosure rule of each listed region, as the account's ruleset answers today. */
export const regionsOf = (ruleset: Ruleset.Ruleset, codes: ReadonlyArray<string>) => {
  const out: Record<string, { maxPercentage: number; requiresDisclosure: boolean }> = {}
  for (const code of codes) {
    const info = RegionInfo.describe(ruleset, code)
    if (info !== undefined) {
      out[info.regionCode] = {
        maxPercentage: info.maxPercentage,
        requiresDisclosure: info.requiresDisclosure
      }
    }
  }
  return out
}

/**
 * The pending change as the wire shows it, stale when the configuration is no longer at the
 * version it was requested against (`version`: the one in force).
 */
export const pendingOf = (change: FeeConfigChange, version: number): FeeConfig.PendingChange => ({
  id: change.id,
  changes: change.changes as unknown as FeeConfig.PendingChange["changes"],
  requestedAt: change.created,
  stale: change.baseVersion !== version
})

/** The wire `FeeConfig`. */
export const toWire = (
  rules: Rules,
  tenant: Tenant.Tenant,
  config: StoredConfig,
  extra: {
    readonly pending: Option.Option<FeeConfigChange>
    /** The version of `config`: a pending change requested against another is stale. */
    readonly version: number
    readonly updated?: boolean | undefined
  }
): FeeConfig.FeeConfig => ({
  object: "fee_config",
  livemode: tenant.livemode,
  percentage: config.percentage,
  flatFee: config.flatFee,
  minAmount: config.minAmount,
  maxAmount: config.maxAmount,
  billingMode: config.billingMode,
  rounding: config.rounding,
  model: config.model,
  minFee: config.minFee,
  maxFee: config.maxFee,
  costOfAcceptance: config.costOfAcceptance,
  merchantCategoryCode: config.merchantCategoryCode,
  defaultRegion: config.defaultRegion,
  nonCompliant: config.nonCompliant,
  allowUncertain: config.allowUncertain,
  requireRegion: config.requireRegion,
  requireEstimate: config.requireEstimate,
  currencyFees: config.currencyFees,
  regionCodes: config.regionCodes,
  regions: regionsOf(rulesetOf(rules, config) ?? rules.ruleset, config.regionCodes),
  // Shown when pinned: an account that follows the latest answers the specification's fields only.
  ...(config.rulesetVersion === RulesetVersions.LATEST
    ? {}
    : { rulesetVersion: config.rulesetVersion }),
  ...(extra.updated === undefined ? {} : { updated: extra.updated }),
  ...(Option.isSome(extra.pending)
    ? { pendingChange: pendingOf(extra.pending.value, extra.version) }
    : {})
})

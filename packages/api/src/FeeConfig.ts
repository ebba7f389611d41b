/**
 * The account's fee configuration for the key's mode (`object: "fee_config"`, docs/design.md §6):
 * the specification's fields plus rounding, model, fee limits, compliance settings, and a
 * change held for approval in live mode.
 */
import { Schema } from "effect"
import * as FeeConfigUpdate from "./FeeConfigUpdate.js"
import {
  BillingMode,
  FeeModel,
  Livemode,
  MajorUnits,
  MinorUnits,
  Percent,
  PrefixedId,
  RoundingMode,
  Timestamp
} from "./Field.js"

/** A pending change id, `fcc_…`. */
export const FeeConfigChangeId = PrefixedId("fcc")

/** A live-mode change that raises the fee, held until another secret key approves it. */
export const PendingChange = Schema.Struct({
  id: FeeConfigChangeId,
  changes: Schema.Struct(FeeConfigUpdate.fields).annotations({
    identifier: "FeeConfigChanges",
    description: "The fields the change sets."
  }),
  requestedAt: Timestamp,
  stale: Schema.Boolean.annotations({
    description:
      "true when another change was applied after this one was requested: it was judged against a configuration no longer in force, so it can no longer be approved (409 fee_config_change_stale); cancel it and request it again."
  })
}).annotations({ identifier: "PendingChange" })
export type PendingChange = typeof PendingChange.Type

/** The ruleset's answer for one of the account's regions (the specification's alternative form). */
export const RegionSummary = Schema.Struct({
  maxPercentage: Schema.Number,
  requiresDisclosure: Schema.Boolean
}).annotations({ identifier: "RegionSummary" })

/** The fee configuration. */
export const FeeConfig = Schema.Struct({
  object: Schema.Literal("fee_config"),
  livemode: Livemode,
  percentage: Percent,
  flatFee: MajorUnits,
  minAmount: MinorUnits,
  maxAmount: Schema.NullOr(MinorUnits),
  billingMode: BillingMode,
  rounding: RoundingMode,
  model: FeeModel,
  minFee: Schema.NullOr(MinorUnits),
  maxFee: Schema.NullOr(MinorUnits),
  costOfAcceptance: Schema.NullOr(Percent),
  merchantCategoryCode: Schema.NullOr(Schema.String),
  defaultRegion: Schema.NullOr(Schema.String),
  nonCompliant: FeeConfigUpdate.NonCompliant,
  allowUncertain: Schema.Boolean,
  requireRegion: Schema.Boolean,
  requireEstimate: Schema.Boolean,
  currencyFees: Schema.Record({ key: Schema.String, value: FeeConfigUpdate.CurrencyFees }),
  regionCodes: Schema.Array(Schema.String),
  regions: Schema.Record({ key: Schema.String, value: RegionSummary }).annotations({
    description:
      "For each of regionCodes, the cap and disclosure rule as the ruleset answers today."
  }),
  rulesetVersion: Schema.optional(
    Schema.String.annotations({
      description:
        "The ruleset version the account pins: its estimates, charges and checks are decided by it. Absent: the account follows the latest version."
    })
  ),
  updated: Schema.optional(
    Schema.Boolean.annotations({
      description: "In an update response: true when applied, false when held for approval."
    })
  ),
  pendingChange: Schema.optional(PendingChange)
}).annotations({ identifier: "FeeConfig" })
export type FeeConfig = typeof FeeConfig.Type

/**
 * Estimating a fee (docs/design.md §2, §3), free of HTTP: the tenant's configuration in force
 * (read, never written) through `Quote.quote`. A stored configuration the engine refuses, or
 * that pins a ruleset this server does not know, is the server's fault: a defect, as over HTTP.
 */
import type { EstimateRequest, Estimate as EstimateWire } from "@levy/api"
import { ComplianceRules, type FeeError } from "@levy/core"
import type { FeeConfigRepository, StorageError, Tenant } from "@levy/storage"
import { Effect } from "effect"
import * as Config from "../feeConfigs/Config.js"
import * as Quote from "./Quote.js"

/** The estimate of `input` for `tenant`. */
export const createEstimate = (
  tenant: Tenant.Tenant,
  input: EstimateRequest.EstimateRequest
): Effect.Effect<
  EstimateWire.Estimate,
  FeeError | StorageError,
  FeeConfigRepository | ComplianceRules
> =>
  Effect.gen(function* () {
    const config = yield* Config.inForce(tenant)
    const schedule = yield* Effect.orDieWith(Config.scheduleOf(config), Config.refused)
    const ruleset = yield* Config.pinnedRuleset(yield* ComplianceRules, config)
    return yield* Quote.quote(config, schedule, ruleset, input)
  })

/**
 * Reading the fee configuration (docs/design.md §6), free of HTTP: the one in force (the
 * defaults until a change stores one; reading stores nothing) and any change held for approval.
 */
import type { FeeConfig } from "@levy/api"
import { ComplianceRules } from "@levy/core"
import { FeeConfigRepository, type StorageError, type Tenant } from "@levy/storage"
import { Effect } from "effect"
import * as Config from "./Config.js"

export const retrieveFeeConfig = (
  tenant: Tenant.Tenant
): Effect.Effect<FeeConfig.FeeConfig, StorageError, FeeConfigRepository | ComplianceRules> =>
  Effect.gen(function* () {
    const { config, version } = yield* Config.versioned(tenant)
    const pending = yield* Effect.flatMap(FeeConfigRepository, (repo) => repo.pending(tenant))
    return Config.toWire(yield* ComplianceRules, tenant, config, { pending, version })
  })

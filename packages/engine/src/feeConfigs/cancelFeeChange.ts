/**
 * Cancelling the change held for approval (docs/design.md §6), free of HTTP: dropped (kept in
 * the history as cancelled `by`), the configuration in force answered.
 */
import { FeeConfig } from "@levy/api"
import { ComplianceRules } from "@levy/core"
import { FeeConfigRepository, type StorageError, type Tenant, Transactions } from "@levy/storage"
import { Effect, Option } from "effect"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import * as Config from "./Config.js"
import { NoPendingFeeChange } from "./FeeConfigErrors.js"
import type { FeeConfigServices } from "./updateFeeConfig.js"

export type CancelFeeChangeError = NoPendingFeeChange | StorageError

const now = () => Math.floor(Date.now() / 1000)

export const cancelFeeChange = (
  tenant: Tenant.Tenant,
  by: string,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<Written.Written<FeeConfig.FeeConfig>, CancelFeeChangeError, FeeConfigServices> =>
  Effect.gen(function* () {
    const repo = yield* FeeConfigRepository
    const transactions = yield* Transactions
    // A pending change means the configuration is stored; without one nothing is written.
    const { config, version } = yield* Config.versioned(tenant)
    const wire = Config.toWire(yield* ComplianceRules, tenant, config, {
      pending: Option.none(),
      version
    })
    yield* transactions
      .run(
        Effect.zipRight(
          repo.cancel(tenant, { by, at: now() }),
          Claims.recordSuccess(claim, FeeConfig.FeeConfig, wire)
        )
      )
      .pipe(Effect.catchTag("RecordNotFound", () => new NoPendingFeeChange({})))
    return Written.stored(claim, wire)
  })

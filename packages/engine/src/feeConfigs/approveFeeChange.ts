/**
 * Approving the change held for approval (docs/design.md §6), free of HTTP: the change named
 * by `id` applied with its `fee_config.updated` event, approved `by` someone other than whoever
 * requested it (another secret key; "cli" for the owner on the command line). Both checks, and
 * the compliance of the result, run under the lock that applies it: a change swapped in after
 * the approver looked is not the one named, so it is not applied; a change requested against a
 * configuration that moved since is stale (docs/design.md §6): what the approver would apply is
 * not what was judged, so it is refused too.
 */
import type { FeeConfig } from "@levy/api"
import type { FeeError } from "@levy/core"
import { FeeConfigRepository, type StorageError, type Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import type * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import * as Changes from "./Changes.js"
import * as Config from "./Config.js"
import {
  ApproverIsRequester,
  type DefaultRegionNotCompliant,
  FeeChangeStale,
  NoPendingFeeChange
} from "./FeeConfigErrors.js"
import type { FeeConfigServices } from "./updateFeeConfig.js"

export type ApproveFeeChangeError =
  | NoPendingFeeChange
  | FeeChangeStale
  | ApproverIsRequester
  | FeeError
  | DefaultRegionNotCompliant
  | StorageError

const now = () => Math.floor(Date.now() / 1000)

export const approveFeeChange = (
  tenant: Tenant.Tenant,
  id: string,
  by: string,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<Written.Written<FeeConfig.FeeConfig>, ApproveFeeChangeError, FeeConfigServices> =>
  Effect.gen(function* () {
    const repo = yield* FeeConfigRepository
    const context = yield* Effect.context<FeeConfigServices>()
    const approval = repo.approve(tenant, {
      id,
      by,
      at: now(),
      check: (pending, stored) =>
        Effect.gen(function* () {
          if (pending.requestedBy === by) return yield* new ApproverIsRequester({ by })
          // The configuration may have changed since the request: the result must still be valid.
          const next = Config.fromJson({ ...stored, ...pending.changes })
          yield* Changes.checkDefaultRegion(next, yield* Config.scheduleOf(next))
        }).pipe(Effect.provide(context))
    })
    const applied = yield* Changes.applying(tenant, approval, Option.none(), claim).pipe(
      Effect.catchTag("RecordNotFound", () => new NoPendingFeeChange({ id })),
      Effect.catchTag("VersionConflict", () => new FeeChangeStale({ id }))
    )
    return Written.stored(claim, applied)
  })

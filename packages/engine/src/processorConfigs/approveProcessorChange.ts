/**
 * Approving the processor configuration change held for approval (docs/design.md §4), free of
 * HTTP: the change named by `id` applied with its event (`processor_config.updated` for a save,
 * `processor_config.deleted` for a delete), approved `by` someone other than whoever requested
 * it (another secret key; "cli" for the owner on the command line). Both checks run under the
 * lock that applies it: a change swapped in after the approver looked is not the one named, and
 * a change requested against a configuration no longer in force is stale — what it would
 * replace or delete now is not what its approver was shown — so neither is applied.
 */
import { ProcessorConfig } from "@levy/api"
import {
  ProcessorConfigRepository,
  type StorageError,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, type Option } from "effect"
import * as Outbox from "../events/Outbox.js"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import * as Changes from "./Changes.js"
import {
  ApproverIsRequester,
  NoPendingProcessorChange,
  ProcessorChangeStale
} from "./ProcessorChangeErrors.js"
import type { ProcessorConfigServices } from "./saveProcessorConfig.js"
import * as Wire from "./Wire.js"

export type ApproveProcessorChangeError =
  | NoPendingProcessorChange
  | ProcessorChangeStale
  | ApproverIsRequester
  | StorageError

export const approveProcessorChange = (
  tenant: Tenant.Tenant,
  id: string,
  by: string,
  claim: Option.Option<Claims.Claim>
): Effect.Effect<
  Written.Written<ProcessorConfig.ProcessorConfigChange>,
  ApproveProcessorChangeError,
  ProcessorConfigServices
> =>
  Effect.gen(function* () {
    const repo = yield* ProcessorConfigRepository
    const transactions = yield* Transactions
    const at = yield* Changes.now
    const answer = yield* transactions
      .run(
        Effect.gen(function* () {
          const applied = yield* repo.approve(tenant, {
            id,
            by,
            at,
            check: (pending) =>
              pending.requestedBy === by
                ? Effect.fail(new ApproverIsRequester({ by }))
                : Effect.void
          })
          if (applied.change.action === "save") {
            const config = Wire.config({
              config: applied.config,
              credentials: applied.credentials ?? {}
            })
            yield* Outbox.recordUnder(claim, tenant, "processor_config.updated", config)
          } else {
            yield* Outbox.recordUnder(
              claim,
              tenant,
              "processor_config.deleted",
              Wire.deleted(applied.config)
            )
          }
          // Applied: what it was requested against was in force, so it was not stale.
          const answer = Wire.change(applied, "applied", applied.change.baseRevision)
          yield* Claims.recordSuccess(claim, ProcessorConfig.ProcessorConfigChange, answer)
          return answer
        })
      )
      .pipe(
        Effect.catchTags({
          RecordNotFound: () => new NoPendingProcessorChange({ id }),
          RevisionConflict: () => new ProcessorChangeStale({ id })
        })
      )
    return Written.stored(claim, answer)
  })

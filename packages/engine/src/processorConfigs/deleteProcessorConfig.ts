/**
 * Removing the processor of the tenant's account and mode (docs/design.md §4), free of HTTP:
 * live charges are refused from then on (`ProcessorNotConfigured`); test mode falls back to
 * the simulator. Removed at once with its `processor_config.deleted` event — or, in live mode,
 * held until another key approves it (Changes.ts), as a save is.
 */
import { ProcessorConfig } from "@levy/api"
import {
  ProcessorConfigRepository,
  type StorageError,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, Option } from "effect"
import * as Outbox from "../events/Outbox.js"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import * as Changes from "./Changes.js"
import type {
  ProcessorChangeAlreadyPending,
  ProcessorConfigContended
} from "./ProcessorChangeErrors.js"
import { ProcessorConfigNotFound } from "./ProcessorConfigErrors.js"
import type { ProcessorConfigServices } from "./saveProcessorConfig.js"
import * as Wire from "./Wire.js"

export type DeleteProcessorConfigError =
  | ProcessorConfigNotFound
  | ProcessorChangeAlreadyPending
  | ProcessorConfigContended
  | StorageError

export const deleteProcessorConfig = (
  tenant: Tenant.Tenant,
  actor: Changes.Actor,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<
  Written.Written<ProcessorConfig.DeletedProcessorConfig>,
  DeleteProcessorConfigError,
  ProcessorConfigServices
> =>
  Effect.gen(function* () {
    const answer = Changes.waitsForApproval(tenant, actor)
      ? yield* Changes.hold(
          tenant,
          actor,
          claim,
          ProcessorConfig.DeletedProcessorConfig,
          Option.match({
            onNone: () => Effect.fail(new ProcessorConfigNotFound({ tenant })),
            onSome: (inForce) =>
              Effect.succeed({
                request: {
                  action: "delete",
                  processor: inForce.processor,
                  credentials: null,
                  surcharge: false
                },
                answer: (pending) => Wire.deleted(inForce, pending)
              })
          })
        )
      : yield* remove(tenant, claim)
    return Written.stored(claim, answer)
  })

/** Removed at once with its event and the answer stored for `claim`, in one transaction. */
const remove = (tenant: Tenant.Tenant, claim: Option.Option<Claims.Claim>) =>
  Effect.gen(function* () {
    const repo = yield* ProcessorConfigRepository
    const transactions = yield* Transactions
    return yield* transactions
      .run(
        Effect.gen(function* () {
          const answer = Wire.deleted(yield* repo.remove(tenant))
          yield* Outbox.recordUnder(claim, tenant, "processor_config.deleted", answer)
          yield* Claims.recordSuccess(claim, ProcessorConfig.DeletedProcessorConfig, answer)
          return answer
        })
      )
      .pipe(Effect.catchTag("RecordNotFound", () => new ProcessorConfigNotFound({ tenant })))
  })

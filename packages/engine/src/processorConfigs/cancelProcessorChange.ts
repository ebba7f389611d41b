/**
 * Cancelling the processor configuration change held for approval (docs/design.md §4), free
 * of HTTP: dropped with its `processor_config.change_cancelled` event, answered as cancelled.
 * Any secret key may cancel (nothing moves), as for fee configuration changes.
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
import { NoPendingProcessorChange } from "./ProcessorChangeErrors.js"
import type { ProcessorConfigServices } from "./saveProcessorConfig.js"
import * as Wire from "./Wire.js"

export type CancelProcessorChangeError = NoPendingProcessorChange | StorageError

export const cancelProcessorChange = (
  tenant: Tenant.Tenant,
  claim: Option.Option<Claims.Claim>
): Effect.Effect<
  Written.Written<ProcessorConfig.ProcessorConfigChange>,
  CancelProcessorChangeError,
  ProcessorConfigServices
> =>
  Effect.gen(function* () {
    const repo = yield* ProcessorConfigRepository
    const transactions = yield* Transactions
    const answer = yield* transactions
      .run(
        Effect.gen(function* () {
          const inForce = Changes.revisionOf(yield* repo.get(tenant))
          const answer = Wire.change(yield* repo.cancel(tenant), "cancelled", inForce)
          yield* Outbox.recordUnder(claim, tenant, "processor_config.change_cancelled", answer)
          yield* Claims.recordSuccess(claim, ProcessorConfig.ProcessorConfigChange, answer)
          return answer
        })
      )
      .pipe(Effect.catchTag("RecordNotFound", () => new NoPendingProcessorChange({})))
    return Written.stored(claim, answer)
  })

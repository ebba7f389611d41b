/**
 * Removing the processor of the tenant's account and mode (docs/design.md §4), free of HTTP:
 * live charges are refused from then on (`ProcessorNotConfigured`); test mode falls back to
 * the simulator.
 */
import { ProcessorConfig } from "@levy/api"
import {
  ProcessorConfigRepository,
  type StorageError,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Effect, Option } from "effect"
import * as Claims from "../idempotency/Claim.js"
import * as Written from "../idempotency/Written.js"
import { ProcessorConfigNotFound } from "./ProcessorConfigErrors.js"
import type { ProcessorConfigServices } from "./saveProcessorConfig.js"
import * as Wire from "./Wire.js"

export type DeleteProcessorConfigError = ProcessorConfigNotFound | StorageError

export const deleteProcessorConfig = (
  tenant: Tenant.Tenant,
  claim: Option.Option<Claims.Claim> = Option.none()
): Effect.Effect<
  Written.Written<ProcessorConfig.DeletedProcessorConfig>,
  DeleteProcessorConfigError,
  ProcessorConfigServices
> =>
  Effect.gen(function* () {
    const repo = yield* ProcessorConfigRepository
    const transactions = yield* Transactions
    const answer = yield* transactions
      .run(
        Effect.gen(function* () {
          const answer = Wire.deleted(yield* repo.remove(tenant))
          yield* Claims.recordSuccess(claim, ProcessorConfig.DeletedProcessorConfig, answer)
          return answer
        })
      )
      .pipe(Effect.catchTag("RecordNotFound", () => new ProcessorConfigNotFound({ tenant })))
    return Written.stored(claim, answer)
  })

/** Reading the processor of the tenant's account and mode (docs/design.md §4), credentials masked. */
import type { ProcessorConfig } from "@levy/api"
import { ProcessorConfigRepository, type StorageError, type Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import { ProcessorConfigNotFound } from "./ProcessorConfigErrors.js"
import * as Wire from "./Wire.js"

export const retrieveProcessorConfig = (
  tenant: Tenant.Tenant
): Effect.Effect<
  ProcessorConfig.ProcessorConfig,
  ProcessorConfigNotFound | StorageError,
  ProcessorConfigRepository
> =>
  Effect.flatMap(ProcessorConfigRepository, (repo) => repo.open(tenant)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(new ProcessorConfigNotFound({ tenant })),
        onSome: (opened) => Effect.succeed(Wire.config(opened))
      })
    )
  )

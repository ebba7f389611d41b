/**
 * Reading the processor of the tenant's account and mode (docs/design.md §4), credentials
 * masked: the configuration in force with the change held for it, or the held change alone.
 */
import type { ProcessorConfig } from "@levy/api"
import { ProcessorConfigRepository, type StorageError, type Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import * as Changes from "./Changes.js"
import { NoPendingProcessorChange } from "./ProcessorChangeErrors.js"
import { ProcessorConfigNotFound } from "./ProcessorConfigErrors.js"
import * as Wire from "./Wire.js"

/** The configuration in force, with `pendingChange`; none in force is a 404 naming a held change. */
export const retrieveProcessorConfig = (
  tenant: Tenant.Tenant
): Effect.Effect<
  ProcessorConfig.ProcessorConfig,
  ProcessorConfigNotFound | StorageError,
  ProcessorConfigRepository
> =>
  Effect.gen(function* () {
    const repo = yield* ProcessorConfigRepository
    const opened = yield* repo.open(tenant)
    const pending = yield* repo.pending(tenant)
    if (Option.isNone(opened)) {
      return yield* new ProcessorConfigNotFound({
        tenant,
        pending: Option.getOrUndefined(Option.map(pending, (p) => p.change))
      })
    }
    const revision = opened.value.config.revision
    return Wire.config(
      opened.value,
      Option.getOrUndefined(Option.map(pending, (p) => Wire.change(p, "pending", revision)))
    )
  })

/** The held change, masked. */
export const retrievePendingProcessorChange = (
  tenant: Tenant.Tenant
): Effect.Effect<
  ProcessorConfig.ProcessorConfigChange,
  NoPendingProcessorChange | StorageError,
  ProcessorConfigRepository
> =>
  Effect.gen(function* () {
    const repo = yield* ProcessorConfigRepository
    const pending = yield* repo.pending(tenant)
    if (Option.isNone(pending)) return yield* new NoPendingProcessorChange({})
    return Wire.change(pending.value, "pending", Changes.revisionOf(yield* repo.get(tenant)))
  })

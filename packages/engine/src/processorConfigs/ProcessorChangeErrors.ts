/**
 * How a live-mode processor configuration change held for approval fails (docs/design.md §4),
 * in the workflows' own words: the HTTP API answers them through ApiErrors.ts, `LevyService`
 * returns them as they are. Approving one's own request is `ApproverIsRequester`, as for fee
 * configuration changes.
 */
import { Data } from "effect"

export { ApproverIsRequester } from "../feeConfigs/FeeConfigErrors.js"

/** A change is already held for approval: approve or cancel it first. */
export class ProcessorChangeAlreadyPending extends Data.TaggedError(
  "ProcessorChangeAlreadyPending"
)<{}> {}

/**
 * No change is held, or (with `id`) the held one is not the change named: it was approved,
 * cancelled or replaced since the approver looked.
 */
export class NoPendingProcessorChange extends Data.TaggedError("NoPendingProcessorChange")<{
  readonly id?: string | undefined
}> {}

/**
 * The held change was requested against a configuration no longer in force (another was saved
 * or it was deleted since): approving it would apply what nobody reviewed. Cancel it, request
 * again.
 */
export class ProcessorChangeStale extends Data.TaggedError("ProcessorChangeStale")<{
  readonly id: string
}> {}

/**
 * The configuration kept changing while a change was being held: each attempt found another
 * configuration in force than the one it read. Nothing was written; the caller may retry.
 */
export class ProcessorConfigContended extends Data.TaggedError("ProcessorConfigContended")<{
  readonly attempts: number
}> {}

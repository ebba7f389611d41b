/**
 * How changing the fee configuration fails (docs/design.md §6), in the workflows' own words:
 * the HTTP API answers them through ApiErrors.ts, `LevyService` returns them as they are.
 */
import type { Compliance } from "@levy/core"
import { Data } from "effect"

/** The change pins a ruleset version this server does not know. */
export class RulesetVersionUnknown extends Data.TaggedError("RulesetVersionUnknown")<{
  readonly version: string
}> {}

/**
 * The configuration would not be compliant in its own `defaultRegion` (for a consumer's
 * credit card at the nominal rate): `param` is the field the verdict is about.
 */
export class DefaultRegionNotCompliant extends Data.TaggedError("DefaultRegionNotCompliant")<{
  readonly region: string
  readonly reasonCode: Compliance.ReasonCode | null
  readonly reason: string | null
  readonly param: string
}> {}

/** A live-mode change is already held for approval: approve or cancel it first. */
export class FeeChangeAlreadyPending extends Data.TaggedError("FeeChangeAlreadyPending")<{}> {}

/**
 * No change is pending, or (with `id`) the pending one is not the change named: it was
 * approved, cancelled or replaced since the approver looked.
 */
export class NoPendingFeeChange extends Data.TaggedError("NoPendingFeeChange")<{
  readonly id?: string | undefined
}> {}

/** Whoever requested a held change may not approve it: another key (or person) must. */
export class ApproverIsRequester extends Data.TaggedError("ApproverIsRequester")<{
  readonly by: string
}> {}

/**
 * The configuration kept changing while this change was decided: each decision found another
 * change applied before it could write. Nothing was written; the caller may retry.
 */
export class FeeConfigContended extends Data.TaggedError("FeeConfigContended")<{
  readonly attempts: number
}> {}

/**
 * The held change was requested against a configuration no longer in force (another change
 * was applied since): approving it would apply what nobody judged. Cancel it, request again.
 */
export class FeeChangeStale extends Data.TaggedError("FeeChangeStale")<{
  readonly id: string
}> {}

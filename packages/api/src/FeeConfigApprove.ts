/**
 * The body of `POST /v1/fee-configs/pending/approve`: the id of the change being approved
 * (docs/design.md §6). Naming it means an approval applies the change its approver saw,
 * never one swapped in after they looked.
 */
import { Schema } from "effect"
import { FeeConfigChangeId } from "./FeeConfig.js"
import { closed } from "./Field.js"

/** The approval request. */
export const FeeConfigApprove = closed(
  Schema.Struct({
    id: FeeConfigChangeId.annotations({
      description: "The pending change approved (pendingChange.id of GET /v1/fee-configs)."
    })
  }),
  "FeeConfigApprove"
)
export type FeeConfigApprove = typeof FeeConfigApprove.Type

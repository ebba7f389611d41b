/**
 * The body of `POST /v1/processor-config/pending/approve`: the id of the held change being
 * approved (docs/design.md §4). Naming it means an approval applies the change its approver
 * saw, never one swapped in after they looked.
 */
import { Schema } from "effect"
import { closed } from "./Field.js"
import { ProcessorConfigChangeId } from "./ProcessorConfig.js"

/** The approval request. */
export const ProcessorConfigApprove = closed(
  Schema.Struct({
    id: ProcessorConfigChangeId.annotations({
      description:
        "The held change approved (pendingChange.id of GET /v1/processor-config, or id of GET /v1/processor-config/pending)."
    })
  }),
  "ProcessorConfigApprove"
)
export type ProcessorConfigApprove = typeof ProcessorConfigApprove.Type

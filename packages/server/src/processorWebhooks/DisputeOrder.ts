/**
 * Whether a processor's dispute status change applies to a dispute as Levy has it
 * (docs/design.md §8): processors deliver at least once and in any order, so a change older
 * than the last one applied, a change to a closed dispute (won or lost is final), or no change
 * at all is left out. Two changes stamped with the same second go forward only
 * (needs_response → under_review → won/lost), so their order of arrival does not matter.
 */
import type { Dispute } from "@levy/storage"

type Status = Dispute["status"]

const RANK: Readonly<Record<Status, number>> = {
  needs_response: 0,
  under_review: 1,
  won: 2,
  lost: 2
}

/** Won and lost close a dispute. */
export const isClosed = (status: Status): boolean => RANK[status] === 2

/** Whether `change` (the processor's status at `occurredAt`) applies to `current`. */
export const applies = (
  current: { readonly status: Status; readonly processorUpdatedAt: number },
  change: { readonly status: Status; readonly occurredAt: number }
): boolean => {
  if (isClosed(current.status) || change.status === current.status) return false
  if (change.occurredAt !== current.processorUpdatedAt) {
    return change.occurredAt > current.processorUpdatedAt
  }
  return RANK[change.status] > RANK[current.status]
}

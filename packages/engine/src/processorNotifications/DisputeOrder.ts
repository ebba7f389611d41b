/**
 * What a processor's dispute status change does to a dispute as Levy has it
 * (docs/design.md §8). Processors deliver at least once and in any order, so each dispute keeps
 * the processor's time of the newest change seen: an older change is stale, and so is any
 * change to a closed dispute (won and lost are final). A newer change with the status the
 * dispute already has moves only that time (so an older, different status arriving after it
 * stays stale). Two changes stamped with the same second go forward only (needs_response →
 * under_review → won/lost), so their order of arrival does not matter either.
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

/** `stale`: nothing changes; `same`: only the time moves; `changed`: a new status. */
export type Decision = "stale" | "same" | "changed"

/** What `change` (the processor's status at `occurredAt`) does to `current`. */
export const decide = (
  current: { readonly status: Status; readonly processorUpdatedAt: number },
  change: { readonly status: Status; readonly occurredAt: number }
): Decision => {
  if (isClosed(current.status)) return "stale"
  const newer =
    change.occurredAt > current.processorUpdatedAt ||
    (change.occurredAt === current.processorUpdatedAt && RANK[change.status] > RANK[current.status])
  if (!newer) return "stale"
  return change.status === current.status ? "same" : "changed"
}

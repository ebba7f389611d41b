/**
 * Why a refund was not made, in the refund's own words (docs/design.md §4); each door chooses
 * its errors for them. Besides these, refunding fails with the charge's `ChargeNotFound`,
 * `ProcessorNotConfigured` and `OutcomeUnknown`, the store's `StorageError` and the
 * idempotency refusals.
 */
import type { StoredRefund } from "@levy/storage"
import { Data } from "effect"

/** What the request asks of the charge as it stands is not possible (`RefundPlan`). */
export class RefundNotPossible extends Data.TaggedError("RefundNotPossible")<{
  readonly code: string
  readonly message: string
  readonly param?: string | undefined
}> {}

/**
 * The charge's dispute is open (the network returns the money if the cardholder wins) or was
 * lost (the network already returned it): a refund would pay the cardholder twice.
 */
export class ChargeDisputed extends Data.TaggedError("ChargeDisputed")<{
  readonly chargeId: string
  readonly dispute: "open" | "lost"
}> {}

/** Another refund of the charge took what was left first. */
export class RefundExceedsCharge extends Data.TaggedError("RefundExceedsCharge")<{
  readonly chargeId: string
}> {}

/** Refunds of the charge kept committing first: the caller may simply retry. */
export class RefundContended extends Data.TaggedError("RefundContended")<{
  readonly chargeId: string
}> {}

/** The processor refused the refund: stored failed, its answer stored with it. */
export class RefundFailed extends Data.TaggedError("RefundFailed")<{
  readonly refund: StoredRefund
}> {}

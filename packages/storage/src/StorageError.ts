/** The typed failures of every repository, the same from all three stores. */
import { Schema } from "effect"

/** The store itself failed (connection lost, bad SQL, ...): not something a caller can fix. */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect)
}) {}

/** A record with the same identity (id, idempotency key, one-pending-change rule) already exists. */
export class DuplicateRecord extends Schema.TaggedError<DuplicateRecord>()("DuplicateRecord", {
  entity: Schema.String,
  id: Schema.String
}) {}

/** No such record for this account and mode (another account's id is missing too). */
export class RecordNotFound extends Schema.TaggedError<RecordNotFound>()("RecordNotFound", {
  entity: Schema.String,
  id: Schema.String
}) {}

/** The idempotency key belongs to a request that is still running. */
export class IdempotencyKeyInUse extends Schema.TaggedError<IdempotencyKeyInUse>()(
  "IdempotencyKeyInUse",
  { key: Schema.String }
) {}

/** The idempotency key was first used with a different request. */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()(
  "IdempotencyKeyReused",
  { key: Schema.String }
) {}

/** A refund would take more than what is left of the charge. */
export class RefundTooLarge extends Schema.TaggedError<RefundTooLarge>()("RefundTooLarge", {
  chargeId: Schema.String,
  requested: Schema.Number,
  refundable: Schema.Number
}) {}

/**
 * The charge's refunds moved since the caller read it: a refund planned on what was left
 * then must be planned again (two refunds at once each took their share of the fee).
 */
export class StaleCharge extends Schema.TaggedError<StaleCharge>()("StaleCharge", {
  chargeId: Schema.String
}) {}

/** The caller no longer holds the delivery's lease (it expired and another worker claimed it). */
export class LeaseLost extends Schema.TaggedError<LeaseLost>()("LeaseLost", {
  deliveryId: Schema.String
}) {}

/**
 * A compare-and-set lost: the record is no longer at the version the caller decided against
 * (another change was applied since it read). The caller reads again and decides again.
 */
export class VersionConflict extends Schema.TaggedError<VersionConflict>()("VersionConflict", {
  entity: Schema.String,
  id: Schema.String,
  expected: Schema.Number,
  found: Schema.Number
}) {}

/** The account and mode already have as many records of this kind as are allowed. */
export class LimitReached extends Schema.TaggedError<LimitReached>()("LimitReached", {
  entity: Schema.String,
  limit: Schema.Number
}) {}

/**
 * Why a charge was not made, in the charge's own words (docs/design.md §4). The API's errors
 * for them are chosen by each door (the HTTP API in one place); besides these, creating a charge
 * fails with the quote's `ProcessorNotConfigured`, `CardMismatch` and `FeeNotCompliant`
 * (estimates/PaymentErrors.ts), the engine's `FeeError`, the processor's `SourceInvalid`/`ProcessorRefused`, the
 * store's `StorageError` and the idempotency refusals.
 */
import type { StoredCharge, Tenant } from "@levy/storage"
import { Data, type ParseResult } from "effect"
import type { ProcessorUnavailable } from "../processors/PaymentProcessor.js"

/** The charge named is not the tenant's (`inOtherMode`: it exists in the key's other mode). */
export class ChargeNotFound extends Data.TaggedError("ChargeNotFound")<{
  readonly tenant: Tenant.Tenant
  readonly chargeId: string
  readonly inOtherMode: boolean
  /** The field that named it: `charge` (a refund's body) unless said (`id`, a path). */
  readonly param?: string | undefined
}> {}

/**
 * The charge was made and failed (declined, or refused by the processor): it is stored
 * failed, and the answer was stored with it for the request's key.
 */
export class ChargeFailed extends Data.TaggedError("ChargeFailed")<{
  readonly charge: StoredCharge
}> {}

/** A pending charge whose processor is no longer the account's: it cannot be completed now. */
export class ProcessorChanged extends Data.TaggedError("ProcessorChanged")<{
  readonly chargeId: string
  readonly pendingAt: string
  readonly current: string
}> {}

/**
 * The processor did not answer after a charge or refund was written pending: money may have
 * moved; it stays pending, and a retry with the same key or the sweeper completes it.
 */
export class OutcomeUnknown extends Data.TaggedError("OutcomeUnknown")<{
  readonly error: ProcessorUnavailable
  /** What is left pending ("charge ch_…"). */
  readonly pending: string
}> {}

/**
 * A charge still pending at its processor cannot be updated: its pending row holds what a
 * retry sends the processor again under the same key.
 */
export class ChargePending extends Data.TaggedError("ChargePending")<{
  readonly chargeId: string
}> {}

/** An update whose merged metadata breaks the metadata rules (too many keys): nothing changed. */
export class ChargeMetadataInvalid extends Data.TaggedError("ChargeMetadataInvalid")<{
  readonly error: ParseResult.ParseError
}> {}

/** Updates of the charge kept committing first: the caller may simply retry. */
export class ChargeContended extends Data.TaggedError("ChargeContended")<{
  readonly chargeId: string
}> {}

/**
 * Why a card cannot be quoted or charged as asked (docs/design.md §4), in the engine's own
 * words: an estimate and a charge fail alike, each door choosing its error for them.
 */
import type { Tenant } from "@levy/storage"
import { Data } from "effect"

/** Live mode without a configured processor: no live charge can be made. */
export class ProcessorNotConfigured extends Data.TaggedError("ProcessorNotConfigured")<{
  readonly tenant: Tenant.Tenant
}> {}

/** A request's card field that contradicts what the processor tells of the source. */
export class CardMismatch extends Data.TaggedError("CardMismatch")<{
  readonly field: "cardType" | "cardNetwork" | "cardIssuingCountry" | "cardholder"
  readonly asked: string
  readonly source: string
  /** The card the processor told of, in words ("US consumer visa credit"). */
  readonly card: string
}> {}

/** A fee the engine could not make compliant, or had to lower under `nonCompliant: reject`. */
export class FeeNotCompliant extends Data.TaggedError("FeeNotCompliant")<{
  readonly reasonCode: string | null
  readonly reason: string | null
}> {}

/**
 * Why a charge does not honour the estimate it names (docs/quotes.md), in the workflow's own
 * words; the API answers each with a 400 whose code says which (ApiErrors.ts).
 */
import { Data } from "effect"

/** Why the quote cannot be used: each has its own code. */
export type RefusalReason =
  | "unknown"
  | "altered"
  | "other_account"
  | "other_mode"
  | "expired"
  | "used"

/** The named estimate is not a quote this charge may use. */
export class EstimateRefused extends Data.TaggedError("EstimateRefused")<{
  readonly reason: RefusalReason
  /** When it expired (Unix seconds), for `expired`. */
  readonly expiredAt?: number | undefined
}> {}

/** The charge is not the one quoted: its amount, currency or region differs from the quote's. */
export class EstimateMismatch extends Data.TaggedError("EstimateMismatch")<{
  readonly field: "amount" | "currency" | "region"
  readonly quoted: string
  readonly asked: string
}> {}

/** The account requires live charges to name an estimate (`requireEstimate`), and this one names none. */
export class EstimateRequired extends Data.TaggedError("EstimateRequired")<{}> {}

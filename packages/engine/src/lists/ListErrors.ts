/**
 * How a list request fails (docs/design.md §6, Stripe's cursor pagination), in the engine's
 * words: the HTTP API answers them as 400s naming `starting_after`/`ending_before`
 * (ApiErrors.ts), `LevyService` returns them as they are, naming the fields as it takes them.
 */
import { Data } from "effect"

/** The cursor names no item of this list (another list's, another mode's, or none at all). */
export class CursorNotFound extends Data.TaggedError("CursorNotFound")<{
  readonly param: "startingAfter" | "endingBefore"
  readonly id: string
}> {}

/** Both cursors at once: a page runs one way only. */
export class CursorsConflict extends Data.TaggedError("CursorsConflict")<{}> {}

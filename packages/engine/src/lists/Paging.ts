/**
 * One page of a stored list (docs/design.md §6): newest first, the store's keyset paging;
 * both cursors at once, or a cursor naming no item of the list, are the caller's mistakes.
 */
import type { Page, RecordNotFound, StorageError } from "@levy/storage"
import { Effect } from "effect"
import { CursorNotFound, CursorsConflict } from "./ListErrors.js"

export type PageError = CursorNotFound | CursorsConflict | StorageError

/** `list` run for `request`, its items mapped together by `toData`. */
export const page = <A, B, R, E2, R2>(
  request: Page.PageRequest,
  list: (
    request: Page.PageRequest
  ) => Effect.Effect<Page.Page<A>, RecordNotFound | StorageError, R>,
  toData: (items: ReadonlyArray<A>) => Effect.Effect<ReadonlyArray<B>, E2, R2>
): Effect.Effect<Page.Page<B>, PageError | E2, R | R2> =>
  request.startingAfter !== undefined && request.endingBefore !== undefined
    ? Effect.fail(new CursorsConflict())
    : list(request).pipe(
        Effect.catchTag("RecordNotFound", () =>
          Effect.fail(
            request.startingAfter !== undefined
              ? new CursorNotFound({ param: "startingAfter", id: request.startingAfter })
              : new CursorNotFound({ param: "endingBefore", id: request.endingBefore ?? "" })
          )
        ),
        Effect.flatMap((found) =>
          Effect.map(toData(found.data), (data) => ({ data, hasMore: found.hasMore }))
        )
      )

/** `page` with each item mapped by `toWire`. */
export const pageOf = <A, B, R>(
  request: Page.PageRequest,
  list: (
    request: Page.PageRequest
  ) => Effect.Effect<Page.Page<A>, RecordNotFound | StorageError, R>,
  toWire: (item: A) => B
) => page(request, list, (items) => Effect.succeed(items.map(toWire)))

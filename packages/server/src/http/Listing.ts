/**
 * The list endpoints' shared plumbing: a list's query parameters as a storage page request,
 * and the store's answer as the wire list. Both cursors at once or an unknown cursor is the
 * caller's mistake (400 naming it), a store failure a 503.
 */
import { ApiError, List } from "@levy/api"
import type { Page, RecordNotFound, StorageError } from "@levy/storage"
import { Effect } from "effect"
import { unavailable } from "./Unavailable.js"

/** The pagination and creation-time parameters every list takes. */
export interface ListQuery {
  readonly limit: number
  readonly starting_after?: string | undefined
  readonly ending_before?: string | undefined
  readonly "created[gte]"?: number | undefined
  readonly "created[gt]"?: number | undefined
  readonly "created[lte]"?: number | undefined
  readonly "created[lt]"?: number | undefined
}

const pageRequest = (query: ListQuery): Page.PageRequest => ({
  limit: query.limit,
  startingAfter: query.starting_after,
  endingBefore: query.ending_before,
  created: {
    gte: query["created[gte]"],
    gt: query["created[gt]"],
    lte: query["created[lte]"],
    lt: query["created[lt]"]
  }
})

/** The 400 for a cursor that names no record of this list. */
const unknownCursor = (query: ListQuery) => {
  const param = query.starting_after !== undefined ? "starting_after" : "ending_before"
  const id = query.starting_after ?? query.ending_before ?? ""
  return new ApiError.InvalidRequestError({
    code: "resource_missing",
    param,
    message: `No such object for ${param}: '${id}'`
  })
}

const bothCursors = new ApiError.InvalidRequestError({
  param: "ending_before",
  message: "Use starting_after or ending_before, not both."
})

/**
 * Runs a storage list for the query's page and answers the wire list at `url`, the page's
 * items mapped together by `toData` (for mappings that read more per page, not per item).
 */
export const respondPage = <A, B, E, R>(
  query: ListQuery,
  url: string,
  list: (request: Page.PageRequest) => Effect.Effect<Page.Page<A>, RecordNotFound | StorageError>,
  toData: (items: ReadonlyArray<A>) => Effect.Effect<ReadonlyArray<B>, E, R>
) =>
  query.starting_after !== undefined && query.ending_before !== undefined
    ? Effect.fail(bothCursors)
    : list(pageRequest(query)).pipe(
        Effect.catchTags({
          RecordNotFound: () => Effect.fail(unknownCursor(query)),
          StorageError: unavailable
        }),
        Effect.flatMap((page) =>
          Effect.map(toData(page.data), (data) => List.make(data, page.hasMore, url))
        )
      )

/** `respondPage` with each item mapped by `toWire`. */
export const respond = <A, B, E, R>(
  query: ListQuery,
  url: string,
  list: (request: Page.PageRequest) => Effect.Effect<Page.Page<A>, RecordNotFound | StorageError>,
  toWire: (item: A) => Effect.Effect<B, E, R>
) => respondPage(query, url, list, (items) => Effect.forEach(items, toWire))

/**
 * A list's query parameters as a storage page request, and the store's answer as the wire
 * list. An unknown cursor is the caller's mistake (400 naming it), a store failure a 503.
 */
import { ApiError, List } from "@levy/api"
import type { Page, RecordNotFound, StorageError } from "@levy/storage"
import { Effect } from "effect"
import { unavailable } from "../feeConfigs/Config.js"

/** The pagination and `created[…]` parameters every list may take. */
export interface ListQuery {
  readonly limit: number
  readonly starting_after?: string | undefined
  readonly ending_before?: string | undefined
  readonly "created[gte]"?: number | undefined
  readonly "created[gt]"?: number | undefined
  readonly "created[lte]"?: number | undefined
  readonly "created[lt]"?: number | undefined
}

/** The storage request for `query`. */
export const pageRequest = (query: ListQuery): Page.PageRequest => ({
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

/** Runs a storage list and answers the wire list at `url` with each item mapped by `toWire`. */
export const respond = <A, B, E, R>(
  query: ListQuery,
  url: string,
  list: Effect.Effect<Page.Page<A>, RecordNotFound | StorageError>,
  toWire: (item: A) => Effect.Effect<B, E, R>
) =>
  list.pipe(
    Effect.catchTags({
      RecordNotFound: () => Effect.fail(unknownCursor(query)),
      StorageError: unavailable
    }),
    Effect.flatMap((page) =>
      Effect.map(Effect.forEach(page.data, toWire), (data) => List.make(data, page.hasMore, url))
    )
  )

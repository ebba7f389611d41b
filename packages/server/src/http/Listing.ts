/**
 * The list endpoints' shared plumbing: query parameters → a storage page request, a stored
 * page → the wire list, and an unknown cursor → a 400 naming it.
 */
import { ApiError, List } from "@levy/api"
import type { Page, RecordNotFound } from "@levy/storage"
import { Effect } from "effect"

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

/** The storage request of a list query; both cursors at once is a 400. */
export const pageRequest = (query: ListQuery) =>
  query.starting_after !== undefined && query.ending_before !== undefined
    ? Effect.fail(
        new ApiError.InvalidRequestError({
          param: "ending_before",
          message: "Use starting_after or ending_before, not both."
        })
      )
    : Effect.succeed<Page.PageRequest>({
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

/** A list's cursor named an object that is not in this account and mode. */
export const unknownCursor = (query: ListQuery) => (error: RecordNotFound) =>
  new ApiError.InvalidRequestError({
    code: "resource_missing",
    param: query.starting_after !== undefined ? "starting_after" : "ending_before",
    message: `No such ${error.entity}: '${error.id}' (the list's cursor).`
  })

/** The wire list of a stored page. */
export const toList = <S, A>(page: Page.Page<S>, toWire: (stored: S) => A, url: string) =>
  List.make(page.data.map(toWire), page.hasMore, url)

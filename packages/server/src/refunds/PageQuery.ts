/**
 * The query string of a list endpoint (`limit`, `starting_after`, `ending_before`,
 * `created[gt|gte|lt|lte]`) as the store's `PageRequest`, and the store's answer to an
 * unknown cursor as the 400 that names the cursor.
 */
import { ApiError } from "@levy/api"
import type { Page, RecordNotFound } from "@levy/storage"
import { Effect } from "effect"

/** The pagination and creation-time fields every list's query has. */
export interface ListQuery {
  readonly limit: number
  readonly starting_after?: string | undefined
  readonly ending_before?: string | undefined
  readonly "created[gt]"?: number | undefined
  readonly "created[gte]"?: number | undefined
  readonly "created[lt]"?: number | undefined
  readonly "created[lte]"?: number | undefined
}

/** The store's page request; both cursors at once is a 400 (the direction would be ambiguous). */
export const toPageRequest = (
  query: ListQuery
): Effect.Effect<Page.PageRequest, ApiError.InvalidRequestError> =>
  query.starting_after !== undefined && query.ending_before !== undefined
    ? Effect.fail(
        new ApiError.InvalidRequestError({
          message: "Give at most one of starting_after and ending_before.",
          param: "ending_before"
        })
      )
    : Effect.succeed({
        limit: query.limit,
        startingAfter: query.starting_after,
        endingBefore: query.ending_before,
        created: {
          gt: query["created[gt]"],
          gte: query["created[gte]"],
          lt: query["created[lt]"],
          lte: query["created[lte]"]
        }
      })

/** A list's `RecordNotFound` is its cursor: a 400 naming the cursor parameter. */
export const unknownCursor = (query: ListQuery) => (error: RecordNotFound) =>
  Effect.fail(
    new ApiError.InvalidRequestError({
      code: "resource_missing",
      message: `No such ${error.entity}: '${error.id}' (the list's cursor).`,
      param: query.ending_before !== undefined ? "ending_before" : "starting_after"
    })
  )

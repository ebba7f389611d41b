/**
 * A list endpoint's query parameters as the engine's list request (lists/ListRequest.ts): the
 * API's snake_case cursors and `created[…]` bounds in the engine's terms. The engine decides
 * the page (its cursors' errors included), the route answers it as the wire list.
 */
import type { Page } from "@levy/storage"

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

/** The engine's page request for `query`. */
export const requestOf = (query: ListQuery): Page.PageRequest => ({
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

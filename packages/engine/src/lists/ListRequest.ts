/**
 * A list request in the engine's terms, checked as the API checks its query (ListParams.ts):
 * `limit` an integer from 1 to 100 (default 10), `startingAfter` or `endingBefore`,
 * `created` bounds in Unix seconds, and each list's own filters; a field a list does not take
 * is refused, as an unknown query parameter is.
 */
import { ListParams } from "@levy/api"
import { Schema } from "effect"

const UnixSeconds = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** Pagination and creation-time bounds, for every list of stored records. */
export const paging = {
  limit: Schema.optional(
    Schema.Number.pipe(
      Schema.int(),
      Schema.between(1, ListParams.MAX_LIMIT, {
        message: () => `limit must be between 1 and ${ListParams.MAX_LIMIT}`
      })
    )
  ),
  startingAfter: Schema.optional(Schema.String),
  endingBefore: Schema.optional(Schema.String),
  created: Schema.optional(
    Schema.Struct({
      gte: Schema.optional(UnixSeconds),
      gt: Schema.optional(UnixSeconds),
      lte: Schema.optional(UnixSeconds),
      lt: Schema.optional(UnixSeconds)
    })
  )
} as const

/** A list request with `filters` beside the paging, refusing any other field. */
export const of = <Fields extends Schema.Struct.Fields>(filters: Fields) =>
  Schema.Struct({ ...paging, ...filters }).annotations({
    parseOptions: { onExcessProperty: "error" }
  })

/** A list with paging only. */
export const ListRequest = of({})
export type ListRequest = typeof ListRequest.Type

/**
 * Query parameters of the list endpoints: cursor pagination (`limit` 1–100, default 10;
 * `starting_after`, `ending_before`), `created[gte|gt|lte|lt]` and per-list filters. A query
 * parameter a list does not take is refused (400 `parameter_unknown` naming it), as an unknown
 * body field is: a misspelt filter must not silently list everything.
 */
import { Schema } from "effect"
import { DisputeStatus } from "./Dispute.js"
import { EventType } from "./Event.js"
import { IsoDate } from "./Field.js"

/**
 * A query that refuses a parameter it does not declare. Unlike a body's `closed`, no
 * identifier: OpenAPI then lists each query parameter instead of one opaque reference.
 */
const query = <Fields extends Schema.Struct.Fields>(
  struct: Schema.Struct<Fields>
): Schema.Struct<Fields> => struct.annotations({ parseOptions: { onExcessProperty: "error" } })

/** Default page size. */
export const DEFAULT_LIMIT = 10
/** Largest page size. */
export const MAX_LIMIT = 100

/** `limit`: an integer from 1 to 100 in the query string. */
export const Limit = Schema.NumberFromString.pipe(
  Schema.int(),
  Schema.between(1, MAX_LIMIT, { message: () => `limit must be between 1 and ${MAX_LIMIT}` })
)

const UnixSeconds = Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative()).annotations({
  description: "Unix seconds."
})

/** Pagination, for every list. */
export const pagination = {
  limit: Schema.optionalWith(Limit, { default: () => DEFAULT_LIMIT }),
  starting_after: Schema.optional(
    Schema.String.annotations({ description: "Cursor: the last id of the previous page." })
  ),
  ending_before: Schema.optional(
    Schema.String.annotations({ description: "Cursor: the first id of the next page." })
  )
} as const

/** Filters on the creation time, Unix seconds. */
export const created = {
  "created[gte]": Schema.optional(UnixSeconds),
  "created[gt]": Schema.optional(UnixSeconds),
  "created[lte]": Schema.optional(UnixSeconds),
  "created[lt]": Schema.optional(UnixSeconds)
} as const

/** Query of lists with pagination only. */
export const ListParams = query(Schema.Struct(pagination))
export type ListParams = typeof ListParams.Type

/** `GET /v1/charges`. */
export const ChargeListParams = query(
  Schema.Struct({
    ...pagination,
    ...created,
    customer: Schema.optional(Schema.String)
  })
)
export type ChargeListParams = typeof ChargeListParams.Type

/** `GET /v1/refunds`. */
export const RefundListParams = query(
  Schema.Struct({
    ...pagination,
    ...created,
    charge: Schema.optional(Schema.String)
  })
)
export type RefundListParams = typeof RefundListParams.Type

/** `GET /v1/disputes`. */
export const DisputeListParams = query(
  Schema.Struct({
    ...pagination,
    ...created,
    charge: Schema.optional(Schema.String),
    status: Schema.optional(DisputeStatus)
  })
)
export type DisputeListParams = typeof DisputeListParams.Type

/** `GET /v1/events`. */
export const EventListParams = query(
  Schema.Struct({
    ...pagination,
    ...created,
    type: Schema.optional(EventType)
  })
)
export type EventListParams = typeof EventListParams.Type

/** `GET /v1/regions`: places only, by code; `date` picks the rules in force that day. */
export const RegionListParams = query(
  Schema.Struct({
    ...pagination,
    country: Schema.optional(
      Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/)).annotations({
        description: "Only this country and its subdivisions."
      })
    ),
    date: Schema.optional(IsoDate)
  })
)
export type RegionListParams = typeof RegionListParams.Type

/** `GET /v1/regions/{code}`. */
export const RegionParams = query(Schema.Struct({ date: Schema.optional(IsoDate) }))
export type RegionParams = typeof RegionParams.Type

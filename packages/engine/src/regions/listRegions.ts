/**
 * The ruleset's places (docs/design.md §3) by code, one country's or all, on `date` when
 * given: a list the ruleset holds, not the store, so its cursor is a region code and one that
 * names no region still pages from where it would sort.
 */
import { Field, ListParams, Region } from "@levy/api"
import { ComplianceRules } from "@levy/core"
import { Effect, Schema } from "effect"
import { CursorsConflict } from "../lists/ListErrors.js"
import * as ListRequest from "../lists/ListRequest.js"

/** The request: `limit` and the cursors, `country` (two letters) and `date`. */
export const RegionListRequest = Schema.Struct({
  limit: ListRequest.paging.limit,
  startingAfter: ListRequest.paging.startingAfter,
  endingBefore: ListRequest.paging.endingBefore,
  country: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/))),
  date: Schema.optional(Field.IsoDate)
}).annotations({ parseOptions: { onExcessProperty: "error" } })
export type RegionListRequest = typeof RegionListRequest.Type

/** One page of `items` (sorted by code) after or before the cursor. */
const page = <A extends { readonly regionCode: string }>(
  items: ReadonlyArray<A>,
  request: RegionListRequest
): { readonly data: ReadonlyArray<A>; readonly hasMore: boolean } => {
  const limit = request.limit ?? ListParams.DEFAULT_LIMIT
  if (request.endingBefore !== undefined) {
    const cursor = request.endingBefore.toUpperCase()
    const before = items.filter((r) => r.regionCode < cursor)
    return {
      data: before.slice(Math.max(0, before.length - limit)),
      hasMore: before.length > limit
    }
  }
  const cursor = request.startingAfter?.toUpperCase()
  const after = cursor === undefined ? items : items.filter((r) => r.regionCode > cursor)
  return { data: after.slice(0, limit), hasMore: after.length > limit }
}

export const listRegions = (
  request: RegionListRequest = {}
): Effect.Effect<
  { readonly data: ReadonlyArray<Region.Region>; readonly hasMore: boolean },
  CursorsConflict,
  ComplianceRules
> =>
  request.startingAfter !== undefined && request.endingBefore !== undefined
    ? Effect.fail(new CursorsConflict())
    : Effect.map(ComplianceRules, (rules) => {
        const country = request.country?.toUpperCase()
        const all = rules
          .regions(request.date)
          .filter((r) => country === undefined || r.country === country)
          .map(Region.fromEngine)
          .sort((a, b) => (a.regionCode < b.regionCode ? -1 : a.regionCode > b.regionCode ? 1 : 0))
        return page(all, request)
      })

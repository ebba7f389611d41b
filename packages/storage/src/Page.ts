/**
 * Cursor pagination shared by every list: newest first by `(created, id)`, Stripe's
 * `limit`, `starting_after`, `ending_before` and `created[gt|gte|lt|lte]`.
 */

/** Bounds on `created` (Unix seconds, as stored on the record). */
export interface CreatedRange {
  readonly gt?: number | undefined
  readonly gte?: number | undefined
  readonly lt?: number | undefined
  readonly lte?: number | undefined
}

/** What a list call asks for. `limit` is 1 to 100 (default 10); at most one cursor. */
export interface PageRequest {
  readonly limit?: number | undefined
  /** Id of the last item of the previous page: return items older than it. */
  readonly startingAfter?: string | undefined
  /** Id of the first item of the next page: return items newer than it. */
  readonly endingBefore?: string | undefined
  readonly created?: CreatedRange | undefined
}

/** One page of items, newest first, and whether more exist in the direction of travel. */
export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly hasMore: boolean
}

/** The page size actually used: default 10, clamped to 1..100. */
export const limitOf = (request: PageRequest): number =>
  Math.min(100, Math.max(1, Math.trunc(request.limit ?? 10)))

/** Whether `created` satisfies the range. */
export const inRange = (created: number, range: CreatedRange | undefined): boolean =>
  range === undefined ||
  ((range.gt === undefined || created > range.gt) &&
    (range.gte === undefined || created >= range.gte) &&
    (range.lt === undefined || created < range.lt) &&
    (range.lte === undefined || created <= range.lte))

/** Newest-first comparison by `(created, id)`. */
export const newestFirst = (
  a: { readonly created: number; readonly id: string },
  b: { readonly created: number; readonly id: string }
): number =>
  a.created !== b.created ? b.created - a.created : a.id < b.id ? 1 : a.id > b.id ? -1 : 0

/**
 * Pages a list already filtered and sorted newest first (the in-memory store), given the
 * cursor item when there is one. Mirrors the SQL keyset query exactly.
 */
export const paginate = <A extends { readonly created: number; readonly id: string }>(
  sorted: ReadonlyArray<A>,
  request: PageRequest,
  cursor: A | undefined
): Page<A> => {
  const limit = limitOf(request)
  if (cursor !== undefined && request.endingBefore !== undefined) {
    const newer = sorted.filter((item) => newestFirst(item, cursor) < 0)
    const data = newer.slice(Math.max(0, newer.length - limit))
    return { data, hasMore: newer.length > limit }
  }
  const older =
    cursor === undefined ? sorted : sorted.filter((item) => newestFirst(item, cursor) > 0)
  return { data: older.slice(0, limit), hasMore: older.length > limit }
}

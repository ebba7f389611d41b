/**
 * A page of a list for the Promise facade: the wire list (`object`, `data`, `has_more`,
 * `url`) plus `nextPage()`, and auto-pagination: the promise a list call returns is also
 * async-iterable, so `for await (const charge of levy.charges.list({ limit: 100 }))` walks
 * every page with `starting_after` (or `ending_before` when the first call paged backwards).
 * Paging backwards, each page (newest first, as the API lists) is walked from its end, so the
 * items come in one order across pages, oldest to newest, as stripe-node's auto-pagination does.
 */
import type { List } from "@levy/api"

/** The cursor parameters every list takes. */
export interface Cursor {
  readonly limit?: number | undefined
  readonly starting_after?: string | undefined
  readonly ending_before?: string | undefined
}

export class Page<T> implements List.List<T> {
  readonly object = "list" as const
  readonly data: ReadonlyArray<T>
  readonly has_more: boolean
  readonly url: string

  constructor(
    list: List.List<T>,
    private readonly fetchAfter: (item: T, backwards: boolean) => Promise<Page<T>>,
    private readonly backwards: boolean
  ) {
    this.data = list.data
    this.has_more = list.has_more
    this.url = list.url
  }

  /** The page's items in iteration order: reversed when paging backwards. */
  walk(): ReadonlyArray<T> {
    return this.backwards ? [...this.data].reverse() : this.data
  }

  /** The following page, or undefined when this is the last. */
  nextPage(): Promise<Page<T>> | undefined {
    // paging backwards, the page's newest item is the cursor; forwards, its oldest
    const edge = this.backwards ? this.data[0] : this.data[this.data.length - 1]
    if (!this.has_more || edge === undefined) return undefined
    return this.fetchAfter(edge, this.backwards)
  }
}

/** A list call's result: a promise of the first page, iterable over every item of every page. */
export type PagePromise<T> = Promise<Page<T>> & AsyncIterable<T>

async function* items<T>(first: Promise<Page<T>>): AsyncGenerator<T> {
  let page: Page<T> | undefined = await first
  while (page !== undefined) {
    yield* page.walk()
    page = await page.nextPage()
  }
}

/**
 * A list call: `fetch` gets one page for `params`; `cursorOf` gives an item's cursor (its id,
 * or a region's code).
 */
export const paginate = <T, P extends Cursor>(
  fetch: (params: P) => Promise<List.List<T>>,
  cursorOf: (item: T) => string,
  params: P
): PagePromise<T> => {
  const load = (query: P): Promise<Page<T>> =>
    fetch(query).then(
      (list) =>
        new Page(
          list,
          (item, backwards) =>
            load(
              backwards
                ? { ...query, ending_before: cursorOf(item) }
                : { ...query, starting_after: cursorOf(item) }
            ),
          query.ending_before !== undefined
        )
    )
  const first = load(params)
  return Object.assign(first, { [Symbol.asyncIterator]: () => items(first) })
}

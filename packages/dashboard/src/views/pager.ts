/**
 * A cursor-paged table, newest first: one page of `size`, and **← Newer** / **Older →**
 * following the list's cursors (`ending_before` the first id, `starting_after` the last).
 */
import type { Page } from "@levy/client"
import { button, type Child, guarded, h, mount, notice, table } from "../dom.js"

/** The cursors of a list query. */
export interface Cursor {
  readonly starting_after?: string
  readonly ending_before?: string
}

export interface Paged<A> {
  readonly caption: string
  readonly headers: ReadonlyArray<string>
  readonly row: (item: A) => ReadonlyArray<Child | ReadonlyArray<Child>>
  /** One page from the API, at `cursor`. */
  readonly fetch: (cursor: Cursor, limit: number) => Promise<Page<A>>
  readonly empty: string
}

/** Renders `paged`'s page at `cursor` into `out`; failures of the pager buttons go to `status`. */
export const showPage = async <A extends { readonly id: string }>(
  out: HTMLElement,
  status: HTMLElement,
  paged: Paged<A>,
  size: number,
  cursor: Cursor = {}
): Promise<void> => {
  const page = await paged.fetch(cursor, size)
  const first = page.data[0]
  const last = page.data[page.data.length - 1]
  const backwards = cursor.ending_before !== undefined
  // Paging backwards, has_more says whether newer ones remain; forwards, older ones.
  const newer = backwards ? page.has_more : cursor.starting_after !== undefined
  const older = backwards ? true : page.has_more
  const go = (next: Cursor) => guarded(status, () => showPage(out, status, paged, size, next))
  mount(
    out,
    page.data.length === 0
      ? notice(paged.empty)
      : table(paged.caption, paged.headers, page.data.map(paged.row)),
    h(
      "div",
      { class: "pager" },
      button("← Newer", go({ ending_before: first?.id ?? "" }), {
        disabled: !newer || first === undefined
      }),
      button("Older →", go({ starting_after: last?.id ?? "" }), {
        disabled: !older || last === undefined
      })
    )
  )
}

/** A page of a list (`object: "list"`): the items, whether more follow, and the list's path. */
import { Schema } from "effect"

/** A list of `item`s, named `identifier` in the OpenAPI document. */
export const List = <Item extends Schema.Schema.AnyNoContext>(item: Item, identifier: string) =>
  Schema.Struct({
    object: Schema.Literal("list"),
    data: Schema.Array(item),
    has_more: Schema.Boolean.annotations({
      description: "true when more items follow; page on with starting_after = the last id."
    }),
    url: Schema.String.annotations({ description: "The list's request path, e.g. /v1/charges." })
  }).annotations({ identifier })

/** A list page of `A`. */
export interface List<A> {
  readonly object: "list"
  readonly data: ReadonlyArray<A>
  readonly has_more: boolean
  readonly url: string
}

/** A page of `data` at `url`. */
export const make = <A>(data: ReadonlyArray<A>, hasMore: boolean, url: string): List<A> => ({
  object: "list",
  data,
  has_more: hasMore,
  url
})

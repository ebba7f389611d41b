/**
 * The handlers of one group of the contract (`ServerApi`), as a service the edge serves
 * (http/Edge.ts). Written with `HttpApiBuilder.group` itself (`handlers.handle("create",
 * ({ payload }) => …)`, every endpoint required, its request, success and errors typed by the
 * contract, `{ uninterruptible: true }` honoured), but served as plain functions: the edge
 * decodes and encodes with the contract's schemas itself and calls them, with no router
 * between (docs/performance.md).
 */
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Context, Effect, Layer, Scope } from "effect"
import { ServerApi } from "./ServerApi.js"

type Api = typeof ServerApi
type Groups = Api extends HttpApi.HttpApi<infer _Id, infer G, infer _E, infer _R> ? G : never
type ApiR = Api extends HttpApi.HttpApi<infer _Id, infer _G, infer _E, infer R> ? R : never
type ApiE = Api extends HttpApi.HttpApi<infer _Id, infer _G, infer E, infer _R> ? E : never

/** A group's name in the contract. */
export type GroupName = HttpApiGroup.HttpApiGroup.Name<Groups>

/** The builder `build` gets: the platform's, typed by the group's endpoints. */
export type Builder<Name extends GroupName> = HttpApiBuilder.Handlers.FromGroup<
  ApiE,
  ApiR,
  HttpApiGroup.HttpApiGroup.WithName<Groups, Name>
>

/** One endpoint's handler: the decoded request in, the success out (the edge encodes it). */
export interface Handler {
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly run: (request: {
    readonly path?: unknown
    readonly urlParams?: unknown
    readonly payload?: unknown
    readonly headers?: unknown
  }) => Effect.Effect<unknown, unknown>
}

/** A group's handlers by endpoint name, and the context they were built in. */
export interface GroupHandlers {
  readonly group: string
  readonly handlers: ReadonlyMap<string, Handler>
  /** What the handlers run in (their repositories, processors…), besides the request's own. */
  readonly context: Context.Context<never>
}

/** The service of group `Name`'s handlers. */
export interface Served<Name extends string> {
  readonly _: Name
}

const tags = new Map<string, Context.Tag<unknown, GroupHandlers>>()

/** The Tag of group `name`'s handlers. */
export const tagOf = <Name extends string>(
  name: Name
): Context.Tag<Served<Name>, GroupHandlers> => {
  let tag = tags.get(name)
  if (tag === undefined) {
    tag = Context.GenericTag<unknown, GroupHandlers>(`@levy/server/ApiHandlers/${name}`)
    tags.set(name, tag)
  }
  return tag as Context.Tag<Served<Name>, GroupHandlers>
}

/** What `HttpApiBuilder.group` hands `build` and gets back: the platform's typed builder. */
type Built = HttpApiBuilder.Handlers<unknown, unknown, unknown, HttpApiEndpoint.HttpApiEndpoint.Any>

/** An item's handler as the edge calls it, uninterruptible when the group asked for it. */
const runOf = (item: HttpApiBuilder.Handlers.Item<unknown, unknown>): Handler["run"] => {
  const handler = item.handler as (request: object) => Effect.Effect<unknown, unknown>
  return item.uninterruptible ? (request) => Effect.uninterruptible(handler(request)) : handler
}

/**
 * The layer of group `name`'s handlers. `build` is run by the platform's own
 * `HttpApiBuilder.group` (its public builder, `handle` with its options), over a router of its
 * own that nothing serves: the edge keeps the handlers `build` returned and routes to them
 * itself. A handler runs in the context the layer was built in (its repositories,
 * processors…) plus the request's (the key, the claim), as with `HttpApiBuilder.group`: the
 * edge merges the groups' contexts into its own once, at start-up (`all`), not per request.
 */
export const group = <const Name extends GroupName, Return>(
  name: Name,
  build: (handlers: Builder<Name>) => HttpApiBuilder.Handlers.ValidateReturn<Return>
): Layer.Layer<
  Served<Name>,
  HttpApiBuilder.Handlers.Error<Return>,
  Exclude<HttpApiBuilder.Handlers.Context<Return>, Scope.Scope>
> =>
  Layer.scoped(
    tagOf(name),
    Effect.gen(function* () {
      // Without the layer's own scope, which a request's handler must not extend.
      const context = Context.omit(Scope.Scope)(yield* Effect.context<never>())
      let built: Built | undefined
      const keep = (handlers: Built) => {
        built = handlers
        return handlers
      }
      yield* Layer.build(
        HttpApiBuilder.group(ServerApi, name, (handlers) => {
          const result = build(handlers) as unknown as Built | Effect.Effect<Built>
          return (Effect.isEffect(result) ? Effect.map(result, keep) : keep(result)) as never
        }).pipe(Layer.provide(HttpApiBuilder.Router.Live))
      )
      if (built === undefined) return yield* Effect.dieMessage(`no handlers built for ${name}`)
      const handlers = new Map<string, Handler>()
      for (const item of built.handlers) {
        const endpoint = item.endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
        if (item.withFullRequest) {
          return yield* Effect.dieMessage(
            `${name}.${endpoint.name}: the edge serves decoded requests only; use handle.`
          )
        }
        handlers.set(endpoint.name, { endpoint, run: runOf(item) })
      }
      return { group: name, handlers, context }
    })
  ) as never

/** Every group's handlers, by `group.endpoint`, and the context they all run in. */
export const all: Effect.Effect<
  { readonly handlers: ReadonlyMap<string, Handler>; readonly context: Context.Context<never> },
  never,
  Served<GroupName>
> = Effect.gen(function* () {
  const handlers = new Map<string, Handler>()
  let context = Context.empty() as Context.Context<never>
  for (const name of Object.keys((ServerApi as unknown as HttpApi.HttpApi.AnyWithProps).groups)) {
    const served = yield* tagOf(name as GroupName)
    context = Context.merge(context, served.context)
    for (const [endpoint, handler] of served.handlers) handlers.set(`${name}.${endpoint}`, handler)
  }
  return { handlers, context }
})

/**
 * The handlers of one group of the contract (`ServerApi`), as a service the edge serves
 * (http/Edge.ts). Written with the same typed builder as `HttpApiBuilder.group`
 * (`handlers.handle("create", ({ payload }) => …)`, every endpoint required, its request,
 * success and errors typed by the contract), but kept as plain functions: the edge decodes and
 * encodes with the contract's schemas itself and calls them, with no router between.
 */
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Chunk, Context, Effect, Layer, type Scope } from "effect"
import { pipeArguments } from "effect/Pipeable"
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

const builderProto = {
  [HttpApiBuilder.HandlersTypeId]: { _Endpoints: (a: unknown) => a },
  pipe() {
    // biome-ignore lint/complexity/noArguments: Pipeable's contract
    return pipeArguments(this, arguments)
  },
  handle(
    this: { group: HttpApiGroup.HttpApiGroup.AnyWithProps; handlers: Chunk.Chunk<unknown> },
    name: string,
    handler: unknown
  ) {
    return makeBuilder(
      this.group,
      Chunk.append(this.handlers, { endpoint: this.group.endpoints[name], handler })
    )
  },
  handleRaw(this: { group: HttpApiGroup.HttpApiGroup.AnyWithProps }, name: string) {
    throw new Error(
      `${this.group.identifier}.${name}: the edge serves decoded requests only; use handle.`
    )
  }
}

const makeBuilder = (
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  handlers: Chunk.Chunk<unknown>
) => Object.assign(Object.create(builderProto), { group, handlers })

interface Item {
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly handler: (request: object) => Effect.Effect<unknown, unknown, unknown>
}

/**
 * The layer of group `name`'s handlers. A handler runs in the context the layer was built in
 * (its repositories, processors…) plus the request's (the key, the claim), as with
 * `HttpApiBuilder.group`: the edge merges the groups' contexts into its own once, at
 * start-up (`all`), not per request.
 */
export const group = <const Name extends GroupName, Return>(
  name: Name,
  build: (handlers: Builder<Name>) => HttpApiBuilder.Handlers.ValidateReturn<Return>
): Layer.Layer<
  Served<Name>,
  HttpApiBuilder.Handlers.Error<Return>,
  Exclude<HttpApiBuilder.Handlers.Context<Return>, Scope.Scope>
> =>
  Layer.effect(
    tagOf(name),
    Effect.gen(function* () {
      const context = yield* Effect.context<never>()
      const apiGroup = (ServerApi as unknown as HttpApi.HttpApi.AnyWithProps).groups[name]
      if (apiGroup === undefined) return yield* Effect.dieMessage(`no group ${name} in the API`)
      const result = build(makeBuilder(apiGroup, Chunk.empty()) as Builder<Name>) as unknown
      const built = (
        Effect.isEffect(result) ? yield* result as Effect.Effect<unknown> : result
      ) as { readonly handlers: Chunk.Chunk<Item> }
      const handlers = new Map<string, Handler>()
      for (const item of built.handlers) {
        handlers.set(item.endpoint.name, {
          endpoint: item.endpoint,
          run: (request) => item.handler(request) as Effect.Effect<unknown, unknown>
        })
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

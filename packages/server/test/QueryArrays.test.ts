/**
 * The query as its schema reads it (http/QueryArrays.ts): a name typed as an array gets one when
 * sent once, as HttpApiBuilder's router gives its handlers — checked against that router itself
 * (served through the platform's public `HttpApiBuilder.toWebHandler`) on the same queries.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpServer from "@effect/platform/HttpServer"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, ParseResult, Schema } from "effect"
import * as QueryArrays from "../src/http/QueryArrays.js"

const Params = Schema.Struct({
  tags: Schema.optional(Schema.Array(Schema.String)),
  limit: Schema.optional(Schema.NumberFromString),
  order: Schema.optional(Schema.Literal("asc", "desc")),
  name: Schema.optional(Schema.String.pipe(Schema.minLength(1))),
  either: Schema.optional(Schema.Union(Schema.String, Schema.Array(Schema.String)))
})

const normalize = QueryArrays.normalizer(Params.ast)

describe("a query normalised by its schema", () => {
  it("gives a name typed as an array a list of its one value", () => {
    expect(normalize({ tags: "a" })).toStrictEqual({ tags: ["a"] })
    expect(normalize({ tags: ["a", "b"] })).toStrictEqual({ tags: ["a", "b"] })
  })

  it("leaves a name that takes one string as sent, repeated or not", () => {
    expect(normalize({ limit: "5", order: "asc", name: "x", either: "y" })).toStrictEqual({
      limit: "5",
      order: "asc",
      name: "x",
      either: "y"
    })
    expect(normalize({ limit: ["5", "6"] })).toStrictEqual({ limit: ["5", "6"] })
  })

  it("gives a name the schema does not declare a list, as the platform's router does", () => {
    expect(normalize({ other: "z" })).toStrictEqual({ other: ["z"] })
  })

  it("reads a name through an index signature", () => {
    const open = QueryArrays.normalizer(
      Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }).ast
    )
    expect(open({ any: "v" })).toStrictEqual({ any: ["v"] })
  })
})

describe("against HttpApiBuilder's own router", () => {
  const Api = HttpApi.make("queries").add(
    HttpApiGroup.make("q").add(
      HttpApiEndpoint.get("read", "/q").setUrlParams(Params).addSuccess(Schema.Unknown)
    )
  )
  const served = HttpApiBuilder.toWebHandler(
    Layer.mergeAll(
      HttpApiBuilder.api(Api).pipe(
        Layer.provide(
          HttpApiBuilder.group(Api, "q", (handlers) =>
            handlers.handle("read", ({ urlParams }) =>
              Effect.succeed(Schema.encodeSync(Params)(urlParams))
            )
          )
        )
      ),
      HttpServer.layerContext
    )
  )
  afterAll(() => served.dispose())

  const decode = ParseResult.decodeUnknownEither(Params)

  /** What the edge's normalisation and decoding make of `query`, encoded back. */
  const edge = (query: string) => {
    const params: Record<string, string | Array<string>> = {}
    for (const [name, value] of new URLSearchParams(query)) {
      const seen = params[name]
      params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]
    }
    return Either.map(decode(normalize(params)), Schema.encodeSync(Params))
  }

  it.each([
    "tags=a",
    "tags=a&tags=b",
    "limit=5&order=desc&name=x",
    "either=y",
    "either=y&either=z",
    "tags=a&limit=7"
  ])("decodes ?%s as the router does", async (query) => {
    const response = await served.handler(new Request(`http://levy.test/q?${query}`))
    expect(response.status).toBe(200)
    const decoded = edge(query)
    expect(Either.isRight(decoded)).toBe(true)
    expect(Either.getOrThrow(decoded)).toStrictEqual(await response.json())
  })

  it("refuses a repeated single-valued name as the router does", async () => {
    const response = await served.handler(new Request("http://levy.test/q?limit=5&limit=6"))
    expect(response.status).toBe(400)
    expect(Either.isLeft(edge("limit=5&limit=6"))).toBe(true)
  })
})

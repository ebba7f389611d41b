/**
 * Error messages a person reads: for any input to any request schema of the
 * API (body, query, path, headers), the 400 a failed decode becomes is bounded, names the
 * field, and shows none of the schema's internals — no "Expected {", no "readonly", no
 * identifier, no annotation's description — and no long echo of the input.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { SchemaAST as AST, Either, Option, type ParseResult, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as ApiError from "../src/ApiError.js"
import { ChargeCreate } from "../src/ChargeCreate.js"
import { ChargeUpdate } from "../src/ChargeUpdate.js"
import * as DecodeMessage from "../src/DecodeMessage.js"
import { EstimateRequest } from "../src/EstimateRequest.js"
import { LevyApi } from "../src/LevyApi.js"
import { RefundCreate } from "../src/RefundCreate.js"

type AnySchema = Schema.Schema<unknown, unknown>

/** Every request schema of the API: payloads, query, path and headers, by endpoint. */
const requestSchemas = (): ReadonlyArray<{ readonly name: string; readonly schema: AnySchema }> => {
  const out: Array<{ name: string; schema: AnySchema }> = []
  HttpApi.reflect(LevyApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      const parts: Record<string, Option.Option<unknown>> = {
        payload: endpoint.payloadSchema,
        query: endpoint.urlParamsSchema,
        path: endpoint.pathSchema,
        headers: endpoint.headersSchema
      }
      for (const [part, schema] of Object.entries(parts)) {
        if (Option.isSome(schema)) {
          out.push({
            name: `${endpoint.method} ${endpoint.path} ${part}`,
            schema: schema.value as AnySchema
          })
        }
      }
    }
  })
  return out
}

const schemas = requestSchemas()

/** The schemas directly under `ast`. */
const childrenOf = (ast: AST.AST): ReadonlyArray<AST.AST> => {
  switch (ast._tag) {
    case "Refinement":
      return [ast.from]
    case "Transformation":
      return [ast.from, ast.to]
    case "Suspend":
      return [ast.f()]
    case "Union":
      return ast.types
    case "TypeLiteral":
      return [...ast.propertySignatures, ...ast.indexSignatures].map((p) => p.type)
    case "TupleType":
      return [...ast.elements, ...ast.rest].map((e) => e.type)
    case "Declaration":
      return ast.typeParameters
    default:
      return []
  }
}

/** Every node of `root`, once. */
const nodesOf = (root: AST.AST): ReadonlyArray<AST.AST> => {
  const seen = new Set<AST.AST>([root])
  const queue = [root]
  for (let ast = queue.pop(); ast !== undefined; ast = queue.pop()) {
    for (const child of childrenOf(ast)) {
      if (!seen.has(child)) {
        seen.add(child)
        queue.push(child)
      }
    }
  }
  return [...seen]
}

/** The texts a message must never show: descriptions and identifiers of the schemas' nodes. */
const internals = [
  ...new Set(
    schemas.flatMap(({ schema }) =>
      nodesOf(schema.ast).flatMap((ast) =>
        [AST.getDescriptionAnnotation(ast), AST.getIdentifierAnnotation(ast)]
          .filter(Option.isSome)
          .map((o) => o.value)
      )
    )
  )
].filter((text) => text.length >= 12)

/** The property names the schemas take, so fuzzed objects hit real fields. */
const fieldNames = [
  ...new Set(
    schemas.flatMap(({ schema }) =>
      nodesOf(schema.ast).flatMap((ast) =>
        AST.isTypeLiteral(ast) ? ast.propertySignatures.map((p) => String(p.name)) : []
      )
    )
  )
]

const long = fc.string({ minLength: 41, maxLength: 7000 })
const leaf = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 10.5, 1e21, "", "x", "[]", "{}"),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 60 }),
  long
)
const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: "small" }, leaf, tie("list"), tie("object")),
  list: fc.array(tie("any"), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), fc.string(), long), tie("any"), {
    maxKeys: 5
  })
})).any

const BANNED = ["Expected {", "readonly", "Expected ", ", actual ", "| filter", "Schema"]

const refusalOf = (schema: AnySchema, input: unknown) => {
  const decoded = Schema.decodeUnknownEither(schema)(input)
  return Either.isLeft(decoded)
    ? ApiError.fromParseError(decoded.left as ParseResult.ParseError)
    : undefined
}

describe("decode errors as a person reads them", () => {
  it("the schemas were found, with descriptions to keep out of messages", () => {
    expect(schemas.length).toBeGreaterThan(30)
    expect(internals).toContain(
      "Part of the base amount to refund, minor units; default all that is left."
    )
    expect(fieldNames).toContain("metadata")
  })

  it("any input to any request schema: a bounded message naming the field, no internals", () => {
    fc.assert(
      fc.property(fc.constantFrom(...schemas), value, ({ schema }, input) => {
        const refused = refusalOf(schema, input)
        if (refused === undefined) return
        expect(refused.message.length).toBeLessThanOrEqual(DecodeMessage.MAX_MESSAGE)
        expect((refused.param ?? "").length).toBeLessThanOrEqual(200)
        for (const banned of BANNED) expect(refused.message).not.toContain(banned)
        for (const text of internals) expect(refused.message).not.toContain(text)
      }),
      { numRuns: 1500 }
    )
  }, 120_000)

  it("the issue's examples: what was wrong, what is allowed, nothing of the schema", () => {
    expect(refusalOf(RefundCreate as AnySchema, { charge: "ch_1", amount: 0 })?.message).toBe(
      "Invalid amount: must be an integer greater than 0 (got 0)"
    )
    expect(refusalOf(ChargeUpdate as AnySchema, { metadata: "x" })?.message).toBe(
      'Invalid metadata: must be an object of key-value pairs with at most 17 keys (got "x")'
    )
    expect(refusalOf(EstimateRequest as AnySchema, null)?.message).toBe(
      "Invalid request: the parameters must be an object (got null)"
    )
    const description = "d".repeat(6000)
    const refused = refusalOf(ChargeCreate as AnySchema, {
      amount: 1000,
      currency: "usd",
      description
    })
    expect(refused?.param).toBe("description")
    expect(refused?.message).toMatch(
      /^Invalid description: must be a string of at most \d+ characters \(got "d+… \(6000 characters\)\)$/
    )
    expect(refused?.message.length).toBeLessThan(160)
  })

  it("a long unknown key or metadata key is cut in param and message alike", () => {
    const key = "k".repeat(5000)
    const unknown = refusalOf(ChargeCreate as AnySchema, {
      amount: 1000,
      currency: "usd",
      [key]: 1
    })
    expect(unknown?.code).toBe("parameter_unknown")
    expect(unknown?.param?.length).toBe(DecodeMessage.MAX_ECHO)
    const inMetadata = refusalOf(ChargeCreate as AnySchema, {
      amount: 1000,
      currency: "usd",
      metadata: { [key]: "v" }
    })
    expect(inMetadata?.param).toBe(`metadata[${DecodeMessage.cut(key)}]`)
  })

  it("a union says what any of its members allows, not its first member", () => {
    const schema = Schema.Struct({ region: Schema.NullOr(Schema.String) })
    expect(refusalOf(schema as AnySchema, { region: 5 })?.message).toBe(
      "Invalid region: must be a string or null (got 5)"
    )
  })
})

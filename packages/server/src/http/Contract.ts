/**
 * The served API's endpoints as the edge serves them (Edge.ts), taken from the HttpApi
 * definition, the single contract: method and path, the schemas that decode the path, the
 * query, the headers and the payload (JSON, or a form body coerced by the same schema), and the
 * one that encodes the success. Decoding
 * and encoding are synchronous (`ParseResult.…Either`): every schema of the API is, and an
 * Either costs the request no fiber steps.
 *
 * The edge serves what the API uses and no more: JSON successes with one status, payloads on
 * POST only, no middleware but the API-wide `Authorization`. A contract that asks for more
 * stops the server at start-up with a message naming the endpoint, rather than being served
 * wrongly.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { ApiError, Authorization } from "@levy/api"
import { Either, Option, ParseResult, type Schema } from "effect"
import * as FormBody from "./FormBody.js"
import * as QueryArrays from "./QueryArrays.js"

/** A decoder: the wire value in, the decoded value or the API's 400 naming the field out. */
export type Decode = (input: unknown) => Either.Either<unknown, ApiError.InvalidRequestError>

export interface Endpoint {
  readonly group: string
  readonly name: string
  readonly method: string
  readonly path: string
  readonly decodePath: Option.Option<Decode>
  readonly decodeUrlParams: Option.Option<Decode>
  readonly decodePayload: Option.Option<Decode>
  /** The payload from a form body: its strings turned to the schema's types, then decoded alike. */
  readonly decodeFormPayload: Option.Option<Decode>
  readonly decodeHeaders: Option.Option<Decode>
  readonly encodeSuccess: (value: unknown) => Either.Either<unknown, ParseResult.ParseError>
  readonly status: number
  readonly contentType: string
}

/** A request's endpoint and its path parameters. */
export interface Match {
  readonly endpoint: Endpoint
  readonly params: Readonly<Record<string, string>>
}

const decoder = (schema: Schema.Schema.Any): Decode => {
  const decode = ParseResult.decodeUnknownEither(schema as Schema.Schema<unknown, unknown>)
  // The 400 naming the first field, worded for a person (DecodeMessage.ts).
  return (input) => Either.mapLeft(decode(input), ApiError.fromParseIssue)
}

/** The query normalised as the schema reads it (QueryArrays.ts), then decoded. */
const urlParamsDecoder = (schema: Schema.Schema.Any): Decode => {
  const decode = decoder(schema)
  const normalize = QueryArrays.normalizer(schema.ast)
  return (input) => decode(normalize(input as QueryArrays.Query))
}

/** A form body's parameters (FormBody.ts) coerced by the schema, then decoded as JSON is. */
const formDecoder = (schema: Schema.Schema.Any): Decode => {
  const decode = decoder(schema)
  return (input) => decode(FormBody.coerce(schema.ast, input))
}

/** An endpoint's optional schema, as any schema (the edge reads what each declares). */
const schemaOf = (schema: Option.Option<unknown>) => schema as Option.Option<Schema.Schema.Any>

const unsupported = (endpoint: string, what: string) =>
  new Error(`${endpoint}: ${what}; Levy's edge (http/Contract.ts) does not serve that.`)

/** Every endpoint of `api`; throws at start-up when the contract asks for what the edge lacks. */
export const endpointsOf = (api: HttpApi.HttpApi.Any): ReadonlyArray<Endpoint> => {
  const props = api as HttpApi.HttpApi.AnyWithProps
  const middlewares = [...props.middlewares]
  if (middlewares.length !== 1 || middlewares[0]?.key !== Authorization.Authorization.key) {
    throw unsupported("the API", "a middleware other than Authorization")
  }
  const endpoints: Array<Endpoint> = []
  HttpApi.reflect(props, {
    onGroup: () => undefined,
    onEndpoint: ({ group, endpoint, successes }) => {
      const id = `${group.identifier}.${endpoint.name}`
      if (group.middlewares.size > 0 || endpoint.middlewares.size > 0) {
        throw unsupported(id, "a middleware of its own")
      }
      const [success, ...others] = successes
      if (success === undefined || others.length > 0) throw unsupported(id, "not one success")
      const [status, { ast }] = success
      if (Option.isNone(ast)) throw unsupported(id, "an empty success")
      const encoding = HttpApiSchema.getEncoding(ast.value)
      if (encoding.kind !== "Json") throw unsupported(id, `a ${encoding.kind} success`)
      const payload = endpoint.payloadSchema
      if (Option.isSome(payload) && endpoint.method !== "POST") {
        throw unsupported(id, `a payload on ${endpoint.method}`)
      }
      const encode = ParseResult.encodeEither(endpoint.successSchema as Schema.Schema<unknown>)
      endpoints.push({
        group: group.identifier,
        name: endpoint.name,
        method: endpoint.method,
        path: endpoint.path,
        decodePath: Option.map(schemaOf(endpoint.pathSchema), decoder),
        decodeUrlParams: Option.map(schemaOf(endpoint.urlParamsSchema), urlParamsDecoder),
        decodePayload: Option.map(schemaOf(payload), decoder),
        decodeFormPayload: Option.map(schemaOf(payload), formDecoder),
        decodeHeaders: Option.map(schemaOf(endpoint.headersSchema), decoder),
        encodeSuccess: (value) => Either.mapLeft(encode(value), ParseResult.parseError),
        status,
        contentType: encoding.contentType
      })
    }
  })
  return endpoints
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** `path` as a pattern: `:name` is one segment, a trailing `/` allowed. */
const patternOf = (path: string) =>
  new RegExp(`^${escape(path).replace(/:(\w+)/g, "(?<$1>[^/]+)")}/?$`)

/**
 * The endpoints' routing table: a path without parameters is looked up, one with them is
 * matched in order; a fixed path wins over a parameter (`…/pending/approve` over `…/:id`).
 */
export const router = (endpoints: ReadonlyArray<Endpoint>) => {
  const fixed = new Map<string, Array<Endpoint>>()
  const patterned: Array<{
    readonly endpoint: Endpoint
    readonly prefix: string
    readonly pattern: RegExp
  }> = []
  for (const endpoint of endpoints) {
    const param = endpoint.path.indexOf(":")
    if (param !== -1) {
      const prefix = endpoint.path.slice(0, param)
      patterned.push({ endpoint, prefix, pattern: patternOf(endpoint.path) })
    } else {
      for (const path of [endpoint.path, `${endpoint.path}/`]) {
        fixed.set(path, [...(fixed.get(path) ?? []), endpoint])
      }
    }
  }
  const none: Readonly<Record<string, string>> = {}

  /** Every endpoint at `pathname`, with its parameters (percent-decoded), fixed paths first. */
  const at = (pathname: string): ReadonlyArray<Match> => {
    const matches: Array<Match> = (fixed.get(pathname) ?? []).map((endpoint) => ({
      endpoint,
      params: none
    }))
    for (const { endpoint, prefix, pattern } of patterned) {
      if (!pathname.startsWith(prefix)) continue
      const groups = pattern.exec(pathname)?.groups
      if (groups === undefined) continue
      const params = decodeParams(groups)
      if (params !== undefined) matches.push({ endpoint, params })
    }
    return matches
  }

  const order = new Map(endpoints.map((endpoint, index) => [endpoint, index]))
  const byOrder = (a: Match, b: Match) =>
    (order.get(a.endpoint) ?? 0) - (order.get(b.endpoint) ?? 0)

  return {
    /** Every endpoint at `pathname`: what `find` and `methods` look in. */
    at,
    /** The endpoint for `method` among `matches`, if any (HEAD is answered as GET, without a body). */
    find: (matches: ReadonlyArray<Match>, method: string): Match | undefined => {
      const wanted = method === "HEAD" ? "GET" : method
      return matches.find((match) => match.endpoint.method === wanted)
    },
    /**
     * The methods of `matches`, in the contract's order (for 405 and CORS preflights); empty
     * for an unknown path.
     */
    methods: (matches: ReadonlyArray<Match>): ReadonlyArray<string> =>
      matches.length === 1
        ? [(matches[0] as Match).endpoint.method]
        : [...new Set([...matches].sort(byOrder).map((match) => match.endpoint.method))]
  }
}

export type Router = ReturnType<typeof router>

/** Path parameters percent-decoded; undefined when one is not valid percent-encoding. */
const decodeParams = (
  groups: Readonly<Record<string, string>>
): Record<string, string> | undefined => {
  const params: Record<string, string> = {}
  for (const [name, value] of Object.entries(groups)) {
    try {
      params[name] = value.includes("%") ? decodeURIComponent(value) : value
    } catch {
      return undefined
    }
  }
  return params
}

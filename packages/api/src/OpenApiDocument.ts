/**
 * The finishing pass over the OpenAPI document `OpenApi.fromApi(LevyApi)` derives: removes
 * `HttpApiDecodeError` (the server answers decode failures with InvalidRequestError, see
 * stack-notes) and the components only it used, documents the `Levy-Version` header on
 * every operation (the client sends it; the server validates and echoes it), lets every
 * operation take the document's bearer security (the derived `security: []` on each one
 * would say "no key", and the reference's samples would send none), and gives bodies, ids
 * and the Idempotency-Key real examples (OpenApiExamples.ts), and lists the form encoding
 * beside JSON for every body.
 */
import { API_VERSION, ApiVersion } from "./Headers.js"
import * as OpenApiExamples from "./OpenApiExamples.js"

type Json = Record<string, unknown>

const SCHEMAS = "#/components/schemas/"
const DECODE_ERROR = "HttpApiDecodeError"

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const objectAt = (value: unknown, key: string): Json | undefined =>
  isObject(value) && isObject(value[key]) ? (value[key] as Json) : undefined

/** The component a `{$ref}` names, or undefined. */
const refName = (schema: unknown): string | undefined => {
  const ref = isObject(schema) ? schema.$ref : undefined
  return typeof ref === "string" && ref.startsWith(SCHEMAS) ? ref.slice(SCHEMAS.length) : undefined
}

const isDecodeError = (schema: unknown): boolean => refName(schema) === DECODE_ERROR

/** The `Levy-Version` header parameter. */
export const levyVersionParameter = {
  name: "Levy-Version",
  in: "header",
  required: false,
  description: `API version (default ${API_VERSION}); echoed in the response. Unknown versions are a 400.`,
  schema: { type: "string", enum: [...ApiVersion.literals] }
}

/** The document, finished; the input is not modified. */
export const transform = (spec: Json): Json => {
  const copy = structuredClone(spec)
  const schemas = objectAt(objectAt(copy, "components"), "schemas") ?? {}
  for (const [path, operations] of Object.entries(objectAt(copy, "paths") ?? {})) {
    if (!isObject(operations)) continue
    for (const operation of Object.values(operations)) {
      if (!isObject(operation)) continue
      stripDecodeError(operation, schemas)
      const parameters = Array.isArray(operation.parameters) ? operation.parameters : []
      operation.parameters = [...parameters.map((p) => withExample(p, path)), levyVersionParameter]
      if (Array.isArray(operation.security) && operation.security.length === 0) {
        delete operation.security
      }
      addBodyExample(operation)
      addFormBody(operation)
    }
  }
  delete schemas[DECODE_ERROR]
  pruneUnreferenced(copy, schemas)
  return copy
}

/** A path or header parameter with a value a person can send. */
const withExample = (parameter: unknown, path: string): unknown => {
  if (!isObject(parameter)) return parameter
  if (parameter.in === "header" && String(parameter.name).toLowerCase() === "idempotency-key") {
    return { ...parameter, example: OpenApiExamples.IDEMPOTENCY_KEY }
  }
  if (parameter.in !== "path") return parameter
  const collection = /^\/v1\/([^/]+)\//.exec(path)?.[1]
  const example = collection === undefined ? undefined : OpenApiExamples.pathIds[collection]
  return example === undefined ? parameter : { ...parameter, example }
}

/** The request body's example, by the schema it names (directly or in an anyOf with null). */
const addBodyExample = (operation: Json): void => {
  const json = objectAt(objectAt(objectAt(operation, "requestBody"), "content"), "application/json")
  if (json === undefined) return
  const schema = json.schema
  const anyOf = isObject(schema) && Array.isArray(schema.anyOf) ? schema.anyOf : [schema]
  const name = anyOf.map(refName).find((n) => n !== undefined)
  const example = name === undefined ? undefined : OpenApiExamples.bodies[name]
  if (example !== undefined) json.example = example
}

/**
 * The same body as a form (`application/x-www-form-urlencoded`, bracket notation), which the
 * server takes on every POST that takes JSON, each value turned into the schema's type there
 * (docs/server.md "Form bodies").
 */
const addFormBody = (operation: Json): void => {
  const content = objectAt(objectAt(operation, "requestBody"), "content")
  const json = objectAt(content, "application/json")
  if (content === undefined || json === undefined) return
  content["application/x-www-form-urlencoded"] = { schema: json.schema }
}

/** Removes the decode error from an operation's responses, keeping the others at its status. */
const stripDecodeError = (operation: Json, schemas: Json): void => {
  const responses = objectAt(operation, "responses") ?? {}
  for (const [status, response] of Object.entries(responses)) {
    const json = objectAt(objectAt(response, "content"), "application/json")
    if (!isObject(response) || json === undefined) continue
    if (isDecodeError(json.schema)) {
      delete responses[status]
      continue
    }
    const anyOf = objectAt(json, "schema")?.anyOf
    if (!Array.isArray(anyOf) || !anyOf.some(isDecodeError)) continue
    const rest = anyOf.filter((s) => !isDecodeError(s))
    json.schema = rest.length === 1 ? rest[0] : { ...objectAt(json, "schema"), anyOf: rest }
    // The response took the decode error's description; use the remaining error's.
    const name = rest.length === 1 ? refName(rest[0]) : undefined
    const description = name === undefined ? undefined : objectAt(schemas, name)?.description
    response.description = typeof description === "string" ? description : "Error"
  }
}

/** Drops components no path reaches (e.g. the decode error's Issue). */
const pruneUnreferenced = (spec: Json, schemas: Json): void => {
  const reached = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    if (!isObject(node)) return
    const name = refName(node)
    if (name !== undefined && !reached.has(name)) {
      reached.add(name)
      visit(schemas[name])
    }
    for (const value of Object.values(node)) visit(value)
  }
  visit(spec.paths)
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name]
}

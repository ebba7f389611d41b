/**
 * Form-encoded bodies (`application/x-www-form-urlencoded`), as Stripe's API takes them
 * (docs/server.md "Form bodies"): `curl -d amount=1000 -d currency=usd`, bracket notation for
 * objects (`metadata[order]=42`, `card[network]=visa`) and lists (`a[]=x`, `a[0]=x`). The text
 * is parsed by `qs` within limits that make a hostile body a 400, never a hang: at most
 * `MAX_PARAMETERS` pairs, `MAX_DEPTH` levels of brackets, `MAX_LIST` items in a list.
 *
 * Every value arrives as a string; `coerce` turns each into what the endpoint's schema takes
 * there, walking the schema (not guessing by looks): a number where it takes a number
 * ("10.5" stays 10.5, which an integer field refuses), `true`/`false` where a boolean, `null`
 * for an empty value where the field is nullable and no string fits. What it cannot turn is
 * left as sent, and the schema refuses it naming the field, exactly as for JSON.
 */
import { ApiError } from "@levy/api"
import { SchemaAST as AST, Either, ParseResult, Schema } from "effect"
import * as qs from "qs"

/** Most `name=value` pairs a form body may hold. */
export const MAX_PARAMETERS = 1000
/** Deepest bracket nesting (`a[b][c]` is 2). */
export const MAX_DEPTH = 8
/** Most items in one list (`a[]=…` or `a[0]=…`). */
export const MAX_LIST = 100

/** Whether a Content-Type names a form body (parameters ignored). */
export const isForm = (contentType: string | undefined): boolean =>
  contentType?.split(";")[0]?.trim().toLowerCase() === "application/x-www-form-urlencoded"

const refused = (message: string) =>
  new ApiError.InvalidRequestError({ code: "body_invalid", message })

/** Why `qs` refused a body, from its RangeError, in the API's words. */
const limitOf = (error: RangeError): ApiError.InvalidRequestError => {
  if (/depth/i.test(error.message)) {
    return refused(`The form body nests brackets more than ${MAX_DEPTH} levels deep.`)
  }
  if (/array/i.test(error.message)) {
    return refused(`The form body has a list of more than ${MAX_LIST} items.`)
  }
  return refused(`The form body has more than ${MAX_PARAMETERS} parameters.`)
}

/** The parameters of a form body, or the 400 for one past the limits. */
export const parse = (text: string): Either.Either<unknown, ApiError.InvalidRequestError> => {
  try {
    return Either.right(
      qs.parse(text, {
        depth: MAX_DEPTH,
        strictDepth: true,
        parameterLimit: MAX_PARAMETERS,
        arrayLimit: MAX_LIST,
        throwOnLimitExceeded: true,
        allowPrototypes: false
      })
    )
  } catch (error) {
    if (error instanceof RangeError) return Either.left(limitOf(error))
    return Either.left(refused("The request body could not be read as a form."))
  }
}

// ---- strings to the schema's types ----------------------------------------------------------

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

const validators = new WeakMap<AST.AST, (u: unknown) => boolean>()

/** Whether `value` is what `ast` takes (its encoded side: what the wire carries). */
const fits = (ast: AST.AST, value: unknown): boolean => {
  let is = validators.get(ast)
  if (is === undefined) {
    const decode = ParseResult.decodeUnknownEither(Schema.make(ast))
    is = (u) => Either.isRight(decode(u))
    validators.set(ast, is)
  }
  return is(value)
}

/** A form string as a `literal`, if it spells it. */
const asLiteral = (literal: AST.LiteralValue, text: string): unknown =>
  literal === null ? (text === "" ? null : text) : String(literal) === text ? literal : text

/** A string from a form as what `ast` takes there, if it can be. */
const fromString = (ast: AST.AST, text: string): unknown => {
  switch (ast._tag) {
    case "NumberKeyword":
      return NUMBER.test(text) ? Number(text) : text
    case "BooleanKeyword":
      return text === "true" ? true : text === "false" ? false : text
    case "Literal":
      return asLiteral(ast.literal, text)
    default:
      return text
  }
}

/** A list sent as `a[0]=…` past what qs keeps as a list, or as an object of indexes. */
const asList = (value: unknown): unknown => {
  if (Array.isArray(value) || typeof value !== "object" || value === null) return value
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((key) => /^\d+$/.test(key))
    ? keys
        .sort((a, b) => Number(a) - Number(b))
        .map((key) => (value as Record<string, unknown>)[key])
    : value
}

/** A union: the first member the coerced value fits, else the first coercion that changed it. */
const inUnion = (ast: AST.Union, value: unknown): unknown => {
  const members = ast.types.filter((t) => !AST.isUndefinedKeyword(t))
  const tried = members.map((member) => [member, coerce(member, value)] as const)
  const fitting = tried.find(([member, coerced]) => fits(member, coerced))
  if (fitting !== undefined) return fitting[1]
  return tried.find(([, coerced]) => coerced !== value)?.[1] ?? value
}

/** An object's values, each as its property (or index signature) takes it. */
const inObject = (ast: AST.TypeLiteral, value: Readonly<Record<string, unknown>>): unknown => {
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const property = ast.propertySignatures.find((p) => p.name === key)
    const type = property?.type ?? ast.indexSignatures[0]?.type
    out[key] = type === undefined ? item : coerce(type, item)
  }
  return out
}

/** A list's items, each as the tuple's element (or rest) takes it. */
const inList = (ast: AST.TupleType, items: ReadonlyArray<unknown>): unknown =>
  items.map((item, i) => {
    const type = ast.elements[i]?.type ?? ast.rest[0]?.type
    return type === undefined ? item : coerce(type, item)
  })

/** `value`, parsed from a form, as the schema `ast` takes it on the wire. */
export const coerce = (ast: AST.AST, value: unknown): unknown => {
  switch (ast._tag) {
    case "Refinement":
      return coerce(ast.from, value)
    case "Transformation":
      return coerce(ast.from, value)
    case "Suspend":
      // A recursive schema (none in the API today) is not followed: a union holding itself
      // would never end. Its strings stay strings.
      return value
    case "Union":
      return inUnion(ast, value)
    case "TypeLiteral":
      return typeof value === "object" && value !== null && !Array.isArray(value)
        ? inObject(ast, value as Readonly<Record<string, unknown>>)
        : value
    case "TupleType": {
      const list = asList(value)
      return Array.isArray(list) ? inList(ast, list) : value
    }
    default:
      return typeof value === "string" ? fromString(ast, value) : value
  }
}

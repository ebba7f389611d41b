/**
 * A failed decode as a person reads it (docs/server.md "Errors"), in one place for every door:
 * the HTTP edge, `Levy` in-process and the client. Effect's own formatter words a failure by
 * the schema — "Expected { readonly [x: string]: maxLength(500) }", "Expected <the field's
 * documentation>, actual 0", "Expected EstimateRequest, actual null" — and echoes the whole
 * input, a 6 KB description in a 6 KB error. Here the first problem of a `ParseIssue` is
 * found as Effect's `ArrayFormatter` finds it (the same path, the schema's own `message`
 * annotations taking precedence the same way), and what Effect would have made up is said
 * instead from the schema's structure: what is allowed ("an integer greater than 0", "a string
 * of at most 1000 characters", "one of credit, debit, prepaid") and what came, cut to
 * `MAX_ECHO` characters. Descriptions, identifiers and type syntax never reach the message.
 */
import { SchemaAST as AST, Effect, Option, ParseResult } from "effect"

/** Longest part of a received value (or key) a message repeats. */
export const MAX_ECHO = 40

/** Longest message a decode failure gives, however long the input or the schema's message. */
export const MAX_MESSAGE = 400

/** The first problem of a decode: where, which kind, and why in words. */
export interface Problem {
  /** `missing`: a required field absent; `unexpected`: a field the schema does not take. */
  readonly kind: "missing" | "unexpected" | "invalid"
  /** Where, each key cut to `MAX_ECHO` characters. */
  readonly path: ReadonlyArray<PropertyKey>
  /** Why, as a clause after "Invalid <param>: " ("must be an integer greater than 0 (got 0)"). */
  readonly reason: string
}

/** `text` cut to `max` characters, an ellipsis marking the cut. */
export const cut = (text: string, max: number = MAX_ECHO): string =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`

/** A received value as a message shows it: short values as JSON, long ones cut, containers by kind. */
export const shown = (actual: unknown): string => {
  if (actual === undefined) return "nothing"
  if (actual === null || typeof actual === "number" || typeof actual === "boolean") {
    return String(actual)
  }
  if (typeof actual === "string") {
    const json = JSON.stringify(actual)
    return json.length <= MAX_ECHO ? json : `${cut(json, MAX_ECHO)} (${actual.length} characters)`
  }
  if (Array.isArray(actual)) {
    return actual.length === 0 ? "an empty list" : `a list of ${plural(actual.length, "item")}`
  }
  if (typeof actual === "object") return "an object"
  return `a ${typeof actual}`
}

// ---- the schema's own messages, as Effect's formatter takes them -------------------------

interface Annotated {
  readonly message: string
  readonly override: boolean
}

const run = (message: string | Effect.Effect<string>): string =>
  typeof message === "string" ? message : Effect.runSync(message)

/** The `message` annotation on the issue's schema, if any. */
const annotated = (issue: ParseResult.ParseIssue): Annotated | undefined => {
  if (!("ast" in issue)) return undefined
  const annotation = Option.getOrUndefined(AST.getMessageAnnotation(issue.ast))
  if (annotation === undefined) return undefined
  const made = annotation(issue)
  if (typeof made === "string" || Effect.isEffect(made)) {
    return { message: run(made), override: false }
  }
  return { message: run(made.message), override: made.override }
}

/** The schema's own message for `issue`, by Effect's precedence (`ParseResult.getMessage`). */
const ownMessage = (issue: ParseResult.ParseIssue): string | undefined => {
  const current = annotated(issue)
  if (current === undefined) return undefined
  const inner =
    !current.override &&
    (issue._tag === "Composite" ||
      (issue._tag === "Refinement" && issue.kind === "From") ||
      (issue._tag === "Transformation" && issue.kind !== "Transformation"))
  if (!inner) return current.message
  return issue._tag === "Refinement" || issue._tag === "Transformation"
    ? ownMessage(issue.issue)
    : undefined
}

// ---- what a schema allows, in words --------------------------------------------------------

const joinOr = (items: ReadonlyArray<string>): string =>
  items.length <= 1
    ? (items[0] ?? "nothing")
    : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`

const literal = (value: AST.LiteralValue): string =>
  typeof value === "bigint" ? String(value) : JSON.stringify(value)

const plural = (n: unknown, one: string) => `${String(n)} ${one}${n === 1 ? "" : "s"}`

/** A refinement's conditions from its JSON Schema annotations, as phrases ("greater than 0"). */
const conditionsOf = (fragment: Record<string, unknown>): Array<string> => {
  const out: Array<string> = []
  const range = (low: unknown, high: unknown, unit: string, lead: string) => {
    if (low !== undefined && low === high) out.push(`${lead} exactly ${plural(low, unit)}`)
    else if (low !== undefined && high !== undefined) {
      out.push(`${lead} ${String(low)} to ${plural(high, unit)}`)
    } else if (low !== undefined) out.push(`${lead} at least ${plural(low, unit)}`)
    else if (high !== undefined) out.push(`${lead} at most ${plural(high, unit)}`)
  }
  range(fragment.minLength, fragment.maxLength, "character", "of")
  range(fragment.minItems, fragment.maxItems, "item", "with")
  range(fragment.minProperties, fragment.maxProperties, "key", "with")
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = fragment
  if (minimum !== undefined && maximum !== undefined) {
    out.push(`from ${String(minimum)} to ${String(maximum)}`)
  } else if (minimum !== undefined) out.push(`of at least ${String(minimum)}`)
  else if (maximum !== undefined) out.push(`of at most ${String(maximum)}`)
  if (exclusiveMinimum !== undefined) out.push(`greater than ${String(exclusiveMinimum)}`)
  if (exclusiveMaximum !== undefined) out.push(`less than ${String(exclusiveMaximum)}`)
  if (fragment.multipleOf !== undefined) out.push(`a multiple of ${String(fragment.multipleOf)}`)
  // A pattern is the schema's syntax, not words: only that there is a form to follow.
  if (fragment.pattern !== undefined) out.push("in the documented form")
  return out
}

/** The message a refinement's own annotation gives any failure of it, if it says "must be …". */
const mustBe = (ast: AST.Refinement): string | undefined => {
  let message: string | undefined
  try {
    message = ownMessage(new ParseResult.Type(ast, undefined))
  } catch {
    // An annotation that reads the value it was given: no message without one.
    return undefined
  }
  return message?.startsWith("must be ") ? message.slice("must be ".length) : undefined
}

/**
 * A refined schema: its own "must be …" message when it has one, else its base noun with every
 * condition down the chain (their JSON Schema annotations merged, the outermost winning).
 */
const refined = (ast: AST.Refinement): string => {
  const own = mustBe(ast)
  if (own !== undefined) return own
  const merged: Record<string, unknown> = {}
  let unnamed = false
  let base: AST.AST = ast
  while (AST.isRefinement(base)) {
    const fragment = Option.getOrUndefined(AST.getJSONSchemaAnnotation(base))
    if (fragment === undefined) unnamed = true
    else for (const [k, v] of Object.entries(fragment)) if (!(k in merged)) merged[k] = v
    base = base.from
  }
  const noun = merged.type === "integer" ? "an integer" : describe(base)
  const conditions = conditionsOf(merged)
  if (conditions.length === 0) return unnamed ? `${noun} in the documented form` : noun
  return `${noun} ${conditions.join(" and ")}`
}

/** What `ast` allows, as a noun phrase: "a string", "one of credit, debit", "an object". */
export const describe = (ast: AST.AST): string => {
  switch (ast._tag) {
    case "Refinement":
      return refined(ast)
    case "Transformation":
      return describe(ast.from)
    case "Suspend":
      // A recursive schema (none in the API today) is not followed: it may never end.
      return "a valid value"
    case "StringKeyword":
      return "a string"
    case "NumberKeyword":
      return "a number"
    case "BooleanKeyword":
      return "true or false"
    case "BigIntKeyword":
      return "an integer"
    case "Literal":
      return literal(ast.literal)
    case "Enums":
      return `one of ${ast.enums.map(([, value]) => literal(value)).join(", ")}`
    case "UndefinedKeyword":
    case "VoidKeyword":
    case "NeverKeyword":
      return "left out"
    case "UnknownKeyword":
    case "AnyKeyword":
      return "any value"
    case "TypeLiteral":
      return ast.propertySignatures.length === 0 && ast.indexSignatures.length > 0
        ? "an object of key-value pairs"
        : "an object"
    case "ObjectKeyword":
      return "an object"
    case "TupleType":
      return "a list"
    case "TemplateLiteral":
      return "a string in the documented form"
    case "Union":
      return union(ast)
    case "Declaration":
    case "SymbolKeyword":
    case "UniqueSymbol":
      return "a valid value"
  }
}

/** A union: its literals as "one of a, b", its other members each in words, joined by "or". */
const union = (ast: AST.Union): string => {
  const members = ast.types.filter((t) => !AST.isUndefinedKeyword(t))
  const literals = members.filter(AST.isLiteral)
  if (literals.length === members.length && literals.length > 1) {
    return `one of ${literals.map((l) => (typeof l.literal === "string" ? l.literal : literal(l.literal))).join(", ")}`
  }
  return joinOr([...new Set(members.map(describe))])
}

// ---- the first problem -------------------------------------------------------------------

const keyOf = (key: PropertyKey): PropertyKey => (typeof key === "string" ? cut(key) : key)

const invalid = (path: ReadonlyArray<PropertyKey>, reason: string): Problem => ({
  kind: "invalid",
  path,
  reason
})

/**
 * Whether a union member refused the value's type outright, rather than something inside it or
 * one of its own conditions (the value was of its type: that member's problem is the one to tell).
 */
const atTop = (issue: ParseResult.ParseIssue): boolean => {
  switch (issue._tag) {
    case "Type":
      return true
    case "Refinement":
      return issue.kind === "From" && atTop(issue.issue)
    case "Transformation":
      return issue.kind === "Encoded" && atTop(issue.issue)
    default:
      return false
  }
}

/** The first problem of `issue` (as `ArrayFormatter`'s first issue), in words. */
export const firstProblem = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey> = []
): Problem => {
  switch (issue._tag) {
    case "Missing":
      return { kind: "missing", path, reason: "is required" }
    case "Unexpected":
      return { kind: "unexpected", path, reason: "is not a parameter of this request" }
    case "Forbidden":
      return invalid(path, "could not be checked")
    case "Pointer": {
      const keys: ReadonlyArray<PropertyKey> = Array.isArray(issue.path)
        ? issue.path
        : [issue.path as PropertyKey]
      return firstProblem(issue.issue, [...path, ...keys.map(keyOf)])
    }
    case "Type":
      return invalid(
        path,
        ownMessage(issue) ??
          issue.message ??
          `must be ${describe(issue.ast)} (got ${shown(issue.actual)})`
      )
    case "Refinement":
    case "Transformation": {
      const own = ownMessage(issue)
      return own === undefined ? firstProblem(issue.issue, path) : invalid(path, own)
    }
    case "Composite": {
      const own = ownMessage(issue)
      if (own !== undefined) return invalid(path, own)
      const issues: ReadonlyArray<ParseResult.ParseIssue> = Array.isArray(issue.issues)
        ? issue.issues
        : [issue.issues as ParseResult.ParseIssue]
      // A value none of a union's members takes: a member's own message (a field refused on
      // this request, say), else what the union allows, not what its first member does.
      if (AST.isUnion(issue.ast) && issues.every(atTop)) {
        const member = issues.map((i) => ownMessage(i)).find((m) => m !== undefined)
        return invalid(
          path,
          member ?? `must be ${describe(issue.ast)} (got ${shown(issue.actual)})`
        )
      }
      const inside = issues.find((i) => !atTop(i)) ?? issues[0]
      return inside === undefined
        ? invalid(path, `must be ${describe(issue.ast)} (got ${shown(issue.actual)})`)
        : firstProblem(inside, path)
    }
  }
}

// ---- the refusal every door answers ------------------------------------------------------

/** A refused input in the specification's terms: its code, the field it names, and why. */
export interface Refusal {
  readonly code: "parameter_invalid" | "parameter_missing" | "parameter_unknown"
  /** The field, as the API names it (`amount`, `metadata[order]`); absent for the whole input. */
  readonly param?: string
  readonly message: string
}

/** A decode path as a parameter name: `amount`, `metadata[order_id]`, `regionCodes[2]`. */
export const paramOf = (path: ReadonlyArray<PropertyKey>): string | undefined => {
  const [head, ...rest] = path
  if (head === undefined) return undefined
  return `${String(head)}${rest.map((key) => `[${String(key)}]`).join("")}`
}

/** The refusal of a decode problem, worded for a person and bounded (`MAX_MESSAGE`). */
export const refusal = (
  kind: Problem["kind"],
  path: ReadonlyArray<PropertyKey>,
  reason: string
): Refusal => {
  const param = paramOf(path.map((key) => (typeof key === "string" ? cut(key) : key)))
  const bounded = (message: string) => cut(message, MAX_MESSAGE)
  if (param === undefined) {
    return { code: "parameter_invalid", message: bounded(`Invalid request: ${reason}`) }
  }
  switch (kind) {
    case "missing":
      return {
        code: "parameter_missing",
        param,
        message: bounded(`Missing required param: ${param}.`)
      }
    case "unexpected":
      return {
        code: "parameter_unknown",
        param,
        message: bounded(`Received unknown parameter: ${param}.`)
      }
    case "invalid":
      return { code: "parameter_invalid", param, message: bounded(`Invalid ${param}: ${reason}`) }
  }
}

/** The first problem of a failed decode as the refusal naming its field (`firstProblem`). */
export const refusalOf = (issue: ParseResult.ParseIssue): Refusal => {
  const problem = firstProblem(issue)
  return refusal(
    problem.kind,
    problem.path,
    problem.path.length === 0 ? `the parameters ${problem.reason}` : problem.reason
  )
}

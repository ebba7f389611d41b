/**
 * A query as its schema reads it: a parameter the schema types as an array gets an array even
 * when sent once (`?status=open` for `status: Array<…>`), as HttpApiBuilder's router gives its
 * handlers. The query string alone cannot tell one value from a list of one: a name becomes an
 * array only when it repeats (`queryOf` in Edge.ts, the platform's `ParsedSearchParams`).
 *
 * The platform does this inside its router only and exports no public function for it, so the
 * edge, which has no router, reads the schema itself (`effect/SchemaAST`, public).
 */
import { type SchemaAST as AST, Schema } from "effect"

/** A query: one string per name, or every value of a repeated name. */
export type Query = Readonly<Record<string, string | ReadonlyArray<string>>>

/** Whether a value of `ast` is written as one string: a string, a literal, a template, an enum. */
const isOneString = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "Literal":
    case "TemplateLiteral":
    case "Enums":
      return true
    case "Union":
      return ast.types.some(isOneString)
    case "Suspend":
      return isOneString(ast.f())
    case "Refinement":
    case "Transformation":
      return isOneString(ast.from)
    default:
      return false
  }
}

/** The types `name` may have in the query `ast` (a struct, or a union or refinement of them). */
const typesOf = (ast: AST.AST, name: string): ReadonlyArray<AST.AST> => {
  switch (ast._tag) {
    case "TypeLiteral": {
      const property = ast.propertySignatures.find((signature) => signature.name === name)
      if (property !== undefined) return [property.type]
      return ast.indexSignatures
        .filter((signature) => Schema.is(Schema.make(signature.parameter))(name))
        .map((signature) => signature.type)
    }
    case "Union":
      return ast.types.flatMap((member) => typesOf(member, name))
    case "Suspend":
      return typesOf(ast.f(), name)
    case "Refinement":
    case "Transformation":
      return typesOf(ast.from, name)
    default:
      return []
  }
}

/**
 * The query `ast` reads: each name that does not take one string (an array, or a name the
 * schema does not know, which it then refuses) gets its single value as a list of one.
 */
export const normalizer = (ast: AST.AST): ((query: Query) => Query) => {
  const takesOne = (name: string) => typesOf(ast, name).some(isOneString)
  return (query) => {
    const out: Record<string, string | ReadonlyArray<string>> = {}
    for (const name in query) {
      const value = query[name] as string | ReadonlyArray<string>
      out[name] = typeof value !== "string" || takesOne(name) ? value : [value]
    }
    return out
  }
}

/**
 * A processor's credentials as Levy's configuration handles them: checked against the
 * processor's definition before anything is called, masked whenever they are shown, and
 * scrubbed from any text that leaves the server (a processor's error message may quote them).
 */
import { Either } from "effect"
import * as Definitions from "../processors/Definitions.js"
import type { ProcessorDefinition } from "../processors/PaymentProcessor.js"

/** Why the credentials cannot be used as given; `param` names the field. */
export interface Problem {
  readonly code: "parameter_missing" | "parameter_unknown" | "parameter_invalid"
  readonly param: string
  readonly message: string
}

export const param = (field: string) => `credentials[${field}]`

const listing = (definition: ProcessorDefinition) =>
  definition.credentialFields.map((f) => `${f.name}${f.required ? "" : " (optional)"}`).join(", ")

/** The definition of processor `name`, or the problem naming the processors there are. */
export const definitionOf = (name: string): Either.Either<ProcessorDefinition, Problem> => {
  const definition = Definitions.find(name)
  return definition === undefined
    ? Either.left({
        code: "parameter_invalid",
        param: "processor",
        message: `Unknown processor ${JSON.stringify(name)}: use one of ${Definitions.names.join(", ")}.`
      })
    : Either.right(definition)
}

/** The credentials when they are what `definition` needs: every required field, no unknown one. */
export const check = (
  definition: ProcessorDefinition,
  credentials: Readonly<Record<string, string>>
): Either.Either<Readonly<Record<string, string>>, Problem> => {
  const known = new Set(definition.credentialFields.map((f) => f.name))
  const unknown = Object.keys(credentials).find((name) => !known.has(name))
  if (unknown !== undefined) {
    return Either.left({
      code: "parameter_unknown",
      param: param(unknown),
      message: `${definition.name} has no credential ${JSON.stringify(unknown)}; it takes ${listing(definition)}.`
    })
  }
  const missing = definition.credentialFields.find(
    (f) => f.required && (credentials[f.name] ?? "") === ""
  )
  if (missing !== undefined) {
    return Either.left({
      code: "parameter_missing",
      param: param(missing.name),
      message: `${definition.name} needs the credential ${missing.name} (${missing.description}). Required: ${definition.credentialFields
        .filter((f) => f.required)
        .map((f) => f.name)
        .join(", ")}.`
    })
  }
  return Either.right(credentials)
}

/** The shortest value whose last four characters are shown. */
const SHOW_TAIL_FROM = 12

/**
 * A credential as it may be shown: its recognisable prefix (`sk_live_`, `whsec_`) and, for a
 * long value, its last four characters: `sk_live_…4242`. Never enough to use it.
 */
export const mask = (value: string): string => {
  const prefix = /^[A-Za-z]{2,6}_(?:live_|test_)?/.exec(value)?.[0] ?? ""
  const rest = value.length - prefix.length
  return `${prefix}…${rest >= SHOW_TAIL_FROM ? value.slice(-4) : ""}`
}

/** Every credential masked. */
export const masked = (
  credentials: Readonly<Record<string, string>>
): Readonly<Record<string, string>> =>
  Object.fromEntries(Object.entries(credentials).map(([name, value]) => [name, mask(value)]))

/** `text` with every credential value in it replaced by its mask. */
export const scrub = (text: string, credentials: Readonly<Record<string, string>>): string =>
  Object.values(credentials)
    .filter((value) => value.length >= 4)
    .reduce((out, value) => out.split(value).join(mask(value)), text)

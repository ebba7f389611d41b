/**
 * What makes two requests under one Idempotency-Key "the same" (docs/design.md §7), as Stripe
 * compares them: the operation (`POST /v1/charges`) and its parameters as decoded, not the bytes
 * that carried them. Object keys are sorted and absent fields dropped, so a body with other
 * spacing, its fields in another order, or sent as a form instead of JSON is the same request.
 * Every door fingerprints through `ofParameters` (the HTTP edge, `LevyService` in-process), so
 * one key used through either is one request.
 */
import { createHash } from "node:crypto"

/** The fingerprint of `input` sent to `operation`. */
const fingerprint = (operation: string, input: unknown): string =>
  createHash("sha256")
    .update(`${operation}\n${canonical(input)}`)
    .digest("hex")

/**
 * The fingerprint of a request to `operation` (`POST /v1/charges`, its path without a query)
 * with `parameters`, its body as the operation's schema decoded it (`undefined`: it takes none).
 */
export const ofParameters = (operation: string, parameters: unknown): string =>
  fingerprint(operation, { decoded: parameters })

/**
 * The fingerprint of a request to `operation` whose body did not decode: its text. It is
 * refused and never stored, so only a retry still in flight compares with it.
 */
export const ofText = (operation: string, text: string): string => fingerprint(operation, { text })

const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(",")}]`
    : value !== null && typeof value === "object"
      ? `{${Object.keys(value)
          .sort()
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(",")}}`
      : JSON.stringify(value)

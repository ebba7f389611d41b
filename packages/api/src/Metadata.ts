/**
 * Key-value pairs a caller attaches to a charge (docs/design.md §9), sent to the payment
 * processor with the keys Levy adds (docs/processors.md "What Levy sends"). A request's
 * metadata (`MetadataCreate`) is checked against the strictest limits of the processors Levy
 * sends it to, so a charge accepted in test mode is never refused for its metadata in live
 * mode, and every key accepted is sent:
 *
 * - Adyen `/payments`: at most 20 pairs, keys of at most 20 characters, values of at most 80;
 *   Levy adds 3 (`levy_fee`, `levy_charge`, `levy_account`);
 * - Stripe: at most 50 pairs, keys of at most 40 characters without `[` or `]`, values of at
 *   most 500; Levy adds 4 (those and `levy_idempotency_key`).
 *
 * So: at most 17 keys (Adyen's 20 less Levy's 3), keys of 1 to 20 characters, without `[` or
 * `]` and not starting with `levy_` (Levy's own), string values of at most 80 characters.
 * `Metadata`, what a charge echoes, is not checked again: a charge stored under earlier,
 * wider limits still reads.
 */
import { Schema } from "effect"

/** Most keys a request's metadata may have. */
export const MAX_KEYS = 17
/** Longest key, in characters. */
export const MAX_KEY_LENGTH = 20
/** Longest value, in characters. */
export const MAX_VALUE_LENGTH = 80
/** The prefix of the keys Levy adds itself: a request may not use it. */
export const RESERVED_PREFIX = "levy_"

/** Metadata as a charge echoes it. */
export const Metadata = Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
  identifier: "Metadata",
  description: "The charge's metadata, as the request gave it."
})
export type Metadata = typeof Metadata.Type

const Value = Schema.String.pipe(
  Schema.maxLength(MAX_VALUE_LENGTH, {
    message: () => `metadata values must be at most ${MAX_VALUE_LENGTH} characters`
  })
)

/** Why `key` cannot be a metadata key, if it cannot. */
const keyProblem = (key: string): string | undefined => {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    return `metadata keys must be 1 to ${MAX_KEY_LENGTH} characters`
  }
  if (key.includes("[") || key.includes("]")) {
    return "metadata keys cannot contain square brackets ([ or ])"
  }
  if (key.startsWith(RESERVED_PREFIX)) {
    return `metadata keys starting with ${RESERVED_PREFIX} are Levy's own`
  }
  return undefined
}

/**
 * Metadata as a request sends it. Keys are checked by the filter, not by the record's key
 * schema: a key failing that would read as an unknown field.
 */
export const MetadataCreate = Schema.Record({ key: Schema.String, value: Value })
  .pipe(
    Schema.filter(
      (record) => {
        const keys = Object.keys(record)
        if (keys.length > MAX_KEYS) return `metadata must have at most ${MAX_KEYS} keys`
        for (const key of keys) {
          const problem = keyProblem(key)
          if (problem !== undefined) return { path: [key], message: problem }
        }
        return true
      },
      {
        jsonSchema: {
          maxProperties: MAX_KEYS,
          propertyNames: {
            minLength: 1,
            maxLength: MAX_KEY_LENGTH,
            pattern: `^(?!${RESERVED_PREFIX})[^\\[\\]]*$`
          }
        }
      }
    )
  )
  .annotations({
    identifier: "MetadataCreate",
    description: `Up to ${MAX_KEYS} string pairs; keys of 1 to ${MAX_KEY_LENGTH} characters without [ or ] and not starting with ${RESERVED_PREFIX}, values of at most ${MAX_VALUE_LENGTH} characters (the strictest limits of the processors Levy sends them to, less the keys Levy adds).`
  })
export type MetadataCreate = typeof MetadataCreate.Type

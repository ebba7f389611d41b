/**
 * Key-value pairs a caller attaches to a charge (docs/design.md §9): at most 50 keys, keys of
 * 1 to 40 characters, string values of at most 500 characters.
 */
import { Schema } from "effect"

/** Most keys a metadata object may have. */
export const MAX_KEYS = 50
/** Longest key, in characters. */
export const MAX_KEY_LENGTH = 40
/** Longest value, in characters. */
export const MAX_VALUE_LENGTH = 500

const Value = Schema.String.pipe(
  Schema.maxLength(MAX_VALUE_LENGTH, {
    message: () => `metadata values must be at most ${MAX_VALUE_LENGTH} characters`
  })
)

/**
 * Metadata as it is sent and echoed. Key lengths are checked by the filter, not by the
 * record's key schema: a key failing that would read as an unknown field.
 */
export const Metadata = Schema.Record({ key: Schema.String, value: Value })
  .pipe(
    Schema.filter(
      (record) => {
        const keys = Object.keys(record)
        if (keys.length > MAX_KEYS) return `metadata must have at most ${MAX_KEYS} keys`
        const bad = keys.find((key) => key.length === 0 || key.length > MAX_KEY_LENGTH)
        return bad === undefined
          ? true
          : { path: [bad], message: `metadata keys must be 1 to ${MAX_KEY_LENGTH} characters` }
      },
      {
        jsonSchema: {
          maxProperties: MAX_KEYS,
          propertyNames: { minLength: 1, maxLength: MAX_KEY_LENGTH }
        }
      }
    )
  )
  .annotations({
    identifier: "Metadata",
    description: `Up to ${MAX_KEYS} string pairs; keys ≤ ${MAX_KEY_LENGTH}, values ≤ ${MAX_VALUE_LENGTH} characters.`
  })
export type Metadata = typeof Metadata.Type

/**
 * The notes after an update (ChargeNotes.ts), for random notes and updates: every key the
 * update sets non-empty has its value, every key it sets to "" is gone, every key it leaves out
 * is as it was, and nothing else is there; the description follows the same rule; an answer
 * always keeps the metadata rules, and a refusal only ever comes from the merged key count.
 */
import { describe, expect, it } from "@effect/vitest"
import { Metadata } from "@levy/api"
import { Either } from "effect"
import fc from "fast-check"
import * as ChargeNotes from "../src/charges/ChargeNotes.js"

// Few distinct keys, so updates touch existing keys often; values empty a third of the time.
const key = fc.constantFrom(...Array.from({ length: 60 }, (_, i) => `k${i}`))
const value = fc.oneof(fc.constant(""), fc.string({ minLength: 1, maxLength: 5 }))
const metadata = fc.dictionary(key, fc.string({ minLength: 1, maxLength: 5 }), { maxKeys: 50 })
const notes = fc.record({
  description: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
  metadata
})
const update = fc.record(
  {
    description: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
    metadata: fc.dictionary(key, value, { maxKeys: 50 })
  },
  { requiredKeys: [] }
)

describe("ChargeNotes.after", () => {
  it("merges by Stripe's rules and keeps the metadata rules", () => {
    fc.assert(
      fc.property(notes, update, (current, change) => {
        const result = ChargeNotes.after(current, change)
        const expected: Record<string, string> = { ...current.metadata }
        for (const [k, v] of Object.entries(change.metadata ?? {})) {
          if (v === "") delete expected[k]
          else expected[k] = v
        }
        const tooMany = Object.keys(expected).length > Metadata.MAX_KEYS
        expect(Either.isLeft(result)).toBe(tooMany)
        if (Either.isLeft(result)) return
        expect(result.right.metadata).toStrictEqual(expected)
        const description =
          change.description === undefined
            ? current.description
            : change.description === null || change.description === ""
              ? null
              : change.description
        expect(result.right.description).toBe(description)
      }),
      { numRuns: 500 }
    )
  })
})

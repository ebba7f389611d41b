/** Request ids from the pooled random bytes (http/RequestId.ts). */
import { describe, expect, it } from "@effect/vitest"
import * as RequestId from "../src/http/RequestId.js"

describe("RequestId", () => {
  it("is req_ + 24 hex digits, distinct across several refills of the pool", () => {
    const ids = Array.from({ length: 2000 }, RequestId.next)
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

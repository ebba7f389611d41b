/** Request ids from the pooled random bytes, and their naming of log lines (http/RequestId.ts). */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, HashMap, Logger } from "effect"
import * as RequestId from "../src/http/RequestId.js"

describe("RequestId", () => {
  it("is req_ + 24 hex digits, distinct across several refills of the pool", () => {
    const ids = Array.from({ length: 2000 }, RequestId.next)
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it.effect(
    "names the request in its fiber's later log lines and its children's, not others'",
    () =>
      Effect.gen(function* () {
        const lines: Array<{ message: unknown; requestId: unknown }> = []
        const logger = Logger.make(({ message, annotations }) => {
          lines.push({
            message,
            requestId: HashMap.get(annotations, "requestId").pipe((o) =>
              o._tag === "Some" ? o.value : undefined
            )
          })
        })
        const request = (id: string) =>
          Effect.gen(function* () {
            yield* Effect.log(`before ${id}`)
            yield* RequestId.annotateLogs(id)
            yield* Effect.log(`after ${id}`)
            yield* Fiber.join(yield* Effect.fork(Effect.log(`child ${id}`)))
          })
        yield* Effect.all([request("req_a"), request("req_b")], { concurrency: 2 }).pipe(
          Effect.provide(Logger.replace(Logger.defaultLogger, logger))
        )
        const byMessage = Object.fromEntries(lines.map((l) => [String(l.message), l.requestId]))
        expect(byMessage).toStrictEqual({
          "before req_a": undefined,
          "after req_a": "req_a",
          "child req_a": "req_a",
          "before req_b": undefined,
          "after req_b": "req_b",
          "child req_b": "req_b"
        })
      })
  )
})

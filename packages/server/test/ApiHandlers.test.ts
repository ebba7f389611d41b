/**
 * A group's handlers as the edge gets them (ApiHandlers.ts): built by the platform's
 * `HttpApiBuilder.group`, its `uninterruptible` option kept, and `handleRaw` refused at
 * start-up (the edge serves decoded requests only).
 */
import { describe, expect, it } from "@effect/vitest"
import { ApiError, List } from "@levy/api"
import { Cause, Deferred, Effect, Exit, Fiber, Ref } from "effect"
import * as ApiHandlers from "../src/http/ApiHandlers.js"

/** A handler that signals it started, waits for `release`, then records that it finished. */
const waiting = (
  started: Deferred.Deferred<void>,
  release: Deferred.Deferred<void>,
  finished: Ref.Ref<boolean>
) =>
  Effect.gen(function* () {
    yield* Deferred.succeed(started, undefined)
    yield* Deferred.await(release)
    yield* Ref.set(finished, true)
  })

/** Runs `name` of a rulesets group whose `list` is uninterruptible; interrupts it once started. */
const interrupted = (name: "list" | "retrieve") =>
  Effect.gen(function* () {
    const started = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    const finished = yield* Ref.make(false)
    const wait = waiting(started, release, finished)
    const group = ApiHandlers.group("rulesets", (handlers) =>
      handlers
        .handle("list", () => Effect.as(wait, List.make([], false, "/v1/rulesets")), {
          uninterruptible: true
        })
        .handle("retrieve", () =>
          Effect.zipRight(wait, Effect.fail(new ApiError.NotFoundError({ message: "none" })))
        )
    )
    const served = yield* Effect.provide(ApiHandlers.tagOf("rulesets"), group)
    const handler = served.handlers.get(name)
    if (handler === undefined) return yield* Effect.dieMessage(`no ${name}`)
    const fiber = yield* Effect.fork(handler.run({ path: { version: "1.0.0" } }))
    yield* Deferred.await(started)
    const interrupting = yield* Effect.fork(Fiber.interrupt(fiber))
    yield* Deferred.succeed(release, undefined)
    yield* Fiber.join(interrupting)
    return yield* Ref.get(finished)
  })

describe("a group's handlers", () => {
  it.effect("runs a handler declared uninterruptible to its end when interrupted", () =>
    Effect.map(interrupted("list"), (finished) => expect(finished).toBe(true))
  )

  it.effect("interrupts any other handler", () =>
    Effect.map(interrupted("retrieve"), (finished) => expect(finished).toBe(false))
  )

  it.effect("refuses handleRaw when the group is built", () =>
    Effect.gen(function* () {
      const group = ApiHandlers.group("rulesets", (handlers) =>
        handlers
          .handleRaw("list", () => Effect.succeed(List.make([], false, "/v1/rulesets")))
          .handle("retrieve", () => Effect.fail(new ApiError.NotFoundError({ message: "none" })))
      )
      const exit = yield* Effect.exit(Effect.provide(ApiHandlers.tagOf("rulesets"), group))
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        expect(Cause.pretty(exit.cause)).toContain(
          "rulesets.list: the edge serves decoded requests only; use handle."
        )
      }
    })
  )
})

/**
 * The synchronous in-process limiter (http/RateLimitMemory.ts) answers as the limiter over
 * @effect/experimental's memory store does, request for request, on a fake clock.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Either, TestClock } from "effect"
import * as RateLimitMemory from "../src/http/RateLimitMemory.js"

const LIMIT = 3
const WINDOW = Duration.seconds(30)

/** Every answer of `limiter` to `steps` (a number = requests on key "a"; a duration = time passing). */
const answers = (
  limiter: RateLimiter.RateLimiter,
  steps: ReadonlyArray<number | Duration.Duration>,
  advance: (d: Duration.Duration) => Effect.Effect<void>
) =>
  Effect.gen(function* () {
    const out: Array<unknown> = []
    for (const step of steps) {
      if (typeof step !== "number") {
        yield* advance(step)
        continue
      }
      for (let i = 0; i < step; i++) {
        const r = yield* Effect.either(
          limiter.consume({ key: "a", limit: LIMIT, window: WINDOW, algorithm: "fixed-window" })
        )
        out.push(
          Either.match(r, {
            onLeft: (e) =>
              e.reason === "Exceeded"
                ? { exceeded: Duration.toMillis(e.retryAfter) }
                : { error: e.reason },
            onRight: (ok) => ({
              remaining: ok.remaining,
              resetAfter: Duration.toMillis(ok.resetAfter),
              delay: Duration.toMillis(ok.delay)
            })
          })
        )
      }
    }
    return out
  })

describe("RateLimitMemory", () => {
  it.effect("matches the experimental memory store over a window and beyond", () =>
    Effect.gen(function* () {
      const steps = [4, Duration.seconds(5), 2, Duration.seconds(40), 4]
      const generic = yield* RateLimiter.make.pipe(Effect.provide(RateLimiter.layerStoreMemory))
      const expected = yield* answers(generic, steps, TestClock.adjust)
      // The same steps on a fresh clock for the fast limiter.
      let now = 0
      const fast = yield* RateLimitMemory.make(() => now)
      const actual = yield* answers(fast, steps, (d) =>
        Effect.sync(() => {
          now += Duration.toMillis(d)
        })
      )
      expect(actual).toStrictEqual(expected)
      // The steps do cross the limit, and the window's end lets requests through again.
      const exceeded = actual.filter((a) => typeof a === "object" && a !== null && "exceeded" in a)
      expect(exceeded).toHaveLength(4)
      expect(actual[6]).toStrictEqual({ remaining: 2, resetAfter: 10_000, delay: 0 })
    })
  )

  it.effect("other algorithms go to the generic limiter", () =>
    Effect.gen(function* () {
      const fast = yield* RateLimitMemory.make(() => 0)
      const first = yield* fast.consume({
        key: "b",
        limit: 2,
        window: WINDOW,
        algorithm: "token-bucket"
      })
      expect(first.remaining).toBe(1)
    })
  )

  it.effect(
    "forgets clients whose window has passed: memory does not grow with every address",
    () =>
      Effect.gen(function* () {
        // A counter per address, kept forever.
        let now = 0
        const counters = new Map<string, RateLimitMemory.Counter>()
        const fast = yield* RateLimitMemory.make(() => now, counters)
        const consume = (key: string) =>
          fast.consume({ key, limit: LIMIT, window: WINDOW, algorithm: "fixed-window" })
        for (let i = 0; i < 1000; i++) yield* consume(`ip-${i}`)
        expect(counters.size).toBe(1000)
        // One window (and a sweep interval) later, a new client's request sweeps the idle ones.
        now += Duration.toMillis(WINDOW) + RateLimitMemory.SWEEP_EVERY_MS
        yield* consume("ip-new")
        expect([...counters.keys()]).toStrictEqual(["ip-new"])
        // A client still inside its window keeps its count.
        yield* consume("ip-new")
        now += RateLimitMemory.SWEEP_EVERY_MS
        const r = yield* consume("ip-new")
        expect(r.remaining).toBe(0)
      })
  )
})

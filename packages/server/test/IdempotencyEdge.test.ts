/** The edge's idempotency wrapper on its own: the deadline that keeps claims inside the lease. */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { describe, expect, it } from "@effect/vitest"
import { IdempotencyRepository, Ids, Storage, Tenant } from "@levy/storage"
import { Duration, Effect, Either, Fiber, Layer, TestClock } from "effect"
import * as IdempotencyEdge from "../src/http/IdempotencyEdge.js"

const tenant = Tenant.make("acct_1", false)
const store = Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))
const post = () => ({ method: "POST", url: "/v1/charges", params: { decoded: { amount: 100 } } })

describe("IdempotencyEdge", () => {
  it.scoped("a request past the deadline is a 503 and its key is free again", () =>
    Effect.gen(function* () {
      const run = yield* IdempotencyEdge.make(Duration.seconds(20))
      const slow = Effect.as(Effect.sleep(Duration.hours(1)), HttpServerResponse.empty())
      const fiber = yield* Effect.fork(Effect.either(run(tenant, "k", post(), slow)))
      yield* TestClock.adjust(Duration.seconds(19))
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust(Duration.seconds(2))
      const result = yield* Fiber.join(fiber)
      expect(Either.isLeft(result) && result.left._tag).toBe("ServiceUnavailableError")
      const repo = yield* IdempotencyRepository
      expect((yield* repo.begin(tenant, "k", "another request"))._tag).toBe("Started")
    }).pipe(Effect.provide(store))
  )

  it.scoped("a request within the deadline answers, and its 2xx is replayed", () =>
    Effect.gen(function* () {
      const run = yield* IdempotencyEdge.make(Duration.seconds(20))
      const ok = Effect.as(
        Effect.sleep(Duration.seconds(5)),
        HttpServerResponse.unsafeJson({ ok: true })
      )
      const fiber = yield* Effect.fork(run(tenant, "k2", post(), ok))
      yield* TestClock.adjust(Duration.seconds(5))
      expect((yield* Fiber.join(fiber)).status).toBe(200)
      const replay = yield* run(tenant, "k2", post(), Effect.die("must not run again"))
      expect(replay.headers["idempotent-replayed"]).toBe("true")
    }).pipe(Effect.provide(store))
  )
})

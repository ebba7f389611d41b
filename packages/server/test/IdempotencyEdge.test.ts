/** The edge's idempotency wrapper on its own: the deadline that keeps claims inside the lease. */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { describe, expect, it } from "@effect/vitest"
import { ApiError } from "@levy/api"
import { IdempotencyRepository, Ids, Storage, Tenant } from "@levy/storage"
import { Duration, Effect, Either, Fiber, Layer, TestClock } from "effect"
import * as IdempotencyEdge from "../src/http/IdempotencyEdge.js"
import { ReplayedFailures } from "../src/http/ReplayedFailures.js"

const tenant = Tenant.make("acct_1", false)
/** A stored failure replays as the error its record makes: here, a decline naming its record. */
const declined = (record: string) =>
  new ApiError.CardError({ code: "card_declined", message: `Declined (${record}).` })
const store = Layer.mergeAll(
  Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer)),
  Layer.succeed(ReplayedFailures, (_tenant, _key, failure) =>
    Effect.succeed(declined(failure.record))
  )
)
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

  it.scoped("a stored failure replays as the API's error of the record that failed", () =>
    Effect.gen(function* () {
      const run = yield* IdempotencyEdge.make(Duration.seconds(20))
      const repo = yield* IdempotencyRepository
      // What a workflow stores with a charge the processor refused (ChargePhases.responseOf).
      const stored = run(
        tenant,
        "k3",
        post(),
        Effect.zipRight(
          repo.complete(tenant, "k3", { outcome: "failed", record: "charge" }),
          Effect.succeed(HttpServerResponse.empty({ status: 402 }))
        ).pipe(Effect.orDie)
      )
      expect((yield* stored).status).toBe(402)
      const replay = yield* run(tenant, "k3", post(), Effect.die("must not run again"))
      const expected = ApiError.toResponse(declined("charge"))
      expect(replay.status).toBe(expected.status)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.body._tag === "Uint8Array" && new TextDecoder().decode(replay.body.body)).toBe(
        JSON.stringify(expected.body)
      )
    }).pipe(Effect.provide(store))
  )
})

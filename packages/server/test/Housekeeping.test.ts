/** The background sweep of expired idempotency records. */
import { describe, expect, it } from "@effect/vitest"
import { IdempotencyRepository, Ids, Storage, Tenant } from "@levy/storage"
import { Duration, Effect, Either, Layer, TestClock } from "effect"
import * as Housekeeping from "../src/Housekeeping.js"

const tenant = Tenant.make("acct_1", false)
const store = Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))

describe("Housekeeping", () => {
  it.scoped("deletes idempotency records once expired, and only those, on each sweep", () =>
    Effect.gen(function* () {
      const idempotency = yield* IdempotencyRepository
      const present = (key: string) =>
        Effect.map(Effect.either(idempotency.get(tenant, key)), Either.isRight)
      yield* idempotency.begin(tenant, "old", "fp")
      yield* Effect.forkScoped(Housekeeping.sweep(Duration.hours(1)))
      yield* TestClock.adjust(Duration.hours(20))
      yield* idempotency.begin(tenant, "young", "fp")
      yield* TestClock.adjust(Duration.hours(5))
      // 25 h: "old" (24 h) has expired and a sweep ran since; "young" has 19 h to go.
      expect(yield* present("old")).toBe(false)
      expect(yield* present("young")).toBe(true)
      yield* TestClock.adjust(Duration.hours(20))
      expect(yield* present("young")).toBe(false)
    }).pipe(Effect.provide(store))
  )
})

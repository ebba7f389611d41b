/**
 * The in-memory store's isolation: a read outside a transaction never sees another fiber's
 * uncommitted writes, whether the transaction then commits or fails; with no transaction
 * open a read answers at once.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option } from "effect"
import * as MemoryStore from "../src/memory/MemoryStore.js"

const valueOf = (store: MemoryStore.MemoryStoreService) =>
  store.read(() => Option.fromNullable(store.table<number>("t").get("k")))

/** A transaction that writes `value`, then waits for `release` and ends as `outcome` says. */
const writeAndWait = (
  store: MemoryStore.MemoryStoreService,
  value: number,
  written: Deferred.Deferred<void>,
  release: Deferred.Deferred<void>,
  outcome: "commit" | "fail"
) =>
  store.transaction(
    Effect.gen(function* () {
      yield* store.write((w) => Effect.sync(() => w.put("t", "k", value)))
      yield* Deferred.succeed(written, undefined)
      yield* Deferred.await(release)
      if (outcome === "fail") return yield* Effect.fail("rolled back" as const)
    })
  )

describe("MemoryStore reads", () => {
  for (const outcome of ["commit", "fail"] as const) {
    it.effect(`wait for an open transaction and see only what it leaves (${outcome})`, () =>
      Effect.gen(function* () {
        const store = MemoryStore.make()
        yield* store.write((w) => Effect.sync(() => w.put("t", "k", 1)))
        const written = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const tx = yield* Effect.fork(
          Effect.either(writeAndWait(store, 2, written, release, outcome))
        )
        yield* Deferred.await(written)
        const reader = yield* Effect.fork(valueOf(store))
        yield* Effect.yieldNow()
        // The transaction's write is uncommitted: the read waits rather than see it.
        expect(Option.isNone(yield* Fiber.poll(reader))).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(tx)
        expect(yield* Fiber.join(reader)).toStrictEqual(Option.some(outcome === "commit" ? 2 : 1))
      })
    )
  }

  it.effect("answer at once when no transaction is open", () =>
    Effect.gen(function* () {
      const store = MemoryStore.make()
      yield* store.write((w) => Effect.sync(() => w.put("t", "k", 7)))
      const reader = yield* Effect.fork(valueOf(store))
      yield* Effect.yieldNow()
      expect(yield* Fiber.poll(reader)).toStrictEqual(Option.some(expect.anything()))
      expect(yield* Fiber.join(reader)).toStrictEqual(Option.some(7))
    })
  )
})

/**
 * Groups of attempts started together (two claims in quick succession, to one endpoint)
 * share one read of their endpoint (and its secrets), not one each until the first lands
 * (docs/performance.md "Webhook delivery"); a failed read is not kept.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import * as Attempt from "@levy/engine/webhookDeliveries/Attempt.js"
import { defaults } from "@levy/engine/webhookDeliveries/DispatcherConfig.js"
import { LoopbackTargets } from "@levy/engine/webhookEndpoints/LoopbackTargets.js"
import {
  AccountRepository,
  type AttemptOutcome,
  Ids,
  Storage,
  StorageError,
  WebhookEndpointRepository
} from "@levy/storage"
import { Effect, Either, Layer, Option } from "effect"
import { pendingDelivery } from "./WebhooksSupport.js"

const tenant = { accountId: "acct_cache", livemode: false }

/** The endpoint repository, counting reads; the first `failures` reads fail. */
const counting = (reads: { count: number }, failures: number) =>
  Layer.effect(
    WebhookEndpointRepository,
    Effect.map(WebhookEndpointRepository, (endpoints) => ({
      ...endpoints,
      get: (t: typeof tenant, id: string) =>
        Effect.suspend(() => {
          reads.count++
          const answer =
            reads.count <= failures
              ? Effect.fail(new StorageError({ message: "store unavailable" }))
              : endpoints.get(t, id)
          // A round trip's worth of waiting, as on PostgreSQL: every attempt of the round
          // asks before the read lands (the memory store would answer at once).
          return Effect.zipRight(Effect.sleep("20 millis"), answer)
        })
    }))
  )

const delivery = (i: number) => pendingDelivery(tenant, "we_cache", i)

/**
 * Two rounds of two groups of ten attempts at once to a receiver answering 200, with one
 * attempt function (one cache): what each attempt came to (a group's failure is each of its
 * attempts'), and the reads counted after each round.
 */
const batch = (url: string, reads: { count: number }, failures: number) =>
  Effect.gen(function* () {
    yield* (yield* AccountRepository).createAccount({ id: tenant.accountId, name: "c", created: 0 })
    yield* (yield* WebhookEndpointRepository).create({
      id: "we_cache",
      ...tenant,
      url,
      enabledEvents: ["*"],
      status: "enabled",
      description: null,
      created: 0,
      secret: "whsec_cache"
    })
    return yield* Effect.gen(function* () {
      const attempt = yield* Attempt.make
      const group = (from: number) =>
        Effect.suspend(() => {
          const items = Array.from({ length: 10 }, (_, k) => from + k).map((i) => ({
            delivery: delivery(i),
            event: {
              id: `evt_${i}`,
              ...tenant,
              type: "charge.succeeded",
              data: {},
              request: null,
              created: 0
            }
          }))
          const outcomes: Array<Option.Option<AttemptOutcome>> = []
          return attempt(defaults, items, (_, outcome) => outcomes.push(outcome)).pipe(
            Effect.either,
            Effect.map(
              (run): Array<Either.Either<Option.Option<AttemptOutcome>, unknown>> =>
                run._tag === "Left"
                  ? items.map(() => Either.left(run.left))
                  : outcomes.map((o) => Either.right(o))
            )
          )
        })
      const round = Effect.map(
        Effect.all([group(0), group(10)], { concurrency: "unbounded" }),
        (groups) => groups.flat()
      )
      const first = yield* round
      const readsAfterFirst = reads.count
      const second = yield* round
      return { first, readsAfterFirst, second, readsAfterSecond: reads.count }
    }).pipe(Effect.provide(counting(reads, failures)))
  }).pipe(
    Effect.provide(
      Storage.layerMemory.pipe(
        Layer.provideMerge(Ids.layer),
        Layer.provideMerge(Layer.succeed(LoopbackTargets, true))
      )
    )
  )

const withReceiver = async <A>(use: (url: string) => Promise<A>) => {
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", () => res.writeHead(200).end())
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)
  } finally {
    server.closeAllConnections()
    server.close()
  }
}

const succeeded = (r: Either.Either<Option.Option<AttemptOutcome>, unknown>) =>
  r._tag === "Right" && Option.isSome(r.right) && r.right.value.next === "succeeded"

describe("Attempt's endpoint cache", () => {
  it("attempts started together read their endpoint once, and later ones reuse it", async () => {
    const reads = { count: 0 }
    const run = await withReceiver((url) => Effect.runPromise(batch(url, reads, 0)))
    expect(run.readsAfterFirst).toBe(1)
    expect(run.readsAfterSecond).toBe(1)
    expect(run.first).toHaveLength(20)
    expect([...run.first, ...run.second].every(succeeded)).toBe(true)
  })

  it("a failed read is shared by the attempts waiting on it, then not kept", async () => {
    const reads = { count: 0 }
    const run = await withReceiver((url) => Effect.runPromise(batch(url, reads, 1)))
    // Every attempt of the first round saw the one failed read; the next round read again.
    expect(run.readsAfterFirst).toBe(1)
    expect(run.first).toHaveLength(20)
    expect(run.first.every((r) => r._tag === "Left")).toBe(true)
    expect(run.readsAfterSecond).toBe(2)
    expect(run.second).toHaveLength(20)
    expect(run.second.every(succeeded)).toBe(true)
  })
})

/**
 * Every attempt ends recorded (docs/design.md §8): a delivery whose request cannot be made —
 * a stored URL whose credentials do not decode, a payload that cannot be written — gets an
 * outcome with its error and a retry on the schedule, never a failure of its whole group that
 * leaves the lease to lapse and the delivery to be tried again every minute, unrecorded
 * (the second security review, item 8).
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
  type Event,
  Ids,
  Storage,
  WebhookEndpointRepository
} from "@levy/storage"
import { Effect, Layer, Option } from "effect"
import { pendingDelivery } from "./WebhooksSupport.js"

const tenant = { accountId: "acct_failures", livemode: false }

const delivery = (i: number) =>
  pendingDelivery(tenant, "we_failures", i, Math.floor(Date.now() / 1000))

const event = (i: number, data: Event["data"] = {}): Event => ({
  id: `evt_${i}`,
  ...tenant,
  type: "charge.succeeded",
  data,
  request: null,
  created: 0
})

/** The outcomes of one group of attempts at `items` to an endpoint stored with `url`. */
const attemptAt = (url: string, items: ReadonlyArray<Attempt.Item>) =>
  Effect.gen(function* () {
    yield* (yield* AccountRepository).createAccount({ id: tenant.accountId, name: "f", created: 0 })
    // Stored as it is, as an endpoint created before its URL would have been refused.
    yield* (yield* WebhookEndpointRepository).create({
      id: "we_failures",
      ...tenant,
      url,
      enabledEvents: ["*"],
      status: "enabled",
      description: null,
      created: 0,
      secret: "whsec_failures"
    })
    const attempt = yield* Attempt.make
    const outcomes = new Map<string, Option.Option<AttemptOutcome>>()
    yield* attempt(defaults, items, (d, outcome) => outcomes.set(d.id, outcome))
    return outcomes
  }).pipe(
    Effect.provide(
      Storage.layerMemory.pipe(
        Layer.provideMerge(Ids.layer),
        Layer.provideMerge(Layer.succeed(LoopbackTargets, true))
      )
    )
  )

const withReceiver = async <A>(use: (origin: string, seen: Array<string>) => Promise<A>) => {
  const seen: Array<string> = []
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (c: Buffer) => {
      body += c.toString()
    })
    req.on("end", () => {
      seen.push(body)
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  try {
    return await use(`127.0.0.1:${(server.address() as AddressInfo).port}`, seen)
  } finally {
    server.closeAllConnections()
    server.close()
  }
}

/** The outcome recorded for `id`, which must be a retry. */
const retried = (outcomes: Map<string, Option.Option<AttemptOutcome>>, id: string) => {
  const outcome = outcomes.get(id)
  expect(outcome !== undefined && Option.isSome(outcome), id).toBe(true)
  const value = Option.getOrThrow(outcome!)
  expect(typeof value.next === "object" && value.next.retryAtMs > Date.now()).toBe(true)
  expect(value.statusCode).toBeNull()
  return value.error ?? ""
}

describe("webhook attempts that cannot be made", () => {
  it("a stored URL whose credentials do not decode: each attempt recorded with why, and retried", async () => {
    const outcomes = await withReceiver((origin) =>
      Effect.runPromise(
        attemptAt(`http://%zz@${origin}/x`, [
          { delivery: delivery(1), event: event(1) },
          { delivery: delivery(2), event: event(2) }
        ])
      )
    )
    for (const id of ["wd_1", "wd_2"]) {
      const error = retried(outcomes, id)
      expect(error).toContain("percent-encoding")
      // The stored error names no address or port.
      expect(error).not.toMatch(/127\.0\.0\.1|:\d{2,5}/)
    }
  })

  it("a payload that cannot be written ends its own attempt, recorded; the rest are sent", async () => {
    const { outcomes, seen } = await withReceiver(async (origin, seen) => ({
      outcomes: await Effect.runPromise(
        attemptAt(`http://${origin}/x`, [
          { delivery: delivery(1), event: event(1) },
          // JSON cannot write a bigint: the signing and sending of this one throws.
          { delivery: delivery(2), event: event(2, { object: { n: 1n as unknown as number } }) },
          { delivery: delivery(3), event: event(3) }
        ])
      ),
      seen
    }))
    expect(retried(outcomes, "wd_2")).toContain("could not be made")
    for (const id of ["wd_1", "wd_3"]) {
      expect(Option.map(outcomes.get(id)!, (o) => o.next)).toEqual(Option.some("succeeded"))
    }
    expect(seen).toHaveLength(2)
  })
})

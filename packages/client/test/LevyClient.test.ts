/**
 * The Effect client: typed calls and the API's tagged errors, the headers it sends
 * (Levy-Version, bearer key, an Idempotency-Key on POSTs only) and the replay of a
 * caller-chosen key.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { CardError, LevyClient, NetworkError } from "../src/index.js"
import { fixed, SECRET, silent, start } from "./support.js"

describe("LevyClient (Effect)", () => {
  let server: Awaited<ReturnType<typeof start>>
  beforeAll(async () => {
    server = await start()
  })
  afterAll(() => server.close())

  const run = <A, E>(effect: Effect.Effect<A, E, LevyClient.LevyClient>) =>
    Effect.runPromise(
      effect.pipe(Effect.provide(LevyClient.layer(SECRET, { baseUrl: server.url })))
    )

  it("an estimate, with the server's Levy-Version echoed", async () => {
    const [estimate, response] = await run(
      Effect.flatMap(LevyClient.LevyClient, (client) =>
        client.estimates.create({
          payload: { amount: 10000, currency: "usd" },
          headers: {},
          withResponse: true
        })
      )
    )
    expect(estimate.convenienceFee).toBe(320)
    expect(response.headers["levy-version"]).toBe("2025-01")
  })

  it("a declined card is the API's CardError in the error channel", async () => {
    const error = await run(
      Effect.flatMap(LevyClient.LevyClient, (client) =>
        client.charges.create({
          payload: { amount: 5000, currency: "usd", source: "tok_chargeDeclined" },
          headers: {}
        })
      ).pipe(Effect.flip)
    )
    expect(error._tag).toBe("CardError")
    expect(error).toMatchObject({ code: "card_declined", status: 402 })
  })

  it("a caller's Idempotency-Key is kept and the second call is a replay", async () => {
    const create = Effect.flatMap(LevyClient.LevyClient, (client) =>
      client.charges.create({
        payload: { amount: 5000, currency: "usd" },
        headers: { "idempotency-key": "order-1234" },
        withResponse: true
      })
    )
    const [first] = await run(create)
    const [again, response] = await run(create)
    expect(again.id).toBe(first.id)
    expect(response.headers["idempotent-replayed"]).toBe("true")
  })

  it("sends the bearer key and Levy-Version, and an Idempotency-Key on POSTs only", async () => {
    const raw = await fixed(500, { type: "api_error", code: "internal_error", message: "no" })
    try {
      const client = LevyClient.makeFetch(SECRET, {
        baseUrl: raw.url,
        maxRetries: 0,
        apiVersion: "2025-01"
      })
      await Effect.runPromise(Effect.either(client.feeConfigs.retrieve()))
      await Effect.runPromise(Effect.either(client.feeConfigs.cancelPending({ headers: {} })))
      const [get, post] = raw.requests
      expect(get?.headers).toMatchObject({
        authorization: `Bearer ${SECRET}`,
        "levy-version": "2025-01"
      })
      expect(get?.headers["idempotency-key"]).toBeUndefined()
      expect(post?.headers["idempotency-key"]).toMatch(/^idk_[0-9a-f-]{36}$/)
    } finally {
      await raw.close()
    }
  })

  it("withLevyErrors: the facade's classes, with the request-id; a timeout is a NetworkError", async () => {
    const declined = await run(
      Effect.flatMap(LevyClient.LevyClient, (client) =>
        client.charges.create({
          payload: { amount: 5000, currency: "usd", source: "tok_chargeDeclined" },
          headers: {}
        })
      ).pipe(LevyClient.withLevyErrors, Effect.flip)
    )
    expect(declined).toBeInstanceOf(CardError)
    expect(declined.requestId).toMatch(/^req_/)
    const hanging = await silent()
    try {
      const client = LevyClient.makeFetch(SECRET, {
        baseUrl: hanging.url,
        timeout: 100,
        maxRetries: 0
      })
      const timedOut = await Effect.runPromise(
        client.feeConfigs.retrieve().pipe(LevyClient.withLevyErrors, Effect.flip)
      )
      expect(timedOut).toBeInstanceOf(NetworkError)
      expect(timedOut.code).toBe("timeout")
    } finally {
      await hanging.close()
    }
  })
})

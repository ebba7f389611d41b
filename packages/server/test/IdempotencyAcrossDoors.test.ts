/**
 * One Idempotency-Key is one request whichever door it comes through (docs/design.md §7): the
 * HTTP API and `LevyService` in-process, on the same store, fingerprint a request as its
 * operation and its parameters as decoded (Fingerprint.ts), not the bytes that carried them.
 * So a charge made over HTTP under a key is answered again in-process under it with the same
 * parameters (and the other way round), never made twice; other parameters under the key are
 * refused at either door.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as LevyService from "@levy/engine/inprocess/LevyService.js"
import { LoopbackTargets } from "@levy/engine/webhookEndpoints/LoopbackTargets.js"
import { Cause, type Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import { call, STORES, startWithStore } from "./support.js"

const order = {
  amount: 10_000,
  currency: "usd",
  region: "US-CA",
  cardType: "credit",
  source: "tok_visa",
  customer: "cus_doors",
  metadata: { order: "42" }
} as const

/** The same order as another client would send it: other key order, other spacing. */
const reordered = `{ "metadata": {"order":"42"},  "customer":"cus_doors", "source": "tok_visa",
  "cardType":"credit", "region":"US-CA", "currency":"usd", "amount":10000 }`

describe.each(STORES)("one key across HTTP and in-process, on %s", (_name, store) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  let runtime: ManagedRuntime.ManagedRuntime<LevyService.LevyService, unknown>
  let levy: LevyService.Service
  const tenant = LevyService.tenant("acct_1", "test")

  beforeAll(async () => {
    server = await startWithStore(store())
    const context = await server.store.runtime().then((r) => r.context)
    // Webhook endpoints on this machine, as the test server (a development one) allows them.
    runtime = ManagedRuntime.make(
      LevyService.layer.pipe(
        Layer.provide(Layer.succeed(LoopbackTargets, true)),
        Layer.provide(Layer.succeedContext(context))
      )
    )
    levy = await runtime.runPromise(LevyService.LevyService)
  })
  afterAll(async () => {
    await runtime.dispose()
    await server.close()
  })

  const run = <A, E>(effect: Effect.Effect<A, E>) => runtime.runPromise(effect)
  const failureOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<E> => {
    const exit = await runtime.runPromiseExit(effect)
    if (Exit.isSuccess(exit)) throw new Error("expected a failure, got a success")
    const failure = Cause.failureOption(exit.cause)
    if (Option.isNone(failure))
      throw new Error(`expected a typed failure: ${Cause.pretty(exit.cause)}`)
    return failure.value as E
  }
  const post = (path: string, key: string, init: { body?: unknown; raw?: string } = {}) =>
    call(server.url, "POST", path, { ...init, headers: { "idempotency-key": key } })
  const chargesOf = async (customer: string) =>
    (await run(levy.charges.list(tenant, { customer, limit: 100 }))).data

  it("a charge made over HTTP is answered in-process under its key, not made again", async () => {
    const customer = "cus_http_first"
    const made = await post("/v1/charges", "doors-http-first", { body: { ...order, customer } })
    expect(made.status, made.text).toBe(200)
    const again = await run(
      levy.charges.create(tenant, { ...order, customer }, { idempotencyKey: "doors-http-first" })
    )
    expect(again).toStrictEqual(made.body)
    expect((await chargesOf(customer)).map((c) => c.id)).toStrictEqual([again.id])
  })

  it("a charge made in-process is replayed over HTTP under its key, whatever the bytes", async () => {
    const made = await run(
      levy.charges.create(tenant, order, { idempotencyKey: "doors-inprocess-first" })
    )
    const again = await post("/v1/charges", "doors-inprocess-first", { raw: reordered })
    expect(again.status, again.text).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toStrictEqual(made)
    expect((await chargesOf(order.customer)).map((c) => c.id)).toStrictEqual([made.id])
  })

  it("other parameters under a key used over HTTP are refused in-process", async () => {
    const made = await post("/v1/charges", "doors-http-other", { body: order })
    expect(made.status, made.text).toBe(200)
    const error = await failureOf(
      levy.charges.create(
        tenant,
        { ...order, amount: 20_000 },
        { idempotencyKey: "doors-http-other" }
      )
    )
    expect(error._tag).toBe("IdempotencyKeyReused")
  })

  it("other parameters under a key used in-process are refused over HTTP", async () => {
    await run(levy.charges.create(tenant, order, { idempotencyKey: "doors-inprocess-other" }))
    const refused = await post("/v1/charges", "doors-inprocess-other", {
      body: { ...order, amount: 20_000 }
    })
    expect(refused.status, refused.text).toBe(400)
    expect((refused.body as { error: { code: string } }).error.code).toBe("idempotency_key_reused")
  })

  it("a key is bound to its operation: the same key on another endpoint is refused", async () => {
    const endpoint = await run(
      levy.webhookEndpoints.create(tenant, {
        url: "http://127.0.0.1:9/hook",
        enabledEvents: ["charge.succeeded"]
      })
    )
    const other = await run(
      levy.webhookEndpoints.create(tenant, {
        url: "http://127.0.0.1:9/other",
        enabledEvents: ["charge.succeeded"]
      })
    )
    // A write with no parameters: its path is the whole request, at both doors.
    const rolled = await post(`/v1/webhook-endpoints/${endpoint.id}/roll-secret`, "doors-roll")
    expect(rolled.status, rolled.text).toBe(200)
    const again = await run(
      levy.webhookEndpoints.rollSecret(tenant, endpoint.id, { idempotencyKey: "doors-roll" })
    )
    expect(again).toStrictEqual(rolled.body)
    expect(
      (
        await failureOf(
          levy.webhookEndpoints.rollSecret(tenant, other.id, { idempotencyKey: "doors-roll" })
        )
      )._tag
    ).toBe("IdempotencyKeyReused")
  })

  it("a request without a body over HTTP is the call without input in-process", async () => {
    await post("/v1/charges", "doors-resend-charge", { body: order })
    const event = (await run(levy.events.list(tenant, { type: "charge.succeeded", limit: 1 })))
      .data[0]
    if (event === undefined) throw new Error("no event")
    const resent = await post(`/v1/events/${event.id}/resend`, "doors-resend")
    expect(resent.status, resent.text).toBe(200)
    const again = await run(
      levy.events.resend(tenant, event.id, undefined, { idempotencyKey: "doors-resend" })
    )
    expect(again).toStrictEqual(resent.body)
    const other = await failureOf(
      levy.events.resend(
        tenant,
        event.id,
        { endpoint: "we_other" },
        { idempotencyKey: "doors-resend" }
      )
    )
    expect(other._tag).toBe("IdempotencyKeyReused")
  })
})

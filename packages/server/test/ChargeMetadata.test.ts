/**
 * Metadata Levy accepts is metadata every processor takes (docs/design.md §9, docs/processors.md
 * "What Levy sends"; second review, item 13): a live Stripe charge with 50 keys (Levy's old
 * maximum) was sent with Levy's four keys as 52, refused by Stripe and blamed on the account's
 * configuration, while test mode took it; a key with a bracket the same. Now every door (HTTP
 * in test and live mode, `LevyService` in-process) refuses it up front naming the field, and
 * what is accepted reaches Stripe whole.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as LevyService from "@levy/engine/inprocess/LevyService.js"
import { Cause, type Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import { stores } from "./chargeStores.js"
import { type Processors, startProcessors } from "./ProcessorWebhooksSupport.js"
import { call, LIVE_SECRET, type Running, SECRET, start } from "./support.js"

const keys = (n: number, value = "v") =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, value]))

/** What review item 13 sent: each a charge Levy used to accept. */
const REFUSED: ReadonlyArray<readonly [string, Record<string, string>, string]> = [
  ["50 keys (Levy's old maximum, 52 with Levy's own)", keys(50), "metadata"],
  ["18 keys (Adyen's 20 less Levy's 3, plus one)", keys(18), "metadata"],
  ["a key with a square bracket", { "items[0]": "shoe" }, "metadata[items[0]]"],
  ["a key in Levy's levy_ space", { levy_charge: "ch_forged" }, "metadata[levy_charge]"],
  ["a value over 80 characters", { note: "n".repeat(81) }, "metadata[note]"]
]

let processors: Processors
let live: Running
let simulator: Running
beforeAll(async () => {
  processors = await startProcessors()
  // acct_1's live mode charges through the fake Stripe, which enforces Stripe's limits.
  live = await start({ processors: processors.layer })
  // Test mode on the simulator, as a new account has it.
  simulator = await start()
})
afterAll(async () => {
  await Promise.all([live.close(), simulator.close(), processors.close()])
})

const charge = (server: Running, key: string, metadata: Record<string, string>) =>
  call(server.url, "POST", "/v1/charges", {
    key,
    body: {
      amount: 10_000,
      currency: "usd",
      source: key === LIVE_SECRET ? "pm_card_visa" : "tok_visa",
      metadata
    }
  })

describe("charge metadata within every processor's limits", () => {
  it.each(REFUSED)(
    "%s: refused up front in live mode, naming the field; nothing sent to Stripe",
    async (_what, metadata, param) => {
      const before = processors.stripeLive.payments().length
      const reply = await charge(live, LIVE_SECRET, metadata)
      expect(reply.status, reply.text).toBe(400)
      expect(reply.body).toMatchObject({
        error: { type: "invalid_request_error", code: "parameter_invalid", param }
      })
      expect(processors.stripeLive.payments().length).toBe(before)
    }
  )

  it.each(REFUSED)("%s: refused the same way in test mode", async (_what, metadata, param) => {
    const reply = await charge(simulator, SECRET, metadata)
    expect(reply.status, reply.text).toBe(400)
    expect(reply.body).toMatchObject({
      error: { type: "invalid_request_error", code: "parameter_invalid", param }
    })
  })

  it("the most a request may carry reaches Stripe whole, with Levy's four keys", async () => {
    const metadata = Object.fromEntries(
      Array.from({ length: 17 }, (_, i) => [`k${String(i).padStart(19, "0")}`, "v".repeat(80)])
    )
    const reply = await charge(live, LIVE_SECRET, metadata)
    expect(reply.status, reply.text).toBe(200)
    const id = (reply.body as { id: string; metadata: unknown }).id
    expect((reply.body as { metadata: unknown }).metadata).toStrictEqual(metadata)
    const intent = processors.stripeLive.payments().find((p) => p.metadata.levy_charge === id)
    expect(intent?.metadata).toMatchObject({ ...metadata, levy_charge: id, levy_account: "acct_1" })
    expect(Object.keys(intent?.metadata ?? {}).sort()).toStrictEqual(
      [
        ...Object.keys(metadata),
        "levy_account",
        "levy_charge",
        "levy_fee",
        "levy_idempotency_key"
      ].sort()
    )
  })
})

describe("in-process (LevyService)", () => {
  const memory = stores[0]
  it("refuses the same metadata as InvalidInput naming the field", async () => {
    if (memory === undefined) throw new Error("no store")
    const runtime = ManagedRuntime.make(LevyService.layer.pipe(Layer.provideMerge(memory.layer)))
    try {
      const levy = await runtime.runPromise(LevyService.LevyService)
      const account = await runtime.runPromise(levy.accounts.create("Shop"))
      const tenant = LevyService.tenant(account.accountId, "test")
      for (const [what, metadata, param] of REFUSED) {
        const exit = await runtime.runPromiseExit(
          levy.charges.create(tenant, {
            amount: 10_000,
            currency: "usd",
            metadata
          }) as Effect.Effect<unknown, unknown>
        )
        expect(Exit.isFailure(exit), what).toBe(true)
        if (Exit.isFailure(exit)) {
          expect(Option.getOrUndefined(Cause.failureOption(exit.cause)), what).toMatchObject({
            _tag: "InvalidInput",
            param
          })
        }
      }
    } finally {
      await runtime.dispose()
    }
  })
})

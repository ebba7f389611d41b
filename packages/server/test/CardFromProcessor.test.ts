/**
 * The card a charge is judged on comes from the processor, not the request: a
 * processor that reports a commercial card makes the payer a business cardholder, one that
 * reports a consumer card refuses a request claiming otherwise, and the issuing country it
 * reports decides domestic or foreign. GB's reg. 6A bans fees on every card but commercial
 * ones (SI 2017/752), which makes the difference visible.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { PaymentMethod, PaymentProcessor } from "@levy/engine/processors/PaymentProcessor.js"
import { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import * as Simulator from "@levy/engine/processors/simulator/Simulator.js"
import { Effect, Layer, Option } from "effect"
import { call, type Running, start } from "./support.js"

/** The simulator, describing every source as `method`. */
const describing = (method: { current: PaymentMethod }): Layer.Layer<PaymentProcessors> => {
  const simulator = Simulator.make()
  const processor: PaymentProcessor = {
    ...simulator,
    describe: () => Effect.succeed(method.current)
  }
  return Layer.succeed(PaymentProcessors, {
    forTenant: () => Effect.succeed(Option.some(processor)),
    forNotifications: () => Effect.succeed(Option.none())
  })
}

const card = (category: PaymentMethod["category"]): PaymentMethod => ({
  funding: "credit",
  network: "visa",
  issuingCountry: "GB",
  category
})

describe("the card as the processor tells it", () => {
  const method = { current: card("commercial") }
  let server: Running
  beforeAll(async () => {
    server = await start({ processors: describing(method) })
    // A charge is judged with the configured cost of acceptance (docs/design.md §3).
    const set = await call(server.url, "POST", "/v1/fee-configs", { body: { costOfAcceptance: 3 } })
    expect(set.status).toBe(200)
  })
  afterAll(() => server.close())

  const charge = (body: Record<string, unknown> = {}) =>
    call(server.url, "POST", "/v1/charges", {
      body: { amount: 10_000, currency: "gbp", region: "GB", ...body }
    })

  it("a commercial card in GB may carry a fee up to cost: the payer is a business", async () => {
    method.current = card("commercial")
    const reply = await charge()
    expect(reply.status).toBe(200)
    expect((reply.body as { convenienceFee: number }).convenienceFee).toBeGreaterThan(0)
  })

  it("a consumer card in GB may not carry one: the fee is lowered to nothing", async () => {
    method.current = card("consumer")
    const reply = await charge()
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      convenienceFee: 0,
      configured: { compliant: false, reasonCode: "fees_prohibited" }
    })
  })

  it("a request calling a consumer card a business's is refused, naming the field", async () => {
    method.current = card("consumer")
    const reply = await charge({ cardholder: "business" })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ error: { code: "card_mismatch", param: "cardholder" } })
  })

  it("a card of unknown category keeps the request's cardholder", async () => {
    method.current = card("unknown")
    const reply = await charge({ cardholder: "business" })
    expect(reply.status).toBe(200)
  })
})

/**
 * A charge is judged on the server's day with the account's configured cost of acceptance
 * (docs/design.md §3): a request cannot choose the rules that judge it. The attacks of the
 * second security review (docs/reliability.md "Security"): an AU charge dated before the 2026
 * ban, a US-GA charge dated before the 3 % cap, a charge's own higher cost of acceptance. Over
 * HTTP (refused, naming the field, nothing charged) and in the workflow itself for a caller that
 * skips the schema (the inputs are never read). Estimates may still ask what-ifs, and say so.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ComplianceRules } from "@levy/core"
import { createCharge } from "@levy/engine/charges/createCharge.js"
import { updateFeeConfig } from "@levy/engine/feeConfigs/updateFeeConfig.js"
import { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import { ChargeRepository, Tenant } from "@levy/storage"
import { Effect, Layer } from "effect"
import { call, memoryStore, type Reply, STORES, startWithStore } from "./support.js"

const TEST = Tenant.make("acct_1", false)

const errorOf = (reply: Reply) => (reply.body as { error: Record<string, unknown> }).error

describe.each(STORES)("a charge's compliance inputs on the %s store", (_name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    server = await startWithStore(makeStore())
  }, 60_000)
  afterAll(() => server.close())

  const post = (path: string, body: unknown) => call(server.url, "POST", path, { body })
  const chargeCount = () =>
    server.store.runPromise(
      Effect.flatMap(ChargeRepository, (repo) =>
        Effect.map(repo.list(TEST, { limit: 100 }), (p) => p.data.length)
      ) as Effect.Effect<number, never, ChargeRepository>
    )

  it("AU: a charge is judged today (banned since 2026-10-01); a back-dated one is refused", async () => {
    const today = await post("/v1/charges", { amount: 10000, currency: "aud", region: "AU" })
    expect(today.status).toBe(200)
    expect(today.body).toMatchObject({ convenienceFee: 0 })
    const before = await chargeCount()
    const dated = await post("/v1/charges", {
      amount: 10000,
      currency: "aud",
      region: "AU",
      date: "2026-09-30"
    })
    expect(dated.status).toBe(400)
    expect(errorOf(dated)).toMatchObject({ code: "parameter_invalid", param: "date" })
    expect(String(errorOf(dated).message)).toContain("check-compliance")
    expect(await chargeCount()).toBe(before)
  })

  it("US-GA at 4 %: today's 3 % cap applies; a charge dated 2023 is refused", async () => {
    const set = await post("/v1/fee-configs", { percentage: 4, flatFee: 0 })
    expect(set.status).toBe(200)
    try {
      const today = await post("/v1/charges", { amount: 10000, currency: "usd", region: "US-GA" })
      expect(today.body).toMatchObject({ convenienceFee: 300 })
      const dated = await post("/v1/charges", {
        amount: 10000,
        currency: "usd",
        region: "US-GA",
        date: "2023-01-01"
      })
      expect(dated.status).toBe(400)
      expect(errorOf(dated)).toMatchObject({ param: "date" })
    } finally {
      await post("/v1/fee-configs", { percentage: 2.9, flatFee: 0.3 })
    }
  })

  it("a charge's own costOfAcceptance is refused; the configured one decides", async () => {
    const reply = await post("/v1/charges", {
      amount: 10000,
      currency: "cad",
      region: "CA-ON",
      costOfAcceptance: 3
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply)).toMatchObject({ code: "parameter_invalid", param: "costOfAcceptance" })
    expect(String(errorOf(reply).message)).toContain("/v1/fee-configs")
  })

  it("an estimate may ask what-ifs, and says it is one", async () => {
    const plain = await post("/v1/estimates", { amount: 10000, currency: "aud", region: "AU" })
    expect(plain.status).toBe(200)
    expect(plain.body).not.toHaveProperty("whatIf")
    const dated = await post("/v1/estimates", {
      amount: 10000,
      currency: "aud",
      region: "AU",
      date: "2026-09-30"
    })
    expect(dated.status).toBe(200)
    expect(dated.body).toMatchObject({ whatIf: true })
    expect((dated.body as { convenienceFee: number }).convenienceFee).toBeGreaterThan(0)
    const cost = await post("/v1/estimates", {
      amount: 10000,
      currency: "usd",
      costOfAcceptance: 1
    })
    expect(cost.body).toMatchObject({ whatIf: true })
  })
})

describe("the charge workflow, for a caller that skips the schema", () => {
  const layer = Layer.mergeAll(memoryStore(), ComplianceRules.Live, PaymentProcessors.layerTestOnly)

  it.effect("reads neither date nor costOfAcceptance from the request", () =>
    Effect.gen(function* () {
      // A cost-of-acceptance cap of 1 % binds in CA-ON: a request's 3 % would let 2.9 % + 0.30 through.
      yield* updateFeeConfig(TEST, { costOfAcceptance: 1 }, "test")
      const smuggled = {
        amount: 10000,
        currency: "cad",
        region: "CA-ON",
        costOfAcceptance: 3
      } as never
      const byConfig = yield* createCharge(TEST, smuggled)
      expect(byConfig.value.convenienceFee).toBe(100)
      const dated = yield* createCharge(TEST, {
        amount: 10000,
        currency: "aud",
        region: "AU",
        date: "2026-09-30"
      } as never)
      expect(dated.value.convenienceFee).toBe(0)
    }).pipe(Effect.provide(layer))
  )
})

/**
 * Retries against the real server: a POST whose response is lost after the server wrote the
 * charge is retried with the same Idempotency-Key and replayed, so exactly one charge
 * exists; a 429 is retried after the server's Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ChargeRepository, Tenant } from "@levy/storage"
import { Duration, Effect } from "effect"
import { Levy, RateLimitError } from "../src/index.js"
import { dropping, memoryStore, SECRET, start, startWithStore } from "./support.js"

const TEST = Tenant.make("acct_1", false)

describe("a lost response is retried with the same Idempotency-Key", () => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  let proxy: Awaited<ReturnType<typeof dropping>>
  beforeAll(async () => {
    server = await startWithStore(memoryStore())
    proxy = await dropping(server.url, 1)
  })
  afterAll(async () => {
    await proxy.close()
    await server.close()
  })

  const charges = () =>
    server.store.runPromise(
      Effect.flatMap(ChargeRepository, (repo) => repo.list(TEST, { limit: 100 })).pipe(
        Effect.map((page) => page.data),
        Effect.orDie
      )
    )

  it("exactly one charge, and the client gets it", async () => {
    const levy = new Levy(SECRET, { baseUrl: proxy.url, maxRetries: 2 })
    const charge = await levy.charges.create({ amount: 4200, currency: "usd", source: "tok_visa" })
    expect(proxy.requests).toHaveLength(2)
    const [first, second] = proxy.requests.map((r) => r.headers["idempotency-key"])
    expect(first).toMatch(/^idk_/)
    expect(second).toBe(first)
    const stored = await charges()
    expect(stored.map((c) => c.id)).toEqual([charge.id])
  })
})

describe("429 with Retry-After", () => {
  it("waits the Retry-After and succeeds in the next window", async () => {
    // backoff alone (at most 0.5 s + 1 s) would retry inside this 3 s window and fail again
    const server = await start({ edge: { test: 2, window: Duration.seconds(3) } })
    try {
      const levy = new Levy(SECRET, { baseUrl: server.url, maxRetries: 2 })
      const impatient = new Levy(SECRET, { baseUrl: server.url, maxRetries: 0 })
      await levy.feeConfigs.retrieve()
      await levy.feeConfigs.retrieve()
      await expect(impatient.feeConfigs.retrieve()).rejects.toBeInstanceOf(RateLimitError)
      expect(await levy.feeConfigs.retrieve()).toMatchObject({ object: "fee_config" })
    } finally {
      await server.close()
    }
  }, 15_000)
})

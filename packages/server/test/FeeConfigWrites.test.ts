/**
 * Only an accepted change stores an account's fee configuration: reading it, quoting, charging
 * and every refused request (a bad pin, an unknown region, nothing pending to cancel) leave the
 * store as it was, the defaults answering until the first change (docs/design.md §6).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { FeeConfigRepository, Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import { call, STORES, startWithStore } from "./support.js"

const TEST = Tenant.make("acct_1", false)

describe.each(STORES)("fee configuration writes on the %s store", (_name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    server = await startWithStore(makeStore())
  }, 60_000)
  afterAll(() => server.close())

  const stored = () =>
    server.store.runPromise(
      Effect.flatMap(FeeConfigRepository, (repo) => repo.get(TEST)).pipe(
        Effect.map(Option.isSome)
      ) as Effect.Effect<boolean>
    )
  const post = (path: string, body: unknown) => call(server.url, "POST", path, { body })

  it("reads, quotes, charges and refused requests store nothing; the first change does", async () => {
    expect((await call(server.url, "GET", "/v1/fee-configs")).status).toBe(200)
    expect((await post("/v1/estimates", { amount: 10_000, currency: "usd" })).status).toBe(200)
    const refused = [
      await post("/v1/fee-configs", { rulesetVersion: "9.9.9" }),
      await post("/v1/fee-configs/pending/cancel", {}),
      await post("/v1/estimates", { amount: 10_000, currency: "usd", region: "ZZ-NOWHERE" }),
      await post("/v1/charges", { amount: 10_000, currency: "usd", region: "ZZ-NOWHERE" })
    ]
    expect(refused.map((r) => r.status)).toEqual([400, 404, 400, 400])
    expect(await stored()).toBe(false)
    expect((await post("/v1/charges", { amount: 10_000, currency: "usd" })).status).toBe(200)
    expect(await stored()).toBe(false)

    const changed = await post("/v1/fee-configs", { percentage: 2.5 })
    expect(changed.status, changed.text).toBe(200)
    expect(await stored()).toBe(true)
    expect((await call(server.url, "GET", "/v1/fee-configs")).body).toMatchObject({
      percentage: 2.5
    })
  })
})

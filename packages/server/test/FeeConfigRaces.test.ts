/**
 * Live fee changes decided and applied as one (docs/design.md §6), the attacks of the second
 * security review (docs/reliability.md "Security"):
 * - two small changes from one key, the second decided against the configuration before the
 *   first was applied, must not combine into an unapproved raise (50 % with its cap removed);
 * - an approval must not apply a held change onto a configuration that moved since it was
 *   requested (a cap-removal judged at 10 %, approved after the rate went to 50 %).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ComplianceRules } from "@levy/core"
import { updateFeeConfig } from "@levy/engine/feeConfigs/updateFeeConfig.js"
import {
  AccountRepository,
  type FeeConfig,
  FeeConfigRepository,
  type JsonObject,
  Tenant
} from "@levy/storage"
import { Effect, Layer, Option } from "effect"
import {
  call,
  KEYS,
  LIVE_SECRET,
  memoryStore,
  postgresStore,
  STORES,
  startWithStore
} from "./support.js"

const LIVE = Tenant.make("acct_1", true)
const LIVE_SECRET_2 = "sk_prod_service_approver0004"

/** The review's starting point: 10 % + 0.30 capped at 100, on amounts of 1,000 to 4,000 usd. */
const CAPPED = {
  percentage: 10,
  flatFee: 0.3,
  maxFee: 100,
  minAmount: 100_000,
  maxAmount: 400_000
} as const satisfies JsonObject

/** The first change: the cap removed, the rate to almost nothing (a lowering). */
const UNCAP = { maxFee: null, percentage: 0.0001, flatFee: 0 } as const

const seed = Effect.zipRight(
  Effect.flatMap(AccountRepository, (repo) =>
    repo.createAccount({ id: LIVE.accountId, name: "acct_1", created: 0 })
  ),
  Effect.flatMap(FeeConfigRepository, (repo) => repo.initialize(LIVE, CAPPED, 0))
)

/** The store's repository, except that its first read answers `stale` (a read made earlier). */
const readingFirst = (stale: FeeConfig) =>
  Layer.effect(
    FeeConfigRepository,
    Effect.map(FeeConfigRepository, (repo) => {
      let first = true
      return {
        ...repo,
        get: (tenant) => {
          if (!first) return repo.get(tenant)
          first = false
          return Effect.succeed(Option.some(stale))
        }
      }
    })
  )

describe.each([
  ["memory", memoryStore],
  ["postgres", postgresStore]
] as const)("two live changes decided at once, on the %s store", (_name, makeStore) => {
  it.effect("the second, decided before the first was applied, is decided again: held", () =>
    Effect.gen(function* () {
      yield* seed
      const before = Option.getOrThrow(
        yield* Effect.flatMap(FeeConfigRepository, (repo) => repo.get(LIVE))
      )
      const first = yield* updateFeeConfig(LIVE, UNCAP, "key_a")
      expect(first.value.updated).toBe(true)
      // Judged against the capped configuration, 50 % raises nothing: the cap binds everywhere.
      const second = yield* updateFeeConfig(LIVE, { percentage: 50 }, "key_a").pipe(
        Effect.provide(readingFirst(before))
      )
      expect(second.value).toMatchObject({ updated: false, percentage: 0.0001, maxFee: null })
      expect(second.value.pendingChange?.changes).toEqual({ percentage: 50 })
      const now = Option.getOrThrow(
        yield* Effect.flatMap(FeeConfigRepository, (repo) => repo.get(LIVE))
      )
      expect(now.config).toMatchObject({ percentage: 0.0001, maxFee: null })
    }).pipe(Effect.provide(Layer.mergeAll(makeStore(), ComplianceRules.Live)))
  )
})

describe.each(STORES)("live fee changes over HTTP on the %s store", (_name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    server = await startWithStore(makeStore(), {
      keys: [...KEYS, { secret: LIVE_SECRET_2, accountId: "acct_1", keyId: "key_sk_prod_2" }]
    })
  }, 60_000)
  afterAll(() => server.close())

  const post = (path: string, body: unknown, key = LIVE_SECRET) =>
    call(server.url, "POST", path, { body, key })
  const feeAt = async (amount: number) =>
    ((await post("/v1/estimates", { amount, currency: "usd" })).body as { convenienceFee: number })
      .convenienceFee
  /** Puts the live configuration back at CAPPED: requested by one key, approved by the other. */
  const reset = async () => {
    const current = await call(server.url, "GET", "/v1/fee-configs", { key: LIVE_SECRET })
    const pending = (current.body as { pendingChange?: { id: string } }).pendingChange
    if (pending !== undefined) await post("/v1/fee-configs/pending/cancel", {})
    const asked = await post("/v1/fee-configs", CAPPED)
    const id = (asked.body as { pendingChange?: { id: string } }).pendingChange?.id
    if (id !== undefined) {
      const approved = await post("/v1/fee-configs/pending/approve", { id }, LIVE_SECRET_2)
      expect(approved.status).toBe(200)
    }
  }

  it("two changes sent together never leave 50 % uncapped without a second key", async () => {
    for (let round = 0; round < 6; round++) {
      await reset()
      expect(await feeAt(400_000)).toBe(100)
      await Promise.all([
        post("/v1/fee-configs", UNCAP),
        new Promise((resolve) => setTimeout(resolve, round)).then(() =>
          post("/v1/fee-configs", { percentage: 50 })
        )
      ])
      // Whichever order they were applied in, nothing above the capped fee is collected.
      expect(await feeAt(400_000)).toBeLessThanOrEqual(100)
    }
  })

  it("an approval of a change requested against a configuration that moved since: 409, nothing applied", async () => {
    await reset()
    const held = await post("/v1/fee-configs", { maxFee: null })
    expect(held.body).toMatchObject({ updated: false })
    const id = (held.body as { pendingChange: { id: string } }).pendingChange.id
    // With the cap still in force, 50 % raises nothing: applied at once.
    const rate = await post("/v1/fee-configs", { percentage: 50 })
    expect(rate.body).toMatchObject({ updated: true, percentage: 50, maxFee: 100 })
    expect(rate.body).toMatchObject({ pendingChange: { id, stale: true } })
    const approval = await post("/v1/fee-configs/pending/approve", { id }, LIVE_SECRET_2)
    expect(approval.status).toBe(409)
    expect(approval.body).toMatchObject({
      error: { type: "invalid_request_error", code: "fee_config_change_stale", param: "id" }
    })
    expect(await feeAt(400_000)).toBe(100)
    // The stale change can be cancelled, then asked for again against what is in force.
    expect((await post("/v1/fee-configs/pending/cancel", {})).status).toBe(200)
    const again = await post("/v1/fee-configs", { maxFee: null })
    const fresh = (again.body as { pendingChange: { id: string; stale: boolean } }).pendingChange
    expect(fresh.stale).toBe(false)
    const approved = await post("/v1/fee-configs/pending/approve", { id: fresh.id }, LIVE_SECRET_2)
    expect(approved.status).toBe(200)
    // Now approved by another key: 50 % + 0.30 uncapped, as both keys saw it.
    expect(await feeAt(400_000)).toBe(200_030)
  })
})

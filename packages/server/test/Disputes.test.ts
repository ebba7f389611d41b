/**
 * Disputes over real HTTP (docs/design.md §4): retrieve and list, by charge and by status, newest
 * first with cursors, in the charge's currency, and nothing across accounts or modes.
 * Disputes are opened by the processor, so the test opens them in the store.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ChargeRepository, type Dispute, Ids, type Storage, Tenant } from "@levy/storage"
import { Effect, Layer, ManagedRuntime } from "effect"
import { seedCharge, stores } from "./chargeStores.js"
import { call, KEYS, LIVE_SECRET, PUBLISHABLE, type Running, SECRET, start } from "./support.js"

const OTHER_SECRET = "sk_dev_service_otheraccount5"
const TEST = Tenant.make("acct_1", false)
const LIVE = Tenant.make("acct_1", true)
const T0 = 1_760_000_000

interface WireDispute {
  readonly id: string
  readonly object: string
  readonly charge: string
  readonly amount: number
  readonly currency: string
  readonly status: string
  readonly reason: string
  readonly created: number
  readonly livemode: boolean
}
interface WireList {
  readonly object: string
  readonly data: ReadonlyArray<WireDispute>
  readonly has_more: boolean
  readonly url: string
}
const errorOf = (body: unknown) => (body as { error: Record<string, unknown> }).error

// Disputes read the charge store only; the memory store is enough (the SQL path of the
// status filter is in the storage conformance suite).
const memory = stores[0]

describe("disputes", () => {
  let server: Running
  let store: ManagedRuntime.ManagedRuntime<Storage.Repositories | Ids, unknown>

  beforeAll(async () => {
    store = ManagedRuntime.make(memory.layer)
    const context = await store.runtime().then((runtime) => runtime.context)
    server = await start({
      storage: Layer.succeedContext(context),
      keys: [...KEYS, { secret: OTHER_SECRET, accountId: "acct_2", keyId: "key_other_dev" }]
    })
  })
  afterAll(async () => {
    await server.close()
    await store.dispose()
  })

  /** A charge in `currency` with one dispute per entry of `disputes`; the charge id and disputes. */
  const seed = (
    tenant: Tenant.Tenant,
    currency: string,
    disputes: ReadonlyArray<{ status: Dispute["status"]; at: number }>
  ) =>
    store.runPromise(
      Effect.gen(function* () {
        const ids = yield* Ids
        const charges = yield* ChargeRepository
        const charge = yield* charges.insert(
          seedCharge(tenant, yield* ids.make("ch"), { currency })
        )
        const opened: Array<Dispute> = []
        for (const { status, at } of disputes) {
          const dispute = yield* charges.openDispute({
            id: yield* ids.make("dp"),
            accountId: tenant.accountId,
            livemode: tenant.livemode,
            chargeId: charge.id,
            amount: charge.totalAmount,
            status: "needs_response",
            reason: "fraudulent",
            created: at,
            updated: at
          })
          opened.push(
            status === "needs_response"
              ? dispute
              : yield* charges.updateDispute(tenant, dispute.id, status, at)
          )
        }
        return { charge: charge.id, disputes: opened }
      })
    )
  const get = async (path: string, key = SECRET) => call(server.url, "GET", path, { key })
  const list = async (query: string, key = SECRET) => {
    const reply = await get(`/v1/disputes?${query}`, key)
    expect(reply.status, reply.text).toBe(200)
    return reply.body as WireList
  }
  const idsOf = (page: WireList) => page.data.map((d) => d.id)

  it("retrieve answers the dispute in the charge's currency", async () => {
    const { charge, disputes } = await seed(TEST, "eur", [{ status: "needs_response", at: T0 }])
    const reply = await get(`/v1/disputes/${disputes[0]?.id}`)
    expect(reply.status).toBe(200)
    expect(reply.body).toStrictEqual({
      id: disputes[0]?.id,
      object: "dispute",
      charge,
      amount: 10_320,
      currency: "eur",
      status: "needs_response",
      reason: "fraudulent",
      created: T0,
      livemode: false
    })
  })

  it("another account's, another mode's or an unknown dispute is a 404", async () => {
    const { disputes } = await seed(TEST, "usd", [{ status: "won", at: T0 }])
    const { disputes: live } = await seed(LIVE, "usd", [{ status: "won", at: T0 }])
    for (const [id, key] of [
      [disputes[0]?.id, LIVE_SECRET],
      [disputes[0]?.id, OTHER_SECRET],
      [live[0]?.id, SECRET],
      ["dp_nosuchdispute", SECRET]
    ] as const) {
      const reply = await get(`/v1/disputes/${id}`, key)
      expect(reply.status).toBe(404)
      expect(errorOf(reply.body)).toMatchObject({
        type: "invalid_request_error",
        code: "resource_missing"
      })
    }
    const mine = await get(`/v1/disputes/${live[0]?.id}`, LIVE_SECRET)
    expect((mine.body as WireDispute).livemode).toBe(true)
  })

  it("list filters by charge and status and pages newest first", async () => {
    const { charge, disputes } = await seed(TEST, "cad", [
      { status: "needs_response", at: T0 + 10 },
      { status: "lost", at: T0 + 11 },
      { status: "needs_response", at: T0 + 12 },
      { status: "needs_response", at: T0 + 13 }
    ])
    const [a, b, c, d] = disputes.map((x) => x.id)
    const other = await seed(TEST, "usd", [{ status: "needs_response", at: T0 + 14 }])
    const all = await list(`charge=${charge}`)
    expect(all).toMatchObject({ object: "list", has_more: false, url: "/v1/disputes" })
    expect(idsOf(all)).toEqual([d, c, b, a])
    expect(all.data.every((x) => x.currency === "cad" && x.charge === charge)).toBe(true)
    expect(idsOf(await list(`charge=${charge}&status=lost`))).toEqual([b])
    expect(idsOf(await list(`charge=${charge}&status=won`))).toEqual([])
    const first = await list(`charge=${charge}&status=needs_response&limit=2`)
    expect([idsOf(first), first.has_more]).toEqual([[d, c], true])
    const next = await list(`charge=${charge}&status=needs_response&limit=2&starting_after=${c}`)
    expect([idsOf(next), next.has_more]).toEqual([[a], false])
    const back = await list(`charge=${charge}&limit=2&ending_before=${b}`)
    expect([idsOf(back), back.has_more]).toEqual([[d, c], false])
    const window = await list(`charge=${charge}&created[gte]=${T0 + 11}&created[lt]=${T0 + 13}`)
    expect(idsOf(window)).toEqual([c, b])
    // Without the charge filter the other charge's dispute is there too, in its currency.
    const everything = await list("limit=100")
    expect(everything.data.find((x) => x.id === other.disputes[0]?.id)?.currency).toBe("usd")
    expect((await list(`charge=${charge}`, OTHER_SECRET)).data).toEqual([])
    expect((await list(`charge=${charge}`, LIVE_SECRET)).data).toEqual([])
  })

  it("list: bad status, unknown cursor and two cursors are 400s naming the parameter", async () => {
    for (const [query, param] of [
      ["status=open", "status"],
      ["starting_after=dp_nosuchdispute", "starting_after"],
      ["ending_before=dp_nosuchdispute", "ending_before"],
      ["starting_after=dp_a&ending_before=dp_b", "ending_before"]
    ] as const) {
      const reply = await get(`/v1/disputes?${query}`)
      expect(reply.status, query).toBe(400)
      expect(errorOf(reply.body)).toMatchObject({ type: "invalid_request_error", param })
    }
  })

  it("a publishable key may not read disputes", async () => {
    for (const path of ["/v1/disputes", "/v1/disputes/dp_x"]) {
      const reply = await get(path, PUBLISHABLE)
      expect(reply.status).toBe(403)
      expect(errorOf(reply.body).code).toBe("permission_denied")
    }
  })
})

/**
 * Events over real HTTP (docs/design.md §8), on the memory store and on PostgreSQL: the list
 * newest first with cursor paging and the type and `created[…]` filters, one event, other
 * modes and accounts kept apart, and resend queueing one delivery per enabled endpoint
 * subscribed to the event's type.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { EventRepository, Tenant, WebhookDeliveryRepository } from "@levy/storage"
import { Effect } from "effect"
import { call, KEYS, LIVE_SECRET, PUBLISHABLE, type Running, SECRET, start } from "./support.js"
import { stores, type TestStore } from "./testStores.js"

const OTHER_SECRET = "sk_dev_service_otheraccount5"
const T0 = 1_760_000_000

interface EventBody {
  readonly id: string
  readonly object: string
  readonly type: string
  readonly data: { readonly object: Record<string, unknown> }
  readonly created: number
  readonly livemode: boolean
}
interface ListBody<A> {
  readonly object: string
  readonly data: ReadonlyArray<A>
  readonly has_more: boolean
  readonly url: string
}

const TYPES = [
  "fee_config.updated",
  "charge.succeeded",
  "fee_config.updated",
  "charge.succeeded",
  "fee_config.updated"
] as const

for (const kind of stores) {
  describe(`events over HTTP (${kind.name})`, () => {
    let server: Running
    let store: TestStore
    /** The test-mode events of acct_1, newest first. */
    let seeded: ReadonlyArray<string> = []
    let liveEvent = ""
    let otherEvent = ""

    const get = (path: string, key = SECRET) => call(server.url, "GET", path, { key })
    const post = (path: string, body?: unknown, key = SECRET) =>
      call(server.url, "POST", path, { key, ...(body === undefined ? {} : { body }) })

    /** Inserts an event whose data is the tenant's fee configuration as the API shows it. */
    const seed = async (key: string, accountId: string, livemode: boolean, i: number) => {
      const config = (await get("/v1/fee-configs", key)).body as Record<string, unknown>
      const id = `evt_${kind.name}${livemode ? "live" : "test"}${accountId.replace("_", "")}${i}`
      await store.runtime.runPromise(
        Effect.flatMap(EventRepository, (events) =>
          events.insert({
            id,
            accountId,
            livemode,
            type: TYPES[i % TYPES.length]!,
            data: { object: config as never },
            request: null,
            created: T0 + i
          })
        )
      )
      return id
    }

    beforeAll(async () => {
      store = await kind.open(["acct_1", "acct_2"])
      server = await start({
        storage: store.layer,
        keys: [...KEYS, { secret: OTHER_SECRET, accountId: "acct_2", keyId: "key_other_dev" }]
      })
      const ids: Array<string> = []
      for (let i = 0; i < TYPES.length; i++) ids.push(await seed(SECRET, "acct_1", false, i))
      seeded = ids.reverse()
      liveEvent = await seed(LIVE_SECRET, "acct_1", true, 0)
      otherEvent = await seed(OTHER_SECRET, "acct_2", false, 0)
    })
    afterAll(async () => {
      await server?.close()
      await store?.runtime.dispose()
    })

    it("lists the mode's events newest first, paging with starting_after and ending_before", async () => {
      const all = await get("/v1/events")
      expect(all.status).toBe(200)
      const body = all.body as ListBody<EventBody>
      expect(body).toMatchObject({ object: "list", has_more: false, url: "/v1/events" })
      expect(body.data.map((e) => e.id)).toEqual(seeded)
      expect(body.data[0]).toMatchObject({
        object: "event",
        type: "fee_config.updated",
        created: T0 + 4,
        livemode: false,
        data: { object: { object: "fee_config", livemode: false } }
      })

      const pages: Array<string> = []
      let cursor: string | undefined
      for (let round = 0; round < 5; round++) {
        const page = (await get(`/v1/events?limit=2${cursor ? `&starting_after=${cursor}` : ""}`))
          .body as ListBody<EventBody>
        expect(page.data.length).toBeLessThanOrEqual(2)
        pages.push(...page.data.map((e) => e.id))
        if (!page.has_more) break
        cursor = page.data[page.data.length - 1]!.id
      }
      expect(pages).toEqual(seeded)
      const before = (await get(`/v1/events?limit=2&ending_before=${seeded[3]}`))
        .body as ListBody<EventBody>
      expect(before.data.map((e) => e.id)).toEqual([seeded[1], seeded[2]])
      expect(before.has_more).toBe(true)
    })

    it("filters by type and by creation time", async () => {
      const charges = (await get("/v1/events?type=charge.succeeded")).body as ListBody<EventBody>
      expect(charges.data.map((e) => e.id)).toEqual([seeded[1], seeded[3]])
      expect(charges.data.every((e) => e.type === "charge.succeeded")).toBe(true)
      const window = (await get(`/v1/events?created[gte]=${T0 + 1}&created[lt]=${T0 + 3}`))
        .body as ListBody<EventBody>
      expect(window.data.map((e) => e.created)).toEqual([T0 + 2, T0 + 1])
      const after = (await get(`/v1/events?created[gt]=${T0 + 3}&type=fee_config.updated`))
        .body as ListBody<EventBody>
      expect(after.data.map((e) => e.id)).toEqual([seeded[0]])
    })

    it("refuses bad list parameters with a 400 naming them", async () => {
      const unknownType = await get("/v1/events?type=charge.exploded")
      expect(unknownType.status).toBe(400)
      expect(unknownType.body).toMatchObject({
        error: { type: "invalid_request_error", param: "type" }
      })
      expect((await get("/v1/events?limit=0")).status).toBe(400)
      const cursor = await get("/v1/events?starting_after=evt_nosuchevent")
      expect(cursor.status).toBe(400)
      expect(cursor.body).toMatchObject({ error: { param: "starting_after" } })
      // Another mode's or account's event is no cursor here either.
      expect((await get(`/v1/events?ending_before=${liveEvent}`)).status).toBe(400)
    })

    it("retrieves one event; unknown, other-mode and other-account ids are 404", async () => {
      const one = await get(`/v1/events/${seeded[2]}`)
      expect(one.status).toBe(200)
      expect(one.body).toMatchObject({ id: seeded[2], object: "event", created: T0 + 2 })
      for (const id of ["evt_nosuchevent", liveEvent, otherEvent]) {
        const missing = await get(`/v1/events/${id}`)
        expect(missing.status).toBe(404)
        expect(missing.body).toMatchObject({
          error: { type: "invalid_request_error", code: "resource_missing" }
        })
      }
      expect((await get(`/v1/events/${liveEvent}`, LIVE_SECRET)).body).toMatchObject({
        id: liveEvent,
        livemode: true
      })
      expect(
        ((await get("/v1/events", LIVE_SECRET)).body as ListBody<EventBody>).data
      ).toHaveLength(1)
      expect(
        ((await get("/v1/events", OTHER_SECRET)).body as ListBody<EventBody>).data.map((e) => e.id)
      ).toEqual([otherEvent])
    })

    it("a publishable key may not read events", async () => {
      expect((await get("/v1/events", PUBLISHABLE)).status).toBe(403)
      expect((await post(`/v1/events/${seeded[0]}/resend`, undefined, PUBLISHABLE)).status).toBe(
        403
      )
    })

    it("resend queues one delivery per enabled endpoint subscribed to the event's type", async () => {
      const create = async (enabledEvents: ReadonlyArray<string>, key = SECRET) => {
        const url =
          key === LIVE_SECRET ? "https://93.184.216.34/hook" : "http://localhost:4242/hook"
        const reply = await post("/v1/webhook-endpoints", { url, enabledEvents }, key)
        expect(reply.status).toBe(200)
        return (reply.body as { id: string }).id
      }
      const everything = await create(["*"])
      const feeConfigs = await create(["fee_config.updated", "dispute.created"])
      await create(["charge.succeeded"])
      const disabled = await create(["*"])
      expect((await post(`/v1/webhook-endpoints/${disabled}`, { status: "disabled" })).status).toBe(
        200
      )
      await create(["*"], LIVE_SECRET)

      const resent = await post(`/v1/events/${seeded[0]}/resend`)
      expect(resent.status).toBe(200)
      expect(resent.body).toMatchObject({
        id: seeded[0],
        object: "event",
        type: "fee_config.updated"
      })

      const queued = await store.runtime.runPromise(
        Effect.flatMap(WebhookDeliveryRepository, (deliveries) =>
          deliveries.list(Tenant.make("acct_1", false), { limit: 100 })
        )
      )
      expect(queued.data.map((d) => d.endpointId).sort()).toEqual([everything, feeConfigs].sort())
      expect(queued.data.every((d) => d.eventId === seeded[0] && d.status === "pending")).toBe(true)
      const live = await store.runtime.runPromise(
        Effect.flatMap(WebhookDeliveryRepository, (deliveries) =>
          deliveries.list(Tenant.make("acct_1", true), { limit: 100 })
        )
      )
      expect(live.data).toEqual([])

      // The endpoint's deliveries show it, pending and not yet attempted.
      const listed = await get(`/v1/webhook-endpoints/${feeConfigs}/deliveries`)
      expect(listed.status).toBe(200)
      expect((listed.body as ListBody<unknown>).data).toEqual([
        expect.objectContaining({
          object: "webhook_delivery",
          webhookEndpoint: feeConfigs,
          event: seeded[0],
          eventType: "fee_config.updated",
          status: "pending",
          attempts: []
        })
      ])

      expect((await post("/v1/events/evt_nosuchevent/resend")).status).toBe(404)
      expect((await post(`/v1/events/${liveEvent}/resend`)).status).toBe(404)
      expect((await post(`/v1/events/${otherEvent}/resend`)).status).toBe(404)
    })

    it("resend with {endpoint} delivers to that endpoint only; others are refused", async () => {
      const deliveriesNow = () =>
        store.runtime.runPromise(
          Effect.flatMap(WebhookDeliveryRepository, (deliveries) =>
            deliveries.list(Tenant.make("acct_1", false), { limit: 100 })
          )
        )
      const make = async (enabledEvents: ReadonlyArray<string>) =>
        (
          (await post("/v1/webhook-endpoints", { url: "http://localhost:4243/one", enabledEvents }))
            .body as { id: string }
        ).id
      const target = await make(["fee_config.updated"])
      const unsubscribed = await make(["charge.succeeded"])
      const beforeIds = new Set((await deliveriesNow()).data.map((d) => d.id))
      const before = beforeIds.size
      const resent = await post(`/v1/events/${seeded[0]}/resend`, { endpoint: target })
      expect(resent.status).toBe(200)
      const after = (await deliveriesNow()).data
      expect(after.length).toBe(before + 1)
      const added = after.filter((d) => !beforeIds.has(d.id))
      expect(added.map((d) => [d.eventId, d.endpointId])).toEqual([[seeded[0], target]])
      for (const endpoint of [unsubscribed, "we_nosuchendpoint"]) {
        const refused = await post(`/v1/events/${seeded[0]}/resend`, { endpoint })
        expect(refused.status).toBe(400)
        expect((refused.body as { error: { param: string } }).error.param).toBe("endpoint")
      }
      const extra = await post(`/v1/events/${seeded[0]}/resend`, { endpoint: target, also: 1 })
      expect(extra.status).toBe(400)
      expect((await deliveriesNow()).data.length).toBe(before + 1)
    })
  })
}

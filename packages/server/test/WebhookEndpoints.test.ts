/**
 * Webhook endpoints over real HTTP (docs/design.md §8), on the memory store and on PostgreSQL:
 * the secret shown once and stored sealed, rolling (two valid secrets), update and disable,
 * delete, the URL rules of each mode, modes and accounts kept apart, publishable keys
 * refused, and an endpoint's deliveries with their attempts.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  EventRepository,
  Tenant,
  WebhookDeliveryRepository,
  WebhookEndpointRepository
} from "@levy/storage"
import { Effect, Option } from "effect"
import { call, KEYS, LIVE_SECRET, PUBLISHABLE, type Running, SECRET, start } from "./support.js"
import { stores, type TestStore } from "./testStores.js"

const OTHER_SECRET = "sk_dev_service_otheraccount5"
const TEST = Tenant.make("acct_1", false)
const HOOK = "http://localhost:4242/hook"
const LIVE_HOOK = "https://93.184.216.34/hook"

interface EndpointBody {
  readonly id: string
  readonly object: string
  readonly url: string
  readonly enabledEvents: ReadonlyArray<string>
  readonly status: string
  readonly description: string | null
  readonly created: number
  readonly livemode: boolean
  readonly secret?: string
}
interface ListBody<A> {
  readonly object: string
  readonly data: ReadonlyArray<A>
  readonly has_more: boolean
  readonly url: string
}

for (const kind of stores) {
  describe(`webhook endpoints over HTTP (${kind.name})`, () => {
    let server: Running
    let store: TestStore

    const request = (method: string, path: string, body?: unknown, key = SECRET) =>
      call(server.url, method, path, { key, ...(body === undefined ? {} : { body }) })
    const create = async (body: Record<string, unknown>, key = SECRET) => {
      const reply = await request("POST", "/v1/webhook-endpoints", body, key)
      expect(reply.status, reply.text).toBe(200)
      return reply.body as EndpointBody
    }
    const run = <A, E>(effect: Effect.Effect<A, E, WebhookEndpointRepository>) =>
      store.runtime.runPromise(effect)

    beforeAll(async () => {
      store = await kind.open(["acct_1", "acct_2"])
      server = await start({
        storage: store.layer,
        keys: [...KEYS, { secret: OTHER_SECRET, accountId: "acct_2", keyId: "key_other_dev" }]
      })
    })
    afterAll(async () => {
      await server?.close()
      await store?.runtime.dispose()
    })

    it("creates an endpoint and shows its secret once; retrieve and list never do", async () => {
      const created = await create({
        url: HOOK,
        enabledEvents: ["charge.succeeded", "charge.refunded"],
        description: "local receiver"
      })
      expect(created).toMatchObject({
        object: "webhook_endpoint",
        url: HOOK,
        enabledEvents: ["charge.succeeded", "charge.refunded"],
        status: "enabled",
        description: "local receiver",
        livemode: false
      })
      expect(created.id).toMatch(/^we_/)
      expect(created.secret).toMatch(/^whsec_dev_[0-9a-f]{48}$/)
      const retrieved = await request("GET", `/v1/webhook-endpoints/${created.id}`)
      expect(retrieved.status).toBe(200)
      const { secret: _, ...visible } = created
      expect(retrieved.body).toEqual(visible)
      expect(retrieved.text).not.toContain(created.secret)
      const listed = await request("GET", "/v1/webhook-endpoints")
      expect(listed.text).not.toContain("whsec_")
      expect((listed.body as ListBody<EndpointBody>).url).toBe("/v1/webhook-endpoints")
      // The store signs with exactly that secret.
      expect(
        await run(Effect.flatMap(WebhookEndpointRepository, (r) => r.secret(TEST, created.id)))
      ).toBe(created.secret)
    })

    it("a retried create or roll replays its secret, which the idempotency record keeps sealed", async () => {
      // The stored response held the signing secret in plain text for 24 h.
      const keyed = (path: string, key: string, body?: unknown) =>
        call(server.url, "POST", path, {
          headers: { "idempotency-key": `${kind.name}-${key}` },
          ...(body === undefined ? {} : { body })
        })
      const first = await keyed("/v1/webhook-endpoints", "create", {
        url: HOOK,
        enabledEvents: ["*"]
      })
      const id = (first.body as EndpointBody).id
      const rolled = await keyed(`/v1/webhook-endpoints/${id}/roll-secret`, "roll")
      for (const [path, key, body, reply] of [
        ["/v1/webhook-endpoints", "create", { url: HOOK, enabledEvents: ["*"] }, first],
        [`/v1/webhook-endpoints/${id}/roll-secret`, "roll", undefined, rolled]
      ] as const) {
        expect(reply.status, reply.text).toBe(200)
        const secret = (reply.body as EndpointBody).secret ?? ""
        expect(secret).toMatch(/^whsec_dev_/)
        const again = await keyed(path, key, body)
        expect(again.headers.get("idempotent-replayed")).toBe("true")
        expect((again.body as EndpointBody).secret).toBe(secret)
        if (Option.isSome(store.sql)) {
          const rows = await store.runtime.runPromise(
            store.sql.value.unsafe(
              "SELECT response_body::text AS body FROM idempotency_records WHERE key = $1",
              [`${kind.name}-${key}`]
            )
          )
          expect(rows).toHaveLength(1)
          expect(String(rows[0]?.body)).not.toContain(secret)
          expect(String(rows[0]?.body)).not.toContain("whsec_")
          expect(String(rows[0]?.body)).toContain("$sealed")
        }
      }
    })

    it("live mode: a whsec_prod_ secret, and a separate list", async () => {
      const live = await create({ url: LIVE_HOOK, enabledEvents: ["*"] }, LIVE_SECRET)
      expect(live).toMatchObject({ livemode: true, description: null, enabledEvents: ["*"] })
      expect(live.secret).toMatch(/^whsec_prod_[0-9a-f]{48}$/)
      const liveList = (await request("GET", "/v1/webhook-endpoints", undefined, LIVE_SECRET))
        .body as ListBody<EndpointBody>
      expect(liveList.data.map((e) => e.id)).toEqual([live.id])
      const testList = (await request("GET", "/v1/webhook-endpoints?limit=100"))
        .body as ListBody<EndpointBody>
      expect(testList.data.map((e) => e.id)).not.toContain(live.id)
      expect(testList.data.every((e) => !e.livemode)).toBe(true)
      expect((await request("GET", `/v1/webhook-endpoints/${live.id}`)).status).toBe(404)
    })

    it("refuses URLs each mode may not use, with 400 url_invalid on url", async () => {
      const refusals: ReadonlyArray<readonly [string, string]> = [
        ["https://127.0.0.1/hook", LIVE_SECRET],
        ["https://localhost/hook", LIVE_SECRET],
        ["https://10.0.0.1/hook", LIVE_SECRET],
        ["https://169.254.169.254/latest", LIVE_SECRET],
        ["https://[::ffff:127.0.0.1]/hook", LIVE_SECRET],
        ["http://93.184.216.34/hook", LIVE_SECRET],
        ["http://192.168.1.20/hook", SECRET],
        ["http://169.254.169.254/latest", SECRET],
        ["http://[fe80::1]/hook", SECRET],
        // The second security review: item 10's addresses passed in live mode, and item 8's
        // URL was accepted though the sender could never use it.
        ["https://[::7f00:1]/hook", LIVE_SECRET],
        ["https://[::ffff:0:7f00:1]/hook", LIVE_SECRET],
        ["https://[fec0::1]/hook", LIVE_SECRET],
        ["https://[100::1]/hook", LIVE_SECRET],
        ["https://[2001::5efe:7f00:1]/hook", LIVE_SECRET],
        ["http://%zz@127.0.0.1:4242/x", SECRET],
        ["http://127.0.0.1:0/x", SECRET]
      ]
      for (const [url, key] of refusals) {
        const reply = await request(
          "POST",
          "/v1/webhook-endpoints",
          { url, enabledEvents: ["*"] },
          key
        )
        expect(reply.status, url).toBe(400)
        expect(reply.body, url).toMatchObject({
          error: { type: "invalid_request_error", code: "url_invalid", param: "url" }
        })
      }
      const unresolvable = await request("POST", "/v1/webhook-endpoints", {
        url: "http://no-such-host.invalid/hook",
        enabledEvents: ["*"]
      })
      expect(unresolvable.status).toBe(400)
      expect(unresolvable.body).toMatchObject({ error: { param: "url" } })
      for (const body of [
        { url: "ftp://example.com/x", enabledEvents: ["*"] },
        { url: HOOK, enabledEvents: [] },
        { url: HOOK, enabledEvents: ["charge.exploded"] },
        { url: HOOK, enabledEvents: ["*"], surprise: true },
        { enabledEvents: ["*"] }
      ]) {
        const reply = await request("POST", "/v1/webhook-endpoints", body)
        expect(reply.status, JSON.stringify(body)).toBe(400)
      }
      // Test mode takes plain http and loopback.
      await create({ url: "http://127.0.0.1:9000/x", enabledEvents: ["*"] })
      await create({ url: "http://[::1]:9000/x", enabledEvents: ["*"] })
    })

    it("at most 16 endpoints per account and mode: the 17th is a 400 saying how to make room", async () => {
      // The second security review, item 6: 60 endpoints in one mode made each charge 60 POSTs.
      const list = await request("GET", "/v1/webhook-endpoints?limit=100", undefined, OTHER_SECRET)
      const existing = (list.body as ListBody<EndpointBody>).data.length
      const made: Array<string> = []
      for (let i = existing; i < 16; i++) {
        made.push((await create({ url: HOOK, enabledEvents: ["*"] }, OTHER_SECRET)).id)
      }
      // A disabled endpoint counts: it can be enabled again at any time.
      await request(
        "POST",
        `/v1/webhook-endpoints/${made[0]}`,
        { status: "disabled" },
        OTHER_SECRET
      )
      const refused = await request(
        "POST",
        "/v1/webhook-endpoints",
        { url: HOOK, enabledEvents: ["*"] },
        OTHER_SECRET
      )
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({
        error: {
          type: "invalid_request_error",
          code: "webhook_endpoint_limit_reached",
          message: expect.stringContaining("Delete one")
        }
      })
      expect((refused.body as { error: { message: string } }).error.message).toContain(
        "16 webhook endpoints in test mode"
      )
      const after = await request("GET", "/v1/webhook-endpoints?limit=100", undefined, OTHER_SECRET)
      expect((after.body as ListBody<EndpointBody>).data).toHaveLength(16)
      // Deleting one makes room for one.
      await request("DELETE", `/v1/webhook-endpoints/${made[0]}`, undefined, OTHER_SECRET)
      made[0] = (await create({ url: HOOK, enabledEvents: ["*"] }, OTHER_SECRET)).id
      for (const id of made) {
        await request("DELETE", `/v1/webhook-endpoints/${id}`, undefined, OTHER_SECRET)
      }
    })

    it("rolls the secret: the new one is shown once and both sign for now", async () => {
      const created = await create({ url: HOOK, enabledEvents: ["*"] })
      const rolled = await request("POST", `/v1/webhook-endpoints/${created.id}/roll-secret`)
      expect(rolled.status).toBe(200)
      const body = rolled.body as EndpointBody
      expect(body.secret).toMatch(/^whsec_dev_/)
      expect(body.secret).not.toBe(created.secret)
      expect(body.id).toBe(created.id)
      const secrets = await run(
        Effect.flatMap(WebhookEndpointRepository, (r) => r.secrets(TEST, created.id, Date.now()))
      )
      expect(secrets).toEqual([body.secret, created.secret])
      // The replaced secret expires 24 hours after the roll.
      const tomorrow = await run(
        Effect.flatMap(WebhookEndpointRepository, (r) =>
          r.secrets(TEST, created.id, Date.now() + 24 * 60 * 60 * 1000 + 1000)
        )
      )
      expect(tomorrow).toEqual([body.secret])
      expect((await request("GET", `/v1/webhook-endpoints/${created.id}`)).text).not.toContain(
        "whsec_"
      )
      expect((await request("POST", "/v1/webhook-endpoints/we_nosuch/roll-secret")).status).toBe(
        404
      )
    })

    it("updates the url, events, status and description; checks a new url", async () => {
      const created = await create({ url: HOOK, enabledEvents: ["*"], description: "first" })
      const path = `/v1/webhook-endpoints/${created.id}`
      const updated = await request("POST", path, {
        url: "http://localhost:5000/other",
        enabledEvents: ["dispute.created"],
        description: null
      })
      expect(updated.status).toBe(200)
      expect(updated.body).toMatchObject({
        id: created.id,
        url: "http://localhost:5000/other",
        enabledEvents: ["dispute.created"],
        description: null,
        status: "enabled"
      })
      expect(updated.text).not.toContain("whsec_")
      const disabled = await request("POST", path, { status: "disabled" })
      expect(disabled.body).toMatchObject({
        status: "disabled",
        url: "http://localhost:5000/other"
      })
      const subscribed = await run(
        Effect.flatMap(WebhookEndpointRepository, (r) => r.subscribedTo(TEST, "dispute.created"))
      )
      expect(subscribed.map((e) => e.id)).not.toContain(created.id)
      for (const url of ["http://10.1.1.1/x", "http://%zz@localhost:5000/x"]) {
        const badUrl = await request("POST", path, { url })
        expect(badUrl.status, url).toBe(400)
        expect(badUrl.body).toMatchObject({ error: { code: "url_invalid", param: "url" } })
      }
      expect((await request("GET", path)).body).toMatchObject({
        url: "http://localhost:5000/other"
      })
      expect((await request("POST", path, { status: "paused" })).status).toBe(400)
      expect(
        (await request("POST", "/v1/webhook-endpoints/we_nosuch", { status: "enabled" })).status
      ).toBe(404)
    })

    it("deletes an endpoint: the deleted shape, then 404", async () => {
      const created = await create({ url: HOOK, enabledEvents: ["*"] })
      const path = `/v1/webhook-endpoints/${created.id}`
      const deleted = await request("DELETE", path)
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({ id: created.id, object: "webhook_endpoint", deleted: true })
      expect((await request("GET", path)).status).toBe(404)
      expect((await request("DELETE", path)).status).toBe(404)
      expect((await request("POST", `${path}/roll-secret`)).status).toBe(404)
    })

    it("another account or mode sees none of it; a publishable key is refused", async () => {
      const created = await create({ url: HOOK, enabledEvents: ["*"] })
      const path = `/v1/webhook-endpoints/${created.id}`
      expect((await request("GET", path, undefined, OTHER_SECRET)).status).toBe(404)
      expect((await request("GET", path, undefined, LIVE_SECRET)).status).toBe(404)
      expect((await request("DELETE", path, undefined, OTHER_SECRET)).status).toBe(404)
      expect((await request("POST", path, { status: "disabled" }, LIVE_SECRET)).status).toBe(404)
      expect(
        (
          (await request("GET", "/v1/webhook-endpoints", undefined, OTHER_SECRET))
            .body as ListBody<unknown>
        ).data
      ).toEqual([])
      expect((await request("GET", path)).body).toMatchObject({ status: "enabled" })
      for (const [method, p] of [
        ["GET", "/v1/webhook-endpoints"],
        ["POST", "/v1/webhook-endpoints"],
        ["GET", path],
        ["DELETE", path],
        ["POST", `${path}/roll-secret`],
        ["GET", `${path}/deliveries`]
      ] as const) {
        const reply = await request(
          method,
          p,
          method === "POST" ? { url: HOOK, enabledEvents: ["*"] } : undefined,
          PUBLISHABLE
        )
        expect(reply.status, `${method} ${p}`).toBe(403)
      }
    })

    it("lists endpoints newest first with cursor paging", async () => {
      const made: Array<string> = []
      for (let i = 0; i < 3; i++) made.push((await create({ url: HOOK, enabledEvents: ["*"] })).id)
      const seen: Array<string> = []
      let cursor: string | undefined
      for (let round = 0; round < 50; round++) {
        const page = (
          await request(
            "GET",
            `/v1/webhook-endpoints?limit=2${cursor ? `&starting_after=${cursor}` : ""}`
          )
        ).body as ListBody<EndpointBody>
        expect(page.data.length).toBeLessThanOrEqual(2)
        seen.push(...page.data.map((e) => e.id))
        if (!page.has_more) break
        cursor = page.data[page.data.length - 1]!.id
      }
      // Every endpoint once; the three just made are the newest, newest first.
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen.slice(0, 3)).toEqual([...made].reverse())
      expect((await request("GET", "/v1/webhook-endpoints?starting_after=we_nosuch")).status).toBe(
        400
      )
    })

    it("lists an endpoint's deliveries newest first with status, attempts and next retry", async () => {
      const endpoint = await create({ url: HOOK, enabledEvents: ["*"] })
      const config = (await request("GET", "/v1/fee-configs")).body as Record<string, unknown>
      const now = Math.floor(Date.now() / 1000)
      const eventIds = [`evt_${kind.name}deliv1`, `evt_${kind.name}deliv2`]
      await store.runtime.runPromise(
        Effect.gen(function* () {
          const events = yield* EventRepository
          const deliveries = yield* WebhookDeliveryRepository
          for (const [i, id] of eventIds.entries()) {
            yield* events.insert({
              id,
              accountId: "acct_1",
              livemode: false,
              type: "fee_config.updated",
              data: { object: config as never },
              request: null,
              created: now + i
            })
          }
          yield* deliveries.enqueue(TEST, eventIds[0]!, [endpoint.id])
          // One failed attempt on the first delivery, retried in an hour.
          const claimed = yield* deliveries.claim({ owner: "test", limit: 100, leaseMs: 60_000 })
          const first = claimed.find((d) => d.eventId === eventIds[0])!
          yield* deliveries.recordAttempt(TEST, first.id, "test", {
            statusCode: 500,
            error: null,
            durationMs: 42,
            next: { retryAtMs: 1_900_000_000_000 }
          })
        })
      )
      // The second through the API.
      expect((await request("POST", `/v1/events/${eventIds[1]}/resend`)).status).toBe(200)

      const reply = await request("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries`)
      expect(reply.status).toBe(200)
      const body = reply.body as ListBody<Record<string, unknown>>
      expect(body.url).toBe(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)
      expect(body.data.map((d) => d.event)).toEqual([...eventIds].reverse())
      expect(body.data[1]).toMatchObject({
        object: "webhook_delivery",
        webhookEndpoint: endpoint.id,
        eventType: "fee_config.updated",
        status: "pending",
        nextAttemptAt: 1_900_000_000,
        attempts: [{ responseStatus: 500, error: null, durationMs: 42 }]
      })
      expect(body.data[0]).toMatchObject({ status: "pending", attempts: [] })
      const paged = (
        await request("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=1`)
      ).body as ListBody<Record<string, unknown>>
      expect(paged).toMatchObject({ has_more: true })
      expect(paged.data).toHaveLength(1)
      expect((await request("GET", "/v1/webhook-endpoints/we_nosuch/deliveries")).status).toBe(404)
      expect(
        (
          await request(
            "GET",
            `/v1/webhook-endpoints/${endpoint.id}/deliveries`,
            undefined,
            OTHER_SECRET
          )
        ).status
      ).toBe(404)
    })

    // Only PostgreSQL stores rows one can read raw.
    const onPostgres = kind.name === "postgres" ? it : () => undefined
    onPostgres("the stored row holds no secret in plain text", async () => {
      const created = await create({ url: HOOK, enabledEvents: ["*"] })
      const rolled = (await request("POST", `/v1/webhook-endpoints/${created.id}/roll-secret`))
        .body as EndpointBody
      const sql = Option.getOrThrow(store.sql)
      const rows = await store.runtime.runPromise(
        sql.unsafe("SELECT * FROM webhook_endpoints WHERE id = $1", [created.id])
      )
      expect(rows).toHaveLength(1)
      const raw = JSON.stringify(rows)
      const hex = (s: string) => s.slice(s.lastIndexOf("_") + 1)
      for (const secret of [created.secret!, rolled.secret!]) {
        expect(raw).not.toContain(secret)
        expect(raw).not.toContain(hex(secret))
      }
      expect(rows[0]!.secret_ciphertext).toMatch(/^v1\./)
      expect(rows[0]!.previous_secret_ciphertext).toMatch(/^v1\./)
    })
  })
}

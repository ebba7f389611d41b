/**
 * `POST /v1/charges/{id}` over real HTTP, on the memory store and on PostgreSQL (docs/design.md
 * §4): Stripe's semantics (a field left out stays; metadata keys merged, a key set to "" removed;
 * description "" or null removed), the metadata rules on the merged result, idempotency, no
 * event, a pending charge refused, nothing across accounts or modes, and concurrent updates
 * each keeping their keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Metadata } from "@levy/api"
import { ChargeRepository, EventRepository, Ids, Tenant } from "@levy/storage"
import { Effect } from "effect"
import { seedCharge } from "./chargeStores.js"
import {
  call,
  KEYS,
  LIVE_SECRET,
  PUBLISHABLE,
  type Reply,
  STORES,
  startWithStore
} from "./support.js"

const OTHER_SECRET = "sk_dev_service_otheraccount5"
const TEST = Tenant.make("acct_1", false)

interface WireCharge {
  readonly id: string
  readonly description?: string
  readonly metadata: Record<string, string>
  readonly [field: string]: unknown
}
const errorOf = (reply: Reply) => (reply.body as { error: Record<string, unknown> }).error

describe.each(STORES)("charge updates on the %s store", (_name, makeStore) => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  beforeAll(async () => {
    server = await startWithStore(makeStore(), {
      keys: [...KEYS, { secret: OTHER_SECRET, accountId: "acct_2", keyId: "key_other" }],
      edge: { test: 10_000, live: 10_000 }
    })
  }, 60_000)
  afterAll(() => server.close())

  const seed = (fields: Parameters<typeof seedCharge>[2] = {}) =>
    server.store.runPromise(
      Effect.gen(function* () {
        const id = yield* Effect.flatMap(Ids, (ids) => ids.make("ch"))
        yield* Effect.flatMap(ChargeRepository, (charges) =>
          charges.insert(seedCharge(TEST, id, fields))
        )
        return id
      }).pipe(Effect.orDie)
    )
  const update = (
    id: string,
    body: unknown,
    init: { key?: string; idempotencyKey?: string } = {}
  ) =>
    call(server.url, "POST", `/v1/charges/${id}`, {
      body,
      ...(init.key === undefined ? {} : { key: init.key }),
      ...(init.idempotencyKey === undefined
        ? {}
        : { headers: { "idempotency-key": init.idempotencyKey } })
    })
  const retrieve = async (id: string) =>
    (await call(server.url, "GET", `/v1/charges/${id}`)).body as WireCharge
  const eventCount = () =>
    server.store.runPromise(
      Effect.flatMap(EventRepository, (repo) =>
        Effect.map(repo.list(TEST, { limit: 100 }), (page) => page.data.length)
      ).pipe(Effect.orDie)
    )

  it('sets the description, merges metadata keys and removes those set to ""; no event', async () => {
    const id = await seed({ metadata: { order: "42", gift: "yes" } })
    const before = await retrieve(id)
    const events = await eventCount()
    const reply = await update(id, {
      description: "Order 42, shipped",
      metadata: { shipping: "express", gift: "" }
    })
    expect(reply.status, reply.text).toBe(200)
    const after = reply.body as WireCharge
    expect(after.description).toBe("Order 42, shipped")
    expect(after.metadata).toStrictEqual({ order: "42", shipping: "express" })
    // Nothing else about the charge moved, and the change is stored.
    expect({ ...after, description: undefined, metadata: undefined }).toStrictEqual({
      ...before,
      description: undefined,
      metadata: undefined
    })
    expect(await retrieve(id)).toStrictEqual(after)
    // A field left out stays as it is; "" and null remove the description.
    const kept = (await update(id, { metadata: { order: "43" } })).body as WireCharge
    expect(kept).toMatchObject({ description: "Order 42, shipped", metadata: { order: "43" } })
    for (const cleared of ["", null]) {
      await update(id, { description: "again" })
      const none = (await update(id, { description: cleared })).body as WireCharge
      expect("description" in none).toBe(false)
    }
    expect(await eventCount()).toBe(events)
  })

  it("the merged metadata keeps the limits: one key past the most is a 400 naming metadata, nothing changed", async () => {
    const full = Object.fromEntries(
      Array.from({ length: Metadata.MAX_KEYS }, (_, i) => [`k${i}`, "v"])
    )
    const id = await seed({ metadata: full })
    const over = await update(id, { metadata: { one_more: "v" } })
    expect(over.status).toBe(400)
    expect(errorOf(over)).toMatchObject({ type: "invalid_request_error", param: "metadata" })
    expect((await retrieve(id)).metadata).toStrictEqual(full)
    // Removing one first makes room, in the same request.
    const swapped = await update(id, { metadata: { k0: "", one_more: "v" } })
    expect(swapped.status).toBe(200)
    expect(Object.keys((swapped.body as WireCharge).metadata)).toHaveLength(Metadata.MAX_KEYS)
  })

  it("bad bodies are 400s naming the field, and change nothing", async () => {
    const id = await seed()
    const before = await retrieve(id)
    for (const [body, param] of [
      [{ amount: 5 }, "amount"],
      [{ description: "x".repeat(1001) }, "description"],
      [{ metadata: { order: 42 } }, "metadata[order]"],
      [{ metadata: "x" }, "metadata"]
    ] as const) {
      const reply = await update(id, body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(errorOf(reply).param).toBe(param)
    }
    expect(await retrieve(id)).toStrictEqual(before)
  })

  it("is idempotent: a retry replays, another body under the key is refused", async () => {
    const id = await seed()
    const key = `update-${Math.random()}`
    const first = await update(id, { metadata: { note: "a" } }, { idempotencyKey: key })
    expect(first.status).toBe(200)
    // Changed meanwhile by another request: the retry still answers what the first did.
    await update(id, { metadata: { note: "b" } })
    const again = await update(id, { metadata: { note: "a" } }, { idempotencyKey: key })
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toStrictEqual(first.body)
    expect((await retrieve(id)).metadata.note).toBe("b")
    const other = await update(id, { metadata: { note: "c" } }, { idempotencyKey: key })
    expect(other.status).toBe(400)
    expect(errorOf(other).code).toBe("idempotency_key_reused")
  })

  it("a pending charge cannot be updated; failed ones can", async () => {
    const pending = await seed({ status: "pending" })
    const refused = await update(pending, { description: "x" })
    expect(refused.status).toBe(400)
    expect(errorOf(refused).code).toBe("charge_pending")
    expect("description" in (await retrieve(pending))).toBe(false)
    const failed = await seed({ status: "failed" })
    expect((await update(failed, { description: "declined at checkout" })).status).toBe(200)
  })

  it("another account's or mode's charge is a 404 naming id; a publishable key is refused", async () => {
    const id = await seed()
    const live = await update(id, { description: "x" }, { key: LIVE_SECRET })
    expect(live.status).toBe(404)
    expect(errorOf(live)).toMatchObject({ param: "id" })
    expect(String(errorOf(live).message)).toMatch(/test mode/)
    const other = await update(id, { description: "x" }, { key: OTHER_SECRET })
    expect(other.status).toBe(404)
    expect((await update("ch_nosuchcharge", {})).status).toBe(404)
    expect((await update(id, { description: "x" }, { key: PUBLISHABLE })).status).toBe(403)
    expect("description" in (await retrieve(id))).toBe(false)
  })

  it("as many concurrent updates as metadata keys, each setting its own key, all keep their key", async () => {
    const id = await seed({ metadata: {} })
    const replies = await Promise.all(
      Array.from({ length: Metadata.MAX_KEYS }, (_, i) =>
        update(id, { metadata: { [`k${i}`]: String(i) } })
      )
    )
    // Each succeeds, or is told to retry (503) when others kept coming first.
    const statuses = replies.map((r) => r.status)
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true)
    const retried = await Promise.all(
      replies.map((r, i) =>
        r.status === 200 ? r : update(id, { metadata: { [`k${i}`]: String(i) } })
      )
    )
    expect(retried.map((r) => r.status)).toStrictEqual(Array(Metadata.MAX_KEYS).fill(200))
    const metadata = (await retrieve(id)).metadata
    expect(metadata).toStrictEqual(
      Object.fromEntries(Array.from({ length: Metadata.MAX_KEYS }, (_, i) => [`k${i}`, String(i)]))
    )
  })
})

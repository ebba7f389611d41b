/**
 * One live key must not be able to redirect the live money (docs/design.md §4; the second
 * security review, docs/reliability.md "Security"): with one live secret key, replacing the
 * live processor with another Stripe account's credentials, or deleting it, is held until
 * another secret key approves it — the configuration in force and the account the charges go
 * to stay as they were — and every change records an event. Against the local fake Stripe,
 * which takes two accounts' keys and records which one each payment was made with, on the
 * memory and PostgreSQL stores.
 */

import { deleteProcessorConfig } from "@levy/engine/processorConfigs/deleteProcessorConfig.js"
import { saveProcessorConfig } from "@levy/engine/processorConfigs/saveProcessorConfig.js"
import { ProcessorApiBaseUrls } from "@levy/engine/processors/ApiBaseUrls.js"
import {
  IdempotencyRepository,
  type Ids,
  ProcessorConfigRepository,
  type Storage,
  Tenant
} from "@levy/storage"
import { Effect } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"
import {
  call,
  KEYS_WITH_APPROVER,
  LIVE_APPROVER,
  LIVE_SECRET,
  SECRET,
  STORES,
  startWithStore
} from "./support.js"

/** The merchant's own Stripe account, in force before the attack. */
const MERCHANT = "sk_live_merchantAccount0000000004242"
/** Another Stripe account: where the attacker wants the money to go. */
const ATTACKER = "sk_live_attackerAccount0000000009999"
const TEST_KEY = "sk_test_merchantAccount0000000001111"
const PATH = "/v1/processor-config"
const LIVE = Tenant.make("acct_1", true)

interface Change {
  readonly id: string
  readonly action: "save" | "delete"
  readonly status: string
  readonly stale: boolean
  readonly credentials?: Record<string, string>
}
interface Config {
  readonly processor: string
  readonly credentials: Record<string, string>
  readonly applied?: boolean
  readonly pendingChange?: Change
}
interface Listed<A> {
  readonly data: ReadonlyArray<A>
}
interface EventBody {
  readonly id: string
  readonly type: string
  readonly data: { readonly object: Record<string, unknown> }
}

describe.each(STORES)("one live key cannot redirect the live money (%s store)", (_name, store) => {
  let stripe: FakeStripe
  let server: Awaited<ReturnType<typeof startWithStore>>

  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: MERCHANT, otherSecretKeys: [ATTACKER, TEST_KEY] })
    server = await startWithStore(store(), {
      keys: KEYS_WITH_APPROVER,
      processorApiBaseUrls: { stripe: stripe.url }
    })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await stripe?.close()
  })

  /** The owner on the store, as `levy processors set|delete --live` runs it: at once. */
  const owner = <A, E>(effect: Effect.Effect<A, E, Storage.Repositories | Ids>) =>
    server.store.runPromise(
      Effect.provideService(effect, ProcessorApiBaseUrls, { stripe: stripe.url })
    )
  const OWNER = { by: "cli", owner: true } as const
  const ownerSaves = (secretKey: string) =>
    owner(saveProcessorConfig(LIVE, { processor: "stripe", credentials: { secretKey } }, OWNER))

  const as =
    (key: string) =>
    (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      call(server.url, method, path, {
        key,
        ...(body === undefined ? {} : { body }),
        ...(headers === undefined ? {} : { headers })
      })
  /** The one live key the attacker holds. */
  const attacker = as(LIVE_SECRET)
  /** Another live secret key of the account: the second person. */
  const approver = as(LIVE_APPROVER)

  const inForce = async () => (await attacker("GET", PATH)).body as Config
  /** A live charge; the account at the fake Stripe it was paid into. */
  const chargedTo = async () => {
    const created = await attacker("POST", "/v1/charges", {
      amount: 10_000,
      currency: "usd",
      source: "pm_card_visa"
    })
    expect(created.status, created.text).toBe(200)
    const id = (created.body as { id: string }).id
    return stripe.payments().find((p) => p.metadata.levy_charge === id)?.secretKey
  }
  const events = async (type: string) =>
    ((await attacker("GET", `/v1/events?type=${type}&limit=100`)).body as Listed<EventBody>).data

  // Each case starts from the merchant's own account in force and nothing held.
  beforeEach(async () => {
    await approver("POST", `${PATH}/pending/cancel`)
    await ownerSaves(MERCHANT)
  })

  it("replacing it is held: the configuration in force and the charges' account stay; a second key's approval applies it", async () => {
    const before = await inForce()
    expect(before.credentials).toEqual({ secretKey: "sk_live_…4242" })
    const requestedBefore = (await events("processor_config.change_requested")).length

    const held = await attacker(
      "POST",
      PATH,
      { processor: "stripe", credentials: { secretKey: ATTACKER } },
      { "idempotency-key": `redirect-${_name}` }
    )
    expect(held.status, held.text).toBe(200)
    expect(held.body).toMatchObject({
      object: "processor_config",
      processor: "stripe",
      livemode: true,
      credentials: { secretKey: "sk_live_…9999" },
      applied: false,
      pendingChange: {
        object: "processor_config_change",
        action: "save",
        processor: "stripe",
        credentials: { secretKey: "sk_live_…9999" },
        status: "pending",
        stale: false
      }
    })
    expect(held.text).not.toContain(ATTACKER)
    const change = (held.body as Config).pendingChange!
    // The same request again replays the held answer; nothing else is held.
    const replay = await attacker(
      "POST",
      PATH,
      { processor: "stripe", credentials: { secretKey: ATTACKER } },
      { "idempotency-key": `redirect-${_name}` }
    )
    expect(replay.body).toStrictEqual(held.body)

    // Nothing moved: the configuration in force, and where a charge's money goes.
    const shown = await inForce()
    expect(shown.credentials).toEqual(before.credentials)
    expect(shown.pendingChange).toMatchObject({ id: change.id, status: "pending" })
    expect(await chargedTo()).toBe(MERCHANT)

    // The attacker cannot approve their own request, nor can an approval name another change.
    const self = await attacker("POST", `${PATH}/pending/approve`, { id: change.id })
    expect(self.status).toBe(403)
    expect(self.body).toMatchObject({ error: { code: "approval_requires_another_key" } })
    const other = await approver("POST", `${PATH}/pending/approve`, { id: "pcc_notTheOne" })
    expect(other.status).toBe(404)
    expect((await inForce()).credentials).toEqual(before.credentials)
    expect(await chargedTo()).toBe(MERCHANT)

    // The merchant's webhooks hear that someone asked to move the money.
    const requested = await events("processor_config.change_requested")
    expect(requested.length).toBe(requestedBefore + 1)
    expect(requested[0]!.data.object).toMatchObject({ id: change.id, action: "save" })

    // A second key approves: applied, its event written, the money goes to the new account.
    const updatedBefore = (await events("processor_config.updated")).length
    const approved = await approver("POST", `${PATH}/pending/approve`, { id: change.id })
    expect(approved.status, approved.text).toBe(200)
    expect(approved.body).toMatchObject({ id: change.id, status: "applied", stale: false })
    const after = await inForce()
    expect(after.credentials).toEqual({ secretKey: "sk_live_…9999" })
    expect(after.pendingChange).toBeUndefined()
    expect(await chargedTo()).toBe(ATTACKER)
    const updated = await events("processor_config.updated")
    expect(updated.length).toBe(updatedBefore + 1)
    expect(updated[0]!.data.object).toMatchObject({ credentials: { secretKey: "sk_live_…9999" } })

    // No credential in plain text in any event or stored answer.
    const all = JSON.stringify((await attacker("GET", "/v1/events?limit=100")).body)
    expect(all).not.toContain(ATTACKER)
    const stored = await server.store.runPromise(
      Effect.flatMap(IdempotencyRepository, (repo) => repo.get(LIVE, `redirect-${_name}`))
    )
    expect(JSON.stringify(stored)).not.toContain(ATTACKER)
  })

  it("deleting it is held: charges still go through; a second key's approval removes it", async () => {
    const held = await attacker("DELETE", PATH)
    expect(held.status, held.text).toBe(200)
    expect(held.body).toMatchObject({
      object: "processor_config",
      processor: "stripe",
      livemode: true,
      deleted: false,
      pendingChange: { action: "delete", processor: "stripe", status: "pending", stale: false }
    })
    const change = (held.body as { pendingChange: Change }).pendingChange
    expect(change.credentials).toBeUndefined()
    expect((await inForce()).credentials).toEqual({ secretKey: "sk_live_…4242" })
    expect(await chargedTo()).toBe(MERCHANT)
    expect((await attacker("POST", `${PATH}/pending/approve`, { id: change.id })).status).toBe(403)
    expect(await chargedTo()).toBe(MERCHANT)
    const [requested] = await events("processor_config.change_requested")
    expect(requested!.data.object).toMatchObject({ id: change.id, action: "delete" })

    const deletedBefore = (await events("processor_config.deleted")).length
    const approved = await approver("POST", `${PATH}/pending/approve`, { id: change.id })
    expect(approved.body).toMatchObject({ id: change.id, action: "delete", status: "applied" })
    expect((await attacker("GET", PATH)).status).toBe(404)
    const refused = await attacker("POST", "/v1/charges", {
      amount: 10_000,
      currency: "usd",
      source: "pm_card_visa"
    })
    expect(refused.body).toMatchObject({ error: { code: "processor_not_configured" } })
    const deleted = await events("processor_config.deleted")
    expect(deleted.length).toBe(deletedBefore + 1)
    expect(deleted[0]!.data.object).toStrictEqual({
      object: "processor_config",
      processor: "stripe",
      livemode: true,
      deleted: true
    })
  })

  it("a held change the owner's change made stale is refused (409), applies nothing, and can be cancelled; one at a time", async () => {
    const held = await attacker("POST", PATH, {
      processor: "stripe",
      credentials: { secretKey: ATTACKER }
    })
    const change = (held.body as Config).pendingChange!
    const second = await attacker("DELETE", PATH)
    expect(second.status).toBe(400)
    expect(second.body).toMatchObject({ error: { code: "processor_config_change_pending" } })

    // The owner saves the configuration again (a new revision): what was requested against
    // the old one is stale.
    await ownerSaves(MERCHANT)
    expect((await inForce()).pendingChange).toMatchObject({ id: change.id, stale: true })
    const stale = await approver("POST", `${PATH}/pending/approve`, { id: change.id })
    expect(stale.status).toBe(409)
    expect(stale.body).toMatchObject({
      error: { code: "processor_config_change_stale", param: "id" }
    })
    expect((await inForce()).credentials).toEqual({ secretKey: "sk_live_…4242" })
    expect(await chargedTo()).toBe(MERCHANT)

    const cancelled = await attacker("POST", `${PATH}/pending/cancel`)
    expect(cancelled.body).toMatchObject({ id: change.id, status: "cancelled", stale: true })
    const [event] = await events("processor_config.change_cancelled")
    expect(event!.data.object).toMatchObject({ id: change.id, status: "cancelled" })
    expect((await inForce()).pendingChange).toBeUndefined()
    expect((await attacker("GET", `${PATH}/pending`)).status).toBe(404)
    expect((await attacker("POST", `${PATH}/pending/cancel`)).status).toBe(404)
  })

  it("the first live configuration is held too; until approved, GET explains it and charges are refused", async () => {
    await owner(deleteProcessorConfig(LIVE, OWNER))
    const held = await attacker("POST", PATH, {
      processor: "stripe",
      credentials: { secretKey: ATTACKER }
    })
    const change = (held.body as Config).pendingChange!
    expect(change).toMatchObject({ action: "save", stale: false })
    const none = await attacker("GET", PATH)
    expect(none.status).toBe(404)
    expect(none.body).toMatchObject({ error: { code: "processor_not_configured" } })
    const message = (none.body as { error: { message: string } }).error.message
    expect(message).toContain(change.id)
    expect(message).toContain("/v1/processor-config/pending/approve")
    const pending = await approver("GET", `${PATH}/pending`)
    expect(pending.body).toMatchObject({
      id: change.id,
      credentials: { secretKey: "sk_live_…9999" },
      status: "pending"
    })
    expect(pending.text).not.toContain(ATTACKER)
    const refused = await attacker("POST", "/v1/charges", {
      amount: 10_000,
      currency: "usd",
      source: "pm_card_visa"
    })
    expect(refused.body).toMatchObject({ error: { code: "processor_not_configured" } })

    await approver("POST", `${PATH}/pending/approve`, { id: change.id })
    expect((await inForce()).credentials).toEqual({ secretKey: "sk_live_…9999" })
    // The held credentials were sealed while held, and are gone once applied.
    const held2 = await server.store.runPromise(
      Effect.flatMap(ProcessorConfigRepository, (repo) => repo.pending(LIVE))
    )
    expect(held2._tag).toBe("None")
  })

  it("test mode applies at once, answering as before, with its events", async () => {
    const test = as(SECRET)
    const saved = await test("POST", PATH, {
      processor: "stripe",
      credentials: { secretKey: TEST_KEY }
    })
    expect(saved.status, saved.text).toBe(200)
    expect(Object.keys(saved.body as object).sort()).toEqual([
      "created",
      "credentials",
      "livemode",
      "object",
      "processor",
      "surcharge",
      "updated",
      "webhookUrl"
    ])
    const [updated] = (
      (await test("GET", "/v1/events?type=processor_config.updated")).body as Listed<EventBody>
    ).data
    expect(updated!.data.object).toStrictEqual(saved.body)
    const removed = await test("DELETE", PATH)
    expect(removed.body).toStrictEqual({
      object: "processor_config",
      processor: "stripe",
      livemode: false,
      deleted: true
    })
    const [deleted] = (
      (await test("GET", "/v1/events?type=processor_config.deleted")).body as Listed<EventBody>
    ).data
    expect(deleted!.data.object).toStrictEqual(removed.body)
  })
})

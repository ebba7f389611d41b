/**
 * `levy.processorConfig` against the real server, whose Stripe API is the local fake: create
 * (masked), retrieve, del, and the typed errors of a refused key and of none configured; in
 * live mode the change held, read, refused to its requester, and approved by another key.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startFakeStripe } from "../../server/src/fakes/FakeStripe.js"
import { InvalidRequestError, Levy, NotFoundError, PermissionError } from "../src/index.js"
import {
  KEYS_WITH_APPROVER,
  LIVE_APPROVER,
  LIVE_SECRET,
  memoryStore,
  SECRET,
  startWithStore
} from "./support.js"

const LIVE_STRIPE_KEY = "sk_live_clientFake0123456789ab7777"

describe("levy.processorConfig", () => {
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>
  let server: Awaited<ReturnType<typeof startWithStore>>
  let levy: Levy
  beforeAll(async () => {
    stripe = await startFakeStripe({
      secretKey: "sk_test_clientFake0123456789ab4242",
      otherSecretKeys: [LIVE_STRIPE_KEY]
    })
    server = await startWithStore(memoryStore(), {
      keys: KEYS_WITH_APPROVER,
      processorApiBaseUrls: { stripe: stripe.url }
    })
    levy = new Levy(SECRET, { baseUrl: server.url })
  })
  afterAll(async () => {
    await server.close()
    await stripe.close()
  })

  it("retrieve before any is configured rejects with a NotFoundError", async () => {
    const error = await levy.processorConfig.retrieve().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ code: "processor_not_configured", statusCode: 404 })
  })

  it("a key Stripe refuses rejects with an InvalidRequestError", async () => {
    const error = await levy.processorConfig
      .create({
        processor: "stripe",
        credentials: { secretKey: "sk_test_refused0123456789", webhookSecret: "whsec_x" }
      })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error).toMatchObject({ code: "processor_credentials_refused", param: "credentials" })
  })

  it("create, retrieve and del", async () => {
    const created = await levy.processorConfig.create({
      processor: "stripe",
      credentials: { secretKey: stripe.secretKey, webhookSecret: "whsec_client0123456789abcdef" }
    })
    expect(created).toMatchObject({
      object: "processor_config",
      processor: "stripe",
      livemode: false,
      credentials: { secretKey: "sk_test_…4242", webhookSecret: "whsec_…cdef" },
      webhookUrl: "/v1/processor-webhooks/acct_1/test/stripe"
    })
    expect(await levy.processorConfig.retrieve()).toEqual(created)
    expect(await levy.processorConfig.del()).toEqual({
      object: "processor_config",
      processor: "stripe",
      livemode: false,
      deleted: true
    })
    await expect(levy.processorConfig.retrieve()).rejects.toBeInstanceOf(NotFoundError)
  })

  it("live mode: held, read, refused to its requester, approved by another key", async () => {
    const live = new Levy(LIVE_SECRET, { baseUrl: server.url })
    const held = await live.processorConfig.create({
      processor: "stripe",
      credentials: { secretKey: LIVE_STRIPE_KEY }
    })
    expect(held).toMatchObject({ applied: false, pendingChange: { status: "pending" } })
    const id = held.pendingChange?.id ?? ""
    expect(await live.processorConfig.retrievePending()).toMatchObject({
      id,
      credentials: { secretKey: "sk_live_…7777" }
    })
    await expect(live.processorConfig.approvePending(id)).rejects.toBeInstanceOf(PermissionError)
    const approved = await new Levy(LIVE_APPROVER, {
      baseUrl: server.url
    }).processorConfig.approvePending(id)
    expect(approved).toMatchObject({ id, status: "applied" })
    expect(await live.processorConfig.retrieve()).toMatchObject({
      credentials: { secretKey: "sk_live_…7777" }
    })
    const removal = await live.processorConfig.del()
    expect(removal).toMatchObject({ deleted: false, pendingChange: { action: "delete" } })
    expect(await live.processorConfig.cancelPending()).toMatchObject({ status: "cancelled" })
    await expect(live.processorConfig.retrievePending()).rejects.toBeInstanceOf(NotFoundError)
  })
})

/**
 * `levy.processorConfig` against the real server, whose Stripe API is the local fake: create
 * (masked), retrieve, del, and the typed errors of a refused key and of none configured.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startFakeStripe } from "../../server/test/fakes/FakeStripe.js"
import { InvalidRequestError, Levy, NotFoundError } from "../src/index.js"
import { memoryStore, SECRET, startWithStore } from "./support.js"

describe("levy.processorConfig", () => {
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>
  let server: Awaited<ReturnType<typeof startWithStore>>
  let levy: Levy
  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: "sk_test_clientFake0123456789ab4242" })
    server = await startWithStore(memoryStore(), { processorApiBaseUrls: { stripe: stripe.url } })
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
})

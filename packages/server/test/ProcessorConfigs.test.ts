/**
 * `/v1/processor-config` end to end, against the local fakes of Stripe and Adyen (the server's
 * API base URLs point at them): saved only when the processor accepts the credentials, shown
 * masked, never echoed, logged or stored in an idempotent response; refused and unreachable
 * processors, bad credential fields and a store that is down answer in the error shape.
 */
import { IdempotencyRepository, ProcessorConfigRepository, StorageError } from "@levy/storage"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeAdyen, startFakeAdyen } from "../src/fakes/FakeAdyen.js"
import { type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"
import {
  call,
  KEYS_WITH_APPROVER,
  LIVE_APPROVER,
  LIVE_SECRET,
  memoryStore,
  PUBLISHABLE,
  type Running,
  SECRET,
  start,
  startWithStore
} from "./support.js"

const PATH = "/v1/processor-config"
const WEBHOOK_SECRET = "whsec_0123456789abcdefghijklmnopqrstuv"

let stripe: FakeStripe
let adyen: FakeAdyen
let server: Awaited<ReturnType<typeof startWithStore>>

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: "sk_test_levyFake0123456789abcdef4242" })
  adyen = await startFakeAdyen()
  server = await startWithStore(memoryStore(), {
    keys: KEYS_WITH_APPROVER,
    processorApiBaseUrls: { stripe: stripe.url, adyen: adyen.url }
  })
})

afterAll(async () => {
  await server?.close()
  await stripe?.close()
  await adyen?.close()
})

const stripeBody = (secretKey = stripe.secretKey) => ({
  processor: "stripe",
  credentials: { secretKey, webhookSecret: WEBHOOK_SECRET }
})

describe("POST/GET/DELETE /v1/processor-config", () => {
  it("answers 404 saying how to configure one when none is", async () => {
    const reply = await call(server.url, "GET", PATH, { key: LIVE_SECRET })
    expect(reply.status).toBe(404)
    expect(reply.body).toMatchObject({
      error: { type: "invalid_request_error", code: "processor_not_configured" }
    })
    expect((reply.body as { error: { message: string } }).error.message).toContain(
      "POST /v1/processor-config"
    )
  })

  it("saves Stripe after the fake accepts the key, and shows it masked, never in full", async () => {
    const reply = await call(server.url, "POST", PATH, {
      body: stripeBody(),
      headers: { "idempotency-key": "connect-stripe-1" }
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      object: "processor_config",
      processor: "stripe",
      livemode: false,
      surcharge: false,
      credentials: { secretKey: "sk_test_…4242", webhookSecret: "whsec_…stuv" },
      webhookUrl: "/v1/processor-webhooks/acct_1/test/stripe"
    })
    expect(reply.text).not.toContain(stripe.secretKey)
    expect(reply.text).not.toContain(WEBHOOK_SECRET)
    // The stored idempotent response is the masked answer, and it replays as such.
    const record = await server.store.runPromise(
      Effect.flatMap(IdempotencyRepository, (repo) =>
        repo.get({ accountId: "acct_1", livemode: false }, "connect-stripe-1")
      )
    )
    expect(JSON.stringify(record)).not.toContain(stripe.secretKey)
    expect(JSON.stringify(record)).not.toContain(WEBHOOK_SECRET)
    const replay = await call(server.url, "POST", PATH, {
      body: stripeBody(),
      headers: { "idempotency-key": "connect-stripe-1" }
    })
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toStrictEqual(reply.body)

    const shown = await call(server.url, "GET", PATH)
    expect(shown.status).toBe(200)
    expect(shown.body).toStrictEqual(reply.body)
    // The store holds the credentials, opened only for the adapter.
    const stored = await server.store.runPromise(
      Effect.flatMap(ProcessorConfigRepository, (repo) =>
        repo.open({ accountId: "acct_1", livemode: false })
      )
    )
    expect(stored._tag === "Some" && stored.value.credentials.secretKey).toBe(stripe.secretKey)
    // Live mode has none of it.
    expect((await call(server.url, "GET", PATH, { key: LIVE_SECRET })).status).toBe(404)
  })

  it("a refused key is a 400 processor_credentials_refused with Stripe's reason; nothing is saved", async () => {
    const wrong = "sk_test_wrongKey0123456789abcdef9999"
    const reply = await call(server.url, "POST", PATH, {
      key: LIVE_SECRET,
      body: stripeBody(wrong)
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({
      error: { type: "invalid_request_error", code: "processor_credentials_refused" }
    })
    // Live mode with a test key: refused before any call.
    expect((reply.body as { error: { message: string } }).error.message).toContain("live key")
    expect(reply.text).not.toContain(wrong)
    expect((await call(server.url, "GET", PATH, { key: LIVE_SECRET })).status).toBe(404)

    const unknown = await call(server.url, "POST", PATH, {
      body: stripeBody(wrong),
      headers: { "idempotency-key": "refused-1" }
    })
    expect(unknown.status).toBe(400)
    const message = (unknown.body as { error: { message: string } }).error.message
    expect(message).toContain("Invalid API Key")
    expect(unknown.text).not.toContain(wrong)
    // The test-mode configuration saved before is untouched.
    const kept = await call(server.url, "GET", PATH)
    expect((kept.body as { credentials: { secretKey: string } }).credentials.secretKey).toBe(
      "sk_test_…4242"
    )
  })

  it("refuses a missing or unknown credential and an unknown processor, naming the field", async () => {
    const missing = await call(server.url, "POST", PATH, {
      body: { processor: "adyen", credentials: { apiKey: "AQEkey", hmacKey: "AB12" } }
    })
    expect(missing.status).toBe(400)
    expect(missing.body).toMatchObject({
      error: { code: "parameter_missing", param: "credentials[merchantAccount]" }
    })
    expect((missing.body as { error: { message: string } }).error.message).toContain(
      "Required: apiKey, merchantAccount"
    )
    const noKey = await call(server.url, "POST", PATH, {
      body: { processor: "stripe", credentials: { webhookSecret: WEBHOOK_SECRET } }
    })
    expect(noKey.body).toMatchObject({
      error: { code: "parameter_missing", param: "credentials[secretKey]" }
    })
    const extra = await call(server.url, "POST", PATH, {
      body: { ...stripeBody(), credentials: { ...stripeBody().credentials, apiKey: "x" } }
    })
    expect(extra.body).toMatchObject({
      error: { code: "parameter_unknown", param: "credentials[apiKey]" }
    })
    expect((extra.body as { error: { message: string } }).error.message).toContain(
      "secretKey, webhookSecret"
    )
    const processor = await call(server.url, "POST", PATH, {
      body: { ...stripeBody(), processor: "paypal" }
    })
    expect(processor.status).toBe(400)
    expect(processor.body).toMatchObject({ error: { param: "processor" } })
    expect((processor.body as { error: { message: string } }).error.message).toContain(
      "stripe, adyen"
    )
    // An account cannot choose where the server sends its credentials.
    const redirected = await call(server.url, "POST", PATH, {
      body: { ...stripeBody(), apiBaseUrl: "http://169.254.169.254" }
    })
    expect(redirected.body).toMatchObject({ error: { param: "apiBaseUrl" } })
  })

  it("saves Adyen in live mode against its fake; a wrong merchant account is refused", async () => {
    const credentials = {
      apiKey: adyen.apiKey,
      merchantAccount: adyen.merchantAccount,
      hmacKey: "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
    }
    const refused = await call(server.url, "POST", PATH, {
      key: LIVE_SECRET,
      body: { processor: "adyen", credentials: { ...credentials, merchantAccount: "Other" } }
    })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ error: { code: "processor_credentials_refused" } })
    // Live mode: held until another secret key approves it (docs/design.md §4).
    const held = await call(server.url, "POST", PATH, {
      key: LIVE_SECRET,
      body: { processor: "adyen", credentials, surcharge: true }
    })
    expect(held.status).toBe(200)
    expect(held.body).toMatchObject({
      processor: "adyen",
      livemode: true,
      surcharge: true,
      webhookUrl: "/v1/processor-webhooks/acct_1/live/adyen",
      applied: false,
      pendingChange: { action: "save", processor: "adyen", surcharge: true, status: "pending" }
    })
    expect(held.text).not.toContain(credentials.hmacKey)
    expect(held.text).not.toContain(credentials.apiKey)
    const id = (held.body as { pendingChange: { id: string } }).pendingChange.id
    const approved = await call(server.url, "POST", `${PATH}/pending/approve`, {
      key: LIVE_APPROVER,
      body: { id }
    })
    expect(approved.body).toMatchObject({ id, status: "applied" })
    const saved = await call(server.url, "GET", PATH, { key: LIVE_SECRET })
    expect(saved.body).toMatchObject({ processor: "adyen", livemode: true, surcharge: true })
    expect(saved.text).not.toContain(credentials.apiKey)
  })

  it("Stripe's webhook secret may come later: the key alone is saved, then both", async () => {
    const keyOnly = await call(server.url, "POST", PATH, {
      body: { processor: "stripe", credentials: { secretKey: stripe.secretKey } }
    })
    expect(keyOnly.status).toBe(200)
    expect((keyOnly.body as { credentials: object }).credentials).toStrictEqual({
      secretKey: "sk_test_…4242"
    })
    const both = await call(server.url, "POST", PATH, { body: stripeBody() })
    expect(Object.keys((both.body as { credentials: object }).credentials)).toEqual([
      "secretKey",
      "webhookSecret"
    ])
  })

  it("publishable keys may not see or change it", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const reply = await call(server.url, method, PATH, {
        key: PUBLISHABLE,
        ...(method === "POST" ? { body: stripeBody() } : {})
      })
      expect(reply.status, method).toBe(403)
    }
  })

  it("DELETE removes this mode's configuration only (in live mode once another key approves); again it is a 404", async () => {
    const held = await call(server.url, "DELETE", PATH, { key: LIVE_SECRET })
    expect(held.status).toBe(200)
    expect(held.body).toMatchObject({
      object: "processor_config",
      processor: "adyen",
      livemode: true,
      deleted: false,
      pendingChange: { action: "delete", processor: "adyen" }
    })
    const id = (held.body as { pendingChange: { id: string } }).pendingChange.id
    await call(server.url, "POST", `${PATH}/pending/approve`, { key: LIVE_APPROVER, body: { id } })
    expect((await call(server.url, "GET", PATH, { key: LIVE_SECRET })).status).toBe(404)
    expect((await call(server.url, "DELETE", PATH, { key: LIVE_SECRET })).status).toBe(404)
    expect((await call(server.url, "GET", PATH, { key: SECRET })).status).toBe(200)
    const removed = await call(server.url, "DELETE", PATH, { key: SECRET })
    expect(removed.body).toStrictEqual({
      object: "processor_config",
      processor: "stripe",
      livemode: false,
      deleted: true
    })
    expect((await call(server.url, "GET", PATH, { key: SECRET })).status).toBe(404)
  })
})

describe("a processor or a store that is down", () => {
  let running: Running
  let failing: Running
  beforeAll(async () => {
    // Nothing listens there: the processor cannot be reached.
    running = await start({ processorApiBaseUrls: { stripe: "http://127.0.0.1:9" } })
    const down = Effect.fail(new StorageError({ message: "connection refused" }))
    const broken = Layer.succeed(ProcessorConfigRepository, {
      get: () => down,
      open: () => down,
      save: () => down,
      remove: () => down,
      request: () => down,
      pending: () => down,
      approve: () => down,
      cancel: () => down
    })
    failing = await start({
      storage: Layer.merge(memoryStore(), broken),
      processorApiBaseUrls: { stripe: stripe.url }
    })
  })
  afterAll(async () => {
    await running?.close()
    await failing?.close()
  })

  it("an unreachable processor is a 503 and nothing is saved", async () => {
    const reply = await call(running.url, "POST", PATH, { body: stripeBody() })
    expect(reply.status).toBe(503)
    expect(reply.body).toMatchObject({
      error: { type: "api_error", code: "processor_unavailable" }
    })
    expect((await call(running.url, "GET", PATH)).status).toBe(404)
  }, 60_000)

  it("a store that fails is a 503 on every method, never a 500", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const reply = await call(failing.url, method, PATH, {
        ...(method === "POST" ? { body: stripeBody() } : {})
      })
      expect(reply.status, method).toBe(503)
      expect(reply.body).toMatchObject({ error: { type: "api_error" } })
    }
  })
})

/**
 * A refusal Levy makes itself says so: a test key saved for live mode, or
 * `surcharge: true` for Stripe, answered "Stripe refused these credentials" though Stripe was
 * never asked. Levy's own refusals say "Levy refused", why and what to send, naming the field;
 * "Stripe refused" is kept for what Stripe's API refused.
 */

import { ProcessorRefused } from "@levy/engine/processors/PaymentProcessor.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"
import * as ProcessorErrors from "../src/routes/ProcessorErrors.js"
import { call, LIVE_SECRET, memoryStore, SECRET, startWithStore } from "./support.js"

const PATH = "/v1/processor-config"

let stripe: FakeStripe
let server: Awaited<ReturnType<typeof startWithStore>>

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: "sk_test_levyFake0123456789abcdef4242" })
  server = await startWithStore(memoryStore(), { processorApiBaseUrls: { stripe: stripe.url } })
})

afterAll(async () => {
  await server?.close()
  await stripe?.close()
})

const save = (key: string, body: unknown) => call(server.url, "POST", PATH, { key, body })
const errorOf = (body: unknown) =>
  (body as { error: { code: string; message: string; param?: string } }).error

describe("refusals Levy makes before asking the processor", () => {
  it("a test key saved for live mode: Levy refused it, why, and the key to use", async () => {
    const calls = stripe.requests().length
    const reply = await save(LIVE_SECRET, {
      processor: "stripe",
      credentials: { secretKey: "sk_test_wrongMode0123456789abcdef99" }
    })
    expect(reply.status).toBe(400)
    const error = errorOf(reply.body)
    expect(error).toMatchObject({
      code: "processor_credentials_refused",
      param: "credentials[secretKey]"
    })
    expect(error.message).toMatch(/^Levy refused these credentials/)
    expect(error.message).toContain("sk_test_")
    expect(error.message).toContain("live mode")
    expect(error.message).toContain("sk_live_")
    expect(error.message).not.toContain("Stripe refused")
    expect(reply.text).not.toContain("sk_test_wrongMode0123456789abcdef99")
    expect(stripe.requests().length).toBe(calls)
  })

  it("a key that is no Stripe key at all: Levy refused it, naming the prefixes", async () => {
    const reply = await save(SECRET, {
      processor: "stripe",
      credentials: { secretKey: "pk_test_publishable0123456789abcd" }
    })
    expect(reply.status).toBe(400)
    const error = errorOf(reply.body)
    expect(error.param).toBe("credentials[secretKey]")
    expect(error.message).toMatch(/^Levy refused these credentials/)
    expect(error.message).toContain("sk_test_")
  })

  it("surcharge: true for Stripe: Levy refused the setting, naming surcharge", async () => {
    const calls = stripe.requests().length
    const reply = await save(SECRET, {
      processor: "stripe",
      credentials: { secretKey: stripe.secretKey },
      surcharge: true
    })
    expect(reply.status).toBe(400)
    const error = errorOf(reply.body)
    expect(error).toMatchObject({ code: "processor_credentials_refused", param: "surcharge" })
    expect(error.message).toMatch(/^Levy refused the surcharge setting for Stripe/)
    expect(error.message).toContain("turn the surcharge setting off")
    expect(error.message).not.toContain("Stripe refused")
    expect(stripe.requests().length).toBe(calls)
    expect((await call(server.url, "GET", PATH)).status).toBe(404)
  })

  it("a key Stripe itself refuses still says Stripe refused it", async () => {
    const reply = await save(SECRET, {
      processor: "stripe",
      credentials: { secretKey: "sk_test_unknownToStripe0123456789ab" }
    })
    expect(reply.status).toBe(400)
    const error = errorOf(reply.body)
    expect(error).toMatchObject({ code: "processor_credentials_refused", param: "credentials" })
    expect(error.message).toMatch(/^Stripe refused these credentials/)
  })
})

describe("a charge Levy will not send to the processor", () => {
  it("says Levy refused it, and what to fix in Levy's processor configuration", () => {
    const error = ProcessorErrors.refused(
      new ProcessorRefused({
        processor: "stripe",
        code: "key_mode_mismatch",
        message: "a Stripe test key cannot be used in live mode.",
        byLevy: true,
        setting: "credentials[secretKey]"
      })
    )
    expect(error.code).toBe("processor_refused")
    expect(error.message).toMatch(/^Levy refused to send this to Stripe/)
    expect(error.message).toContain("POST /v1/processor-config")
    expect(error.message).not.toContain("processor (stripe) refused")
  })

  it("a refusal Stripe made keeps saying the processor refused", () => {
    const error = ProcessorErrors.refused(
      new ProcessorRefused({
        processor: "stripe",
        code: "account_invalid",
        message: "No such account."
      })
    )
    expect(error.message).toMatch(/^The payment processor \(stripe\) refused/)
  })
})

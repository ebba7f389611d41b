/**
 * The storage-backed `PaymentProcessors`, against the local fakes: the configured processor
 * of each account and mode, else the test-mode default in test mode and none in live mode;
 * adapters built once per saved configuration; notifications verified with the configured
 * processor's webhook secret only.
 */

import * as ApiBaseUrls from "@levy/engine/processors/ApiBaseUrls.js"
import { ProcessorApiBaseUrls } from "@levy/engine/processors/ApiBaseUrls.js"
import * as ConfiguredProcessors from "@levy/engine/processors/ConfiguredProcessors.js"
import type { PaymentProcessor } from "@levy/engine/processors/PaymentProcessor.js"
import { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import { Ids, ProcessorConfigRepository, Storage, type Tenant } from "@levy/storage"
import { ConfigProvider, Effect, Either, Layer, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeAdyen, startFakeAdyen } from "../src/fakes/FakeAdyen.js"
import { type FakeStripe, startFakeStripe } from "../src/fakes/FakeStripe.js"

const WEBHOOK_SECRET = "whsec_configured_processors"
const HMAC_KEY = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"
const test: Tenant.Tenant = { accountId: "acct_cp", livemode: false }
const live: Tenant.Tenant = { accountId: "acct_cp", livemode: true }
const other: Tenant.Tenant = { accountId: "acct_other", livemode: false }

/** Stands in for the simulator. */
const simulator = { name: "simulator" } as PaymentProcessor

let stripe: FakeStripe
let adyen: FakeAdyen
let runtime: ManagedRuntime.ManagedRuntime<PaymentProcessors | ProcessorConfigRepository, never>

beforeAll(async () => {
  stripe = await startFakeStripe()
  adyen = await startFakeAdyen()
  const store = Storage.layerMemory.pipe(Layer.provide(Ids.layer))
  runtime = ManagedRuntime.make(
    ConfiguredProcessors.layer((tenant) =>
      tenant.accountId === other.accountId ? Option.none() : Option.some(simulator)
    ).pipe(
      Layer.provideMerge(store),
      Layer.provide(Layer.succeed(ProcessorApiBaseUrls, { stripe: stripe.url, adyen: adyen.url }))
    )
  )
})

afterAll(async () => {
  await runtime?.dispose()
  await stripe?.close()
  await adyen?.close()
})

const run = <A, E>(effect: Effect.Effect<A, E, PaymentProcessors | ProcessorConfigRepository>) =>
  runtime.runPromise(effect)
const forTenant = (tenant: Tenant.Tenant) =>
  run(Effect.flatMap(PaymentProcessors, (p) => p.forTenant(tenant)))
const forNotifications = (tenant: Tenant.Tenant, name: string) =>
  run(Effect.flatMap(PaymentProcessors, (p) => p.forNotifications(tenant, name)))
const save = (tenant: Tenant.Tenant, processor: string, credentials: Record<string, string>) =>
  run(
    Effect.flatMap(ProcessorConfigRepository, (repo) =>
      repo.save(tenant, { processor, credentials, surcharge: false, at: 1 })
    )
  )
const remove = (tenant: Tenant.Tenant) =>
  run(Effect.flatMap(ProcessorConfigRepository, (repo) => repo.remove(tenant)))
const verifies = (processor: PaymentProcessor) =>
  Effect.runPromise(Effect.either(processor.verifyCredentials())).then((e) => e._tag === "Right")

describe("ConfiguredProcessors", () => {
  it("without a configuration: the test-mode default in test mode, none in live mode", async () => {
    expect(await forTenant(test)).toEqual(Option.some(simulator))
    expect(await forTenant(live)).toEqual(Option.none())
    expect(await forTenant(other)).toEqual(Option.none())
    expect(await forNotifications(test, "stripe")).toEqual(Option.none())
  })

  it("the configured processor, built once per saved configuration, talks to the fake", async () => {
    await save(test, "stripe", { secretKey: stripe.secretKey, webhookSecret: WEBHOOK_SECRET })
    const first = Option.getOrThrow(await forTenant(test))
    expect(first.name).toBe("stripe")
    expect(await verifies(first)).toBe(true)
    // The same adapter while the configuration stays the same.
    expect(Option.getOrThrow(await forTenant(test))).toBe(first)
    expect(Option.getOrThrow(await forNotifications(test, "stripe")).processor).toBe(first)
    // Saved again (here with a key the fake refuses): a new adapter with the new credentials.
    await save(test, "stripe", { secretKey: "sk_test_refused_0000", webhookSecret: WEBHOOK_SECRET })
    const second = Option.getOrThrow(await forTenant(test))
    expect(second).not.toBe(first)
    expect(await verifies(second)).toBe(false)
    // The other mode and other accounts are untouched.
    expect(await forTenant(live)).toEqual(Option.none())
    await save(test, "stripe", { secretKey: stripe.secretKey, webhookSecret: WEBHOOK_SECRET })
  })

  it("notifications: the configured processor with its webhook secret, which verifies the fake's", async () => {
    expect(await forNotifications(test, "adyen")).toEqual(Option.none())
    const target = Option.getOrThrow(await forNotifications(test, "stripe"))
    expect(target.webhookSecret).toBe(WEBHOOK_SECRET)
    const payment = await Effect.runPromise(
      target.processor.charge({
        idempotencyKey: "levy_ch_cp_1",
        source: "pm_card_visa",
        amount: 10_320,
        currency: "usd",
        fee: 320,
        metadata: {}
      })
    )
    expect(payment._tag).toBe("Succeeded")
    const reference = (payment as { reference: string }).reference
    const event = stripe.dispute(reference)
    const signed = stripe.signedEvent(event.type, event.data.object, WEBHOOK_SECRET)
    const parsed = await Effect.runPromise(
      target.processor.parseNotification(signed.rawBody, signed.headers, target.webhookSecret)
    )
    expect(parsed.map((n) => n._tag)).toEqual(["DisputeOpened"])
  })

  it("live Adyen: charged through the fake; its HMAC key verifies notifications", async () => {
    await save(live, "adyen", {
      apiKey: adyen.apiKey,
      merchantAccount: adyen.merchantAccount,
      hmacKey: HMAC_KEY
    })
    const processor = Option.getOrThrow(await forTenant(live))
    expect(processor.name).toBe("adyen")
    expect(await verifies(processor)).toBe(true)
    expect(await forNotifications(live, "stripe")).toEqual(Option.none())
    expect(Option.getOrThrow(await forNotifications(live, "adyen")).webhookSecret).toBe(HMAC_KEY)
  })

  it("a configuration without its webhook secret serves charges but no notifications", async () => {
    const other2: Tenant.Tenant = { accountId: "acct_no_secret", livemode: false }
    await save(other2, "stripe", { secretKey: stripe.secretKey })
    expect(Option.getOrThrow(await forTenant(other2)).name).toBe("stripe")
    expect(await forNotifications(other2, "stripe")).toEqual(Option.none())
  })

  it("deleted: test mode falls back to the default, live mode has none", async () => {
    await remove(test)
    await remove(live)
    expect(await forTenant(test)).toEqual(Option.some(simulator))
    expect(await forTenant(live)).toEqual(Option.none())
    expect(await forNotifications(live, "adyen")).toEqual(Option.none())
  })
})

describe("the processors' API base URLs", () => {
  const fromEnv = (env: Record<string, string>) =>
    Effect.runPromise(
      Effect.either(
        ApiBaseUrls.fromEnv.pipe(
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
        )
      )
    )

  it("are read from LEVY_<PROCESSOR>_API_BASE_URL; unset or empty means the processor's own", async () => {
    expect(await fromEnv({})).toEqual(Either.right({}))
    expect(
      await fromEnv({
        LEVY_STRIPE_API_BASE_URL: "http://127.0.0.1:12111",
        LEVY_ADYEN_API_BASE_URL: ""
      })
    ).toEqual(Either.right({ stripe: "http://127.0.0.1:12111" }))
  })

  it("refuse a value that is not an http(s) URL", async () => {
    const refused = await fromEnv({ LEVY_ADYEN_API_BASE_URL: "file:///etc/passwd" })
    expect(Either.isLeft(refused)).toBe(true)
  })
})

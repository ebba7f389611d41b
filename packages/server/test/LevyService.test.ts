/**
 * Levy in-process (src/inprocess/LevyService.ts) on the memory store and on PostgreSQL: the
 * workflows answer typed results and their own errors, an idempotency key replays the first
 * result (never a second charge), and a store that fails is a typed `StorageError`, never a
 * defect.
 */
import { describe, expect, it } from "@effect/vitest"
import { Metadata } from "@levy/api"
import * as LevyService from "@levy/engine/inprocess/LevyService.js"
import {
  ChargeRepository,
  EventRepository,
  FeeConfigRepository,
  IdempotencyRepository,
  type Ids,
  type Storage,
  StorageError
} from "@levy/storage"
import { Cause, Context, Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import { startFakeStripe } from "../src/fakes/FakeStripe.js"
import { stores } from "./chargeStores.js"
import { RawSql } from "./testStores.js"

type Store = Layer.Layer<Storage.Repositories | Ids, unknown>

/** A switch that makes every call of a repository fail as a store that is down. */
interface Outage {
  on: boolean
}

const failing = <S extends object>(service: S, outage: Outage): S =>
  Object.fromEntries(
    Object.entries(service).map(([name, value]) => [
      name,
      typeof value !== "function"
        ? value
        : (...args: Array<unknown>) =>
            Effect.suspend(() =>
              outage.on
                ? Effect.fail(new StorageError({ message: "store down (test)" }))
                : (value as (...a: Array<unknown>) => Effect.Effect<unknown>)(...args)
            )
    ])
  ) as S

/** `store` whose charge, idempotency and fee-configuration repositories fail while `outage.on`. */
const withOutage = (store: Store, outage: Outage): Store =>
  Layer.effectContext(
    Effect.map(Effect.context<Storage.Repositories | Ids>(), (context) =>
      context.pipe(
        Context.add(ChargeRepository, failing(Context.get(context, ChargeRepository), outage)),
        Context.add(
          IdempotencyRepository,
          failing(Context.get(context, IdempotencyRepository), outage)
        ),
        Context.add(FeeConfigRepository, failing(Context.get(context, FeeConfigRepository), outage))
      )
    )
  ).pipe(Layer.provide(store))

/** The failure of an exit that must be a typed failure (a defect fails the test). */
const failureOf = <E>(exit: Exit.Exit<unknown, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure, got a success")
  const failure = Cause.failureOption(exit.cause)
  if (Option.isNone(failure))
    throw new Error(`expected a typed failure: ${Cause.pretty(exit.cause)}`)
  return failure.value
}

const order = { amount: 10_000, currency: "usd", source: "tok_visa", customer: "cus_1" } as const
const quote = { amount: 10_000, currency: "usd", region: "US-FL", cardType: "credit" } as const

describe.each(stores)("LevyService on $name", ({ name, layer }) => {
  it("charges, replays a key, refunds, and fails in the workflows' own words", async () => {
    const outage: Outage = { on: false }
    const runtime = ManagedRuntime.make(
      LevyService.layer.pipe(Layer.provideMerge(withOutage(layer, outage)))
    )
    try {
      const levy = await runtime.runPromise(LevyService.LevyService)
      const run = <A, E>(effect: Effect.Effect<A, E>) =>
        runtime.runPromiseExit(effect) as Promise<Exit.Exit<A, E>>
      const ok = <A, E>(effect: Effect.Effect<A, E>) => runtime.runPromise(effect)

      const account = await ok(levy.accounts.create("Shop"))
      const tenant = LevyService.tenant(account.accountId, "test")

      const estimate = await ok(levy.estimates.create(tenant, quote))
      expect(estimate.convenienceFee).toBe(300) // 2.9 % + 0.30 lowered to Florida's 3 % cap
      // The quote's card from the simulator, and a charge held to the quote (docs/quotes.md).
      const forDebit = await ok(
        levy.estimates.create(tenant, { ...quote, cardType: undefined, source: "tok_visa_debit" })
      )
      expect(forDebit).toMatchObject({ convenienceFee: 0, card: { funding: "debit" } })
      const quoted = await ok(
        levy.charges.create(tenant, {
          ...quote,
          cardType: undefined,
          source: "tok_visa",
          estimate: forDebit.id!
        })
      )
      expect(quoted).toMatchObject({ convenienceFee: 0, estimate: forDebit.id })
      const twice = failureOf(
        await run(levy.charges.create(tenant, { ...quote, estimate: forDebit.id! }))
      )
      expect(twice).toMatchObject({ _tag: "EstimateRefused", reason: "used" })

      const plain = await ok(levy.charges.create(tenant, order))
      expect(plain).toMatchObject({ status: "succeeded", amount: 10_000, totalAmount: 10_320 })

      const first = await ok(levy.charges.create(tenant, order, { idempotencyKey: "order-1" }))
      // the same input in another key order is the same request
      const again = await ok(
        levy.charges.create(
          tenant,
          { customer: "cus_1", source: "tok_visa", currency: "usd", amount: 10_000 },
          { idempotencyKey: "order-1" }
        )
      )
      expect(again).toEqual(first)
      expect(first.id).not.toBe(plain.id)
      const reused = failureOf(
        await run(
          levy.charges.create(tenant, { ...order, amount: 500 }, { idempotencyKey: "order-1" })
        )
      )
      expect(reused._tag).toBe("IdempotencyKeyReused")
      const listed = await ok(levy.charges.list(tenant, { customer: "cus_1" }))
      expect(listed.data.map((c) => c.id).sort()).toEqual([plain.id, first.id].sort())

      const refund = await ok(
        levy.refunds.create(tenant, { charge: first.id, amount: 2_500 }, { idempotencyKey: "r-1" })
      )
      expect(refund).toMatchObject({ charge: first.id, amount: 2_500, convenienceFee: 80 })
      const refundAgain = await ok(
        levy.refunds.create(tenant, { charge: first.id, amount: 2_500 }, { idempotencyKey: "r-1" })
      )
      expect(refundAgain.id).toBe(refund.id)
      const refunded = await ok(levy.charges.retrieve(tenant, first.id))
      expect(refunded.amountRefunded).toBe(2_580) // one refund, not two

      const noted = await ok(
        levy.charges.update(
          tenant,
          first.id,
          { description: "Order 1", metadata: { shipped: "yes" } },
          { idempotencyKey: "note-1" }
        )
      )
      expect(noted).toMatchObject({ description: "Order 1", metadata: { shipped: "yes" } })
      const notedAgain = await ok(
        levy.charges.update(
          tenant,
          first.id,
          { description: "Order 1", metadata: { shipped: "yes" } },
          { idempotencyKey: "note-1" }
        )
      )
      expect(notedAgain).toEqual(noted)
      // Each update is within the limits; merged with the charge's "shipped" key it is one past.
      const tooMany = Object.fromEntries(
        Array.from({ length: Metadata.MAX_KEYS }, (_, i) => [`k${i}`, "v"])
      )
      const overLimit = failureOf(
        await run(levy.charges.update(tenant, first.id, { metadata: tooMany }))
      )
      expect(overLimit._tag).toBe("ChargeMetadataInvalid")

      const declined = { ...order, source: "tok_chargeDeclined" } as const
      const failed = failureOf(
        await run(levy.charges.create(tenant, declined, { idempotencyKey: "order-2" }))
      )
      expect(failed._tag).toBe("ChargeFailed")
      if (failed._tag !== "ChargeFailed") return
      expect(failed.charge).toMatchObject({ status: "failed", failureCode: "card_declined" })
      // the stored failure replays as the same typed error, of the same charge
      const replayed = failureOf(
        await run(levy.charges.create(tenant, declined, { idempotencyKey: "order-2" }))
      )
      expect(replayed).toMatchObject({ _tag: "ChargeFailed", charge: { id: failed.charge.id } })

      const other = LevyService.tenant(account.accountId, "live")
      const notFound = failureOf(await run(levy.charges.retrieve(other, first.id)))
      expect(notFound).toMatchObject({ _tag: "ChargeNotFound", inOtherMode: true })
      const invalid = failureOf(await run(levy.charges.create(tenant, { ...order, amount: 100.5 })))
      expect(invalid).toMatchObject({ _tag: "InvalidInput", param: "amount" })
      const liveCharge = failureOf(await run(levy.charges.create(other, order)))
      expect(liveCharge._tag).toBe("ProcessorNotConfigured")

      const config = await ok(levy.feeConfig.retrieve(tenant))
      expect(config).toMatchObject({ percentage: 2.9, flatFee: 0.3, livemode: false })

      outage.on = true
      const outages: ReadonlyArray<Exit.Exit<unknown, { readonly _tag: string }>> = [
        await run(levy.charges.create(tenant, order)),
        await run(levy.charges.create(tenant, order, { idempotencyKey: "order-3" })),
        await run(levy.estimates.create(tenant, quote)),
        await run(levy.charges.retrieve(tenant, first.id))
      ]
      for (const down of outages) {
        expect(failureOf(down)._tag).toBe("StorageError")
      }
      outage.on = false

      // PostgreSQL failing for real: the charges table gone for a moment
      const sql = await ok(Effect.serviceOption(RawSql))
      if (name === "postgres") {
        if (Option.isNone(sql)) throw new Error("the PostgreSQL store provides its SQL client")
        await ok(sql.value.unsafe("ALTER TABLE charges RENAME TO charges_away"))
        const down = await run(levy.charges.create(tenant, order, { idempotencyKey: "order-4" }))
        await ok(sql.value.unsafe("ALTER TABLE charges_away RENAME TO charges"))
        expect(failureOf(down)._tag).toBe("StorageError")
        // the key was let go: the retry charges
        const retried = await ok(levy.charges.create(tenant, order, { idempotencyKey: "order-4" }))
        expect(retried.status).toBe("succeeded")
      }
    } finally {
      await runtime.dispose()
    }
  }, 60_000)
  it("changes the fee configuration: applied in test mode, held and approved by another in live mode", async () => {
    const outage: Outage = { on: false }
    const runtime = ManagedRuntime.make(
      LevyService.layer.pipe(Layer.provideMerge(withOutage(layer, outage)))
    )
    try {
      const levy = await runtime.runPromise(LevyService.LevyService)
      const run = <A, E>(effect: Effect.Effect<A, E>) =>
        runtime.runPromiseExit(effect) as Promise<Exit.Exit<A, E>>
      const ok = <A, E>(effect: Effect.Effect<A, E>) => runtime.runPromise(effect)
      const account = await ok(levy.accounts.create("Shop"))
      const test = LevyService.tenant(account.accountId, "test")
      const live = LevyService.tenant(account.accountId, "live")

      // test mode: applied at once, its event naming the key; the key replays, never twice
      const applied = await ok(
        levy.feeConfig.update(test, { percentage: 2.5 }, { idempotencyKey: "fees-1" })
      )
      expect(applied).toMatchObject({ percentage: 2.5, updated: true, livemode: false })
      const replayed = await ok(
        levy.feeConfig.update(test, { percentage: 2.5 }, { idempotencyKey: "fees-1" })
      )
      expect(replayed).toEqual(applied)
      const events = await runtime.runPromise(
        Effect.flatMap(EventRepository, (repo) =>
          repo.list(test, { limit: 10, type: "fee_config.updated" })
        )
      )
      expect(events.data.map((e) => e.request)).toEqual([{ idempotencyKey: "fees-1" }])
      const reused = failureOf(
        await run(levy.feeConfig.update(test, { percentage: 2.4 }, { idempotencyKey: "fees-1" }))
      )
      expect(reused._tag).toBe("IdempotencyKeyReused")
      expect(await ok(levy.feeConfig.retrieve(test))).toMatchObject({ percentage: 2.5 })

      // refusals, in the workflow's own words; nothing applied
      const overCap = failureOf(
        await run(levy.feeConfig.update(test, { defaultRegion: "US-CO", percentage: 3 }))
      )
      expect(overCap).toMatchObject({
        _tag: "DefaultRegionNotCompliant",
        region: "US-CO",
        reasonCode: "percentage_over_limit",
        param: "percentage"
      })
      const pin = failureOf(await run(levy.feeConfig.update(test, { rulesetVersion: "9.9.9" })))
      expect(pin).toMatchObject({ _tag: "RulesetVersionUnknown", version: "9.9.9" })
      const invalid = failureOf(await run(levy.feeConfig.update(test, { percentage: -1 })))
      expect(invalid).toMatchObject({ _tag: "InvalidInput", param: "percentage" })
      expect(await ok(levy.feeConfig.retrieve(test))).toMatchObject({
        percentage: 2.5,
        defaultRegion: null
      })
      const nothing = failureOf(await run(levy.feeConfig.cancel(test)))
      expect(nothing._tag).toBe("NoPendingFeeChange")

      // live mode: a raise is held until someone else approves it
      const held = await ok(levy.feeConfig.update(live, { percentage: 3.5 }, { by: "bob" }))
      expect(held).toMatchObject({ percentage: 2.9, updated: false })
      const change = held.pendingChange
      if (change === undefined) throw new Error("the raise is held")
      expect(change.changes).toEqual({ percentage: 3.5 })
      const second = failureOf(await run(levy.feeConfig.update(live, { percentage: 4 })))
      expect(second._tag).toBe("FeeChangeAlreadyPending")
      const self = failureOf(await run(levy.feeConfig.approve(live, change.id, { by: "bob" })))
      expect(self).toMatchObject({ _tag: "ApproverIsRequester", by: "bob" })
      const stale = failureOf(
        await run(levy.feeConfig.approve(live, "fcc_notTheOne", { by: "alice" }))
      )
      expect(stale).toMatchObject({ _tag: "NoPendingFeeChange", id: "fcc_notTheOne" })
      expect(await ok(levy.feeConfig.retrieve(live))).toMatchObject({
        percentage: 2.9,
        pendingChange: { id: change.id }
      })
      const approved = await ok(levy.feeConfig.approve(live, change.id, { by: "alice" }))
      expect(approved).toMatchObject({ percentage: 3.5, updated: true })
      expect(approved.pendingChange).toBeUndefined()

      // a held change cancelled leaves the configuration as it was
      await ok(levy.feeConfig.update(live, { flatFee: 0.5 }))
      const cancelled = await ok(levy.feeConfig.cancel(live, { by: "alice" }))
      expect(cancelled).toMatchObject({ percentage: 3.5, flatFee: 0.3 })
      expect((await ok(levy.feeConfig.retrieve(live))).pendingChange).toBeUndefined()

      outage.on = true
      const down = failureOf(await run(levy.feeConfig.update(test, { percentage: 2 })))
      expect(down._tag).toBe("StorageError")
      outage.on = false
    } finally {
      await runtime.dispose()
    }
  }, 60_000)

  it("manages webhook endpoints: the secret shown on create and roll, replayed under a key", async () => {
    const runtime = ManagedRuntime.make(LevyService.layer.pipe(Layer.provideMerge(layer)))
    try {
      const levy = await runtime.runPromise(LevyService.LevyService)
      const run = <A, E>(effect: Effect.Effect<A, E>) =>
        runtime.runPromiseExit(effect) as Promise<Exit.Exit<A, E>>
      const ok = <A, E>(effect: Effect.Effect<A, E>) => runtime.runPromise(effect)
      const account = await ok(levy.accounts.create("Shop"))
      const test = LevyService.tenant(account.accountId, "test")
      const live = LevyService.tenant(account.accountId, "live")
      const input = {
        url: "https://93.184.216.34/hooks",
        enabledEvents: ["charge.succeeded"]
      } as const

      const created = await ok(
        levy.webhookEndpoints.create(test, input, { idempotencyKey: "we-1" })
      )
      expect(created).toMatchObject({ url: input.url, status: "enabled", livemode: false })
      expect(created.secret).toMatch(/^whsec_dev_/)
      // the secret was stored sealed for the key, and opened again for the replay
      const again = await ok(levy.webhookEndpoints.create(test, input, { idempotencyKey: "we-1" }))
      expect(again).toEqual(created)
      const shown = await ok(levy.webhookEndpoints.retrieve(test, created.id))
      expect(shown.secret).toBeUndefined()
      const listed = await ok(levy.webhookEndpoints.list(test))
      expect(listed.data.map((e) => e.id)).toEqual([created.id])

      const plainHttp = failureOf(
        await run(levy.webhookEndpoints.create(live, { ...input, url: "http://93.184.216.34/h" }))
      )
      expect(plainHttp._tag).toBe("WebhookUrlRefused")
      // loopback only on a server run for development, which in-process is not
      const loopback = failureOf(
        await run(
          levy.webhookEndpoints.update(test, created.id, { url: "http://127.0.0.1:9/hooks" })
        )
      )
      expect(loopback._tag).toBe("WebhookUrlRefused")
      const badEvents = failureOf(
        await run(
          levy.webhookEndpoints.create(test, { ...input, enabledEvents: ["nope"] as never })
        )
      )
      expect(badEvents).toMatchObject({ _tag: "InvalidInput" })

      const disabled = await ok(
        levy.webhookEndpoints.update(test, created.id, { status: "disabled" })
      )
      expect(disabled).toMatchObject({ id: created.id, status: "disabled" })
      expect(disabled.secret).toBeUndefined()
      const rolled = await ok(levy.webhookEndpoints.rollSecret(test, created.id))
      expect(rolled.secret).toMatch(/^whsec_dev_/)
      expect(rolled.secret).not.toBe(created.secret)

      const otherMode = failureOf(await run(levy.webhookEndpoints.retrieve(live, created.id)))
      expect(otherMode).toMatchObject({ _tag: "WebhookEndpointNotFound", id: created.id })
      const deleted = await ok(levy.webhookEndpoints.delete(test, created.id))
      expect(deleted).toEqual({ id: created.id, object: "webhook_endpoint", deleted: true })
      const gone = failureOf(await run(levy.webhookEndpoints.delete(test, created.id)))
      expect(gone._tag).toBe("WebhookEndpointNotFound")
      expect((await ok(levy.webhookEndpoints.list(test))).data).toEqual([])
    } finally {
      await runtime.dispose()
    }
  }, 60_000)

  it("saves the processor once it accepts the credentials, shown masked, and removes it; in live mode held for someone else's approval", async () => {
    const liveKey = "sk_live_levyFake0123456789abcdef7777"
    const stripe = await startFakeStripe({
      secretKey: "sk_test_levyFake0123456789abcdef4242",
      otherSecretKeys: [liveKey]
    })
    const runtime = ManagedRuntime.make(
      LevyService.layerWith({ processorApiBaseUrls: { stripe: stripe.url } }).pipe(
        Layer.provideMerge(layer)
      )
    )
    try {
      const levy = await runtime.runPromise(LevyService.LevyService)
      const run = <A, E>(effect: Effect.Effect<A, E>) =>
        runtime.runPromiseExit(effect) as Promise<Exit.Exit<A, E>>
      const ok = <A, E>(effect: Effect.Effect<A, E>) => runtime.runPromise(effect)
      const account = await ok(levy.accounts.create("Shop"))
      const test = LevyService.tenant(account.accountId, "test")
      const webhookSecret = "whsec_0123456789abcdefghijklmnopqrstuv"
      const input = {
        processor: "stripe",
        credentials: { secretKey: stripe.secretKey, webhookSecret }
      } as const

      const none = failureOf(await run(levy.processorConfig.retrieve(test)))
      expect(none._tag).toBe("ProcessorConfigNotFound")
      const refused = failureOf(
        await run(
          levy.processorConfig.save(test, {
            ...input,
            credentials: { ...input.credentials, secretKey: "sk_test_wrong0123456789abcdef" }
          })
        )
      )
      expect(refused._tag).toBe("CredentialsRefused")
      const missing = failureOf(
        await run(
          levy.processorConfig.save(test, { processor: "stripe", credentials: { webhookSecret } })
        )
      )
      expect(missing).toMatchObject({ _tag: "CredentialsInvalid", param: "credentials[secretKey]" })

      const saved = await ok(levy.processorConfig.save(test, input, { idempotencyKey: "p-1" }))
      expect(saved).toMatchObject({
        processor: "stripe",
        livemode: false,
        credentials: { secretKey: "sk_test_…4242", webhookSecret: "whsec_…stuv" }
      })
      expect(JSON.stringify(saved)).not.toContain(stripe.secretKey)
      expect(await ok(levy.processorConfig.save(test, input, { idempotencyKey: "p-1" }))).toEqual(
        saved
      )
      expect(await ok(levy.processorConfig.retrieve(test))).toEqual(saved)

      const removed = await ok(levy.processorConfig.delete(test))
      expect(removed).toEqual({
        object: "processor_config",
        processor: "stripe",
        livemode: false,
        deleted: true
      })
      const after = failureOf(await run(levy.processorConfig.delete(test)))
      expect(after._tag).toBe("ProcessorConfigNotFound")

      // Live mode: held until someone else approves it (docs/design.md §4).
      const live = LevyService.tenant(account.accountId, "live")
      const held = await ok(
        levy.processorConfig.save(
          live,
          { processor: "stripe", credentials: { secretKey: liveKey } },
          { by: "bob" }
        )
      )
      expect(held).toMatchObject({ applied: false, pendingChange: { action: "save" } })
      const id = held.pendingChange?.id ?? ""
      expect(failureOf(await run(levy.processorConfig.retrieve(live)))).toMatchObject({
        _tag: "ProcessorConfigNotFound",
        pending: { id }
      })
      expect(await ok(levy.processorConfig.retrievePending(live))).toMatchObject({ id })
      const self = failureOf(await run(levy.processorConfig.approve(live, id, { by: "bob" })))
      expect(self._tag).toBe("ApproverIsRequester")
      const other = failureOf(
        await run(levy.processorConfig.approve(live, "pcc_other", { by: "alice" }))
      )
      expect(other).toMatchObject({ _tag: "NoPendingProcessorChange", id: "pcc_other" })
      expect(await ok(levy.processorConfig.approve(live, id, { by: "alice" }))).toMatchObject({
        id,
        status: "applied"
      })
      expect(await ok(levy.processorConfig.retrieve(live))).toMatchObject({
        credentials: { secretKey: "sk_live_…7777" }
      })
      const removal = await ok(levy.processorConfig.delete(live, { by: "bob" }))
      expect(removal).toMatchObject({ deleted: false, pendingChange: { action: "delete" } })
      expect(await ok(levy.processorConfig.cancel(live))).toMatchObject({ status: "cancelled" })
      expect(failureOf(await run(levy.processorConfig.retrievePending(live)))._tag).toBe(
        "NoPendingProcessorChange"
      )
    } finally {
      await runtime.dispose()
      await stripe.close()
    }
  }, 60_000)
})

/**
 * Levy in-process (src/inprocess/LevyService.ts) on the memory store and on PostgreSQL: the
 * workflows answer typed results and their own errors, an idempotency key replays the first
 * result (never a second charge), and a store that fails is a typed `StorageError`, never a
 * defect.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  ChargeRepository,
  FeeConfigRepository,
  IdempotencyRepository,
  type Ids,
  type Storage,
  StorageError
} from "@levy/storage"
import { Cause, Context, Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import * as LevyService from "../src/inprocess/LevyService.js"
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
})

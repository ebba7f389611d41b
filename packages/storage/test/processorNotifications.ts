/**
 * The storage half of processor webhooks (docs/design.md §8), part of the conformance suite: a
 * notification is recorded once per (account, mode, processor, id) and not at all when its
 * transaction fails; charges, refunds and disputes are found by their processor reference
 * within their own account and mode; a processor's dispute is unique per reference.
 */
import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { AccountRepository } from "../src/AccountRepository.js"
import {
  ChargeRepository,
  type NewCharge,
  type Processing,
  type StoredCharge
} from "../src/ChargeRepository.js"
import { timeOrdered } from "../src/Ids.js"
import {
  type ProcessorDispute,
  ProcessorNotificationRepository
} from "../src/ProcessorNotificationRepository.js"
import type { Tenant } from "../src/Tenant.js"
import { Transactions } from "../src/Transactions.js"
import type { EffectIt } from "./chargePhases.js"

const nextId = timeOrdered()
const T0 = 1_760_000_000

/** A fresh account's test tenant and its live one. */
export const freshTenants = Effect.gen(function* () {
  const id = nextId("acct")
  yield* (yield* AccountRepository).createAccount({ id, name: id, created: T0 })
  return [
    { accountId: id, livemode: false } as Tenant,
    { accountId: id, livemode: true } as Tenant
  ] as const
})

/** A pending charge whose processor key is `levy_<id>`. */
const pendingCharge = (tenant: Tenant): NewCharge & Processing => {
  const id = nextId("ch")
  return {
    id,
    accountId: tenant.accountId,
    livemode: tenant.livemode,
    created: T0,
    amount: 10_000,
    convenienceFee: 320,
    totalAmount: 10_320,
    currency: "usd",
    status: "pending",
    customer: null,
    description: null,
    metadata: {},
    region: null,
    cardType: "credit",
    feeBreakdown: { percentage: 290, flatFee: 30, adjustment: 0 },
    compliance: null,
    failureCode: null,
    failureMessage: null,
    details: { source: "pm_card_visa" },
    processor: "stripe",
    processorKey: `levy_${id}`,
    idempotencyKey: null,
    requestFingerprint: null,
    processorReference: null,
    recoverAfterMs: Date.now() + 60_000
  }
}

/** A charge begun and settled as paid under `reference`. */
const paidCharge = (tenant: Tenant, reference: string) =>
  Effect.gen(function* () {
    const charges = yield* ChargeRepository
    const begun = yield* charges.beginCharge(pendingCharge(tenant))
    const settled = yield* charges.settleCharge(
      tenant,
      begun.id,
      { status: "succeeded", processorReference: reference },
      () => ({ events: [] })
    )
    return settled.record
  })

const disputeOf = (
  charge: StoredCharge,
  reference: string,
  fields: Partial<ProcessorDispute> = {}
): ProcessorDispute => ({
  id: nextId("dp"),
  accountId: charge.accountId,
  livemode: charge.livemode,
  chargeId: charge.id,
  amount: charge.totalAmount,
  status: "needs_response",
  reason: "fraudulent",
  created: T0,
  updated: T0,
  processorReference: reference,
  processorUpdatedAt: T0,
  ...fields
})

const idOf = <A extends { readonly id: string }>(found: Option.Option<A>) =>
  Option.getOrNull(Option.map(found, (a) => a.id))

export const processorNotificationCases = (it: EffectIt) => {
  it.effect("a notification is recorded once per account, mode, processor and id", () =>
    Effect.gen(function* () {
      const [test, live] = yield* freshTenants
      const repo = yield* ProcessorNotificationRepository
      const received = (tenant: Tenant, processor: string, notificationId: string) => ({
        ...tenant,
        processor,
        notificationId,
        receivedMs: Date.now()
      })
      expect(yield* repo.record(received(test, "stripe", "evt_1"))).toBe(true)
      expect(yield* repo.record(received(test, "stripe", "evt_1"))).toBe(false)
      expect(yield* repo.record(received(live, "stripe", "evt_1"))).toBe(true)
      expect(yield* repo.record(received(test, "adyen", "evt_1"))).toBe(true)
      expect(yield* repo.record(received(test, "stripe", "evt_2"))).toBe(true)
    })
  )

  it.effect("a notification recorded in a transaction that fails is not recorded", () =>
    Effect.gen(function* () {
      const [test] = yield* freshTenants
      const repo = yield* ProcessorNotificationRepository
      const tx = yield* Transactions
      const received = { ...test, processor: "stripe", notificationId: "evt_x", receivedMs: 1 }
      const failed = yield* Effect.either(
        tx.run(Effect.zipRight(repo.record(received), Effect.fail("injected" as const)))
      )
      expect(Either.isLeft(failed)).toBe(true)
      expect(yield* tx.run(repo.record(received))).toBe(true)
    })
  )

  it.effect("charges and refunds are found by processor reference or key, in their mode", () =>
    Effect.gen(function* () {
      const [test, live] = yield* freshTenants
      const repo = yield* ProcessorNotificationRepository
      const charges = yield* ChargeRepository
      const charge = yield* paidCharge(test, "pi_found")
      expect(idOf(yield* repo.chargeByReference(test, "pi_found"))).toBe(charge.id)
      expect(idOf(yield* repo.chargeByReference(live, "pi_found"))).toBeNull()
      expect(idOf(yield* repo.chargeByReference(test, "pi_other"))).toBeNull()
      expect(idOf(yield* repo.chargeByProcessorKey(test, `levy_${charge.id}`))).toBe(charge.id)
      expect(idOf(yield* repo.chargeByProcessorKey(live, `levy_${charge.id}`))).toBeNull()

      const refundId = nextId("re")
      yield* charges.refund({
        id: refundId,
        accountId: test.accountId,
        livemode: false,
        chargeId: charge.id,
        amount: 1_032,
        feeAmount: 32,
        reason: null,
        status: "succeeded",
        created: T0,
        metadata: {},
        processor: "stripe",
        processorKey: `levy_${refundId}`,
        processorReference: "re_found"
      })
      expect(idOf(yield* repo.refundByReference(test, "re_found"))).toBe(refundId)
      expect(idOf(yield* repo.refundByReference(live, "re_found"))).toBeNull()
      expect(idOf(yield* repo.refundByProcessorKey(test, `levy_${refundId}`))).toBe(refundId)
      expect(idOf(yield* repo.refundByProcessorKey(test, "levy_re_none"))).toBeNull()
    })
  )

  it.effect("a processor's dispute: unique per reference, marks its charge, status moves", () =>
    Effect.gen(function* () {
      const [test, live] = yield* freshTenants
      const repo = yield* ProcessorNotificationRepository
      const charges = yield* ChargeRepository
      const charge = yield* paidCharge(test, "pi_disputed")
      const opened = yield* repo.openDispute(disputeOf(charge, "du_1"))
      expect((yield* charges.get(test, charge.id)).disputed).toBe(true)
      expect(yield* repo.disputeByReference(test, "du_1")).toEqual(Option.some(opened))
      expect(yield* repo.disputeByReference(live, "du_1")).toEqual(Option.none())
      const again = yield* Effect.either(repo.openDispute(disputeOf(charge, "du_1")))
      expect(Either.isLeft(again) && again.left._tag).toBe("DuplicateRecord")
      const missing = yield* Effect.either(
        repo.openDispute(disputeOf({ ...charge, id: "ch_missing" }, "du_2"))
      )
      expect(Either.isLeft(missing) && missing.left._tag).toBe("RecordNotFound")

      const updated = yield* repo.updateDispute(test, opened.id, {
        status: "under_review",
        processorUpdatedAt: T0 + 5,
        updated: T0 + 6
      })
      expect(updated).toMatchObject({
        status: "under_review",
        processorUpdatedAt: T0 + 5,
        updated: T0 + 6
      })
      expect(yield* charges.getDispute(test, opened.id)).toMatchObject({
        id: opened.id,
        status: "under_review",
        chargeId: charge.id
      })
      const elsewhere = yield* Effect.either(
        repo.updateDispute(live, opened.id, { status: "won", processorUpdatedAt: 1, updated: 1 })
      )
      expect(Either.isLeft(elsewhere) && elsewhere.left._tag).toBe("RecordNotFound")
    })
  )
}

/**
 * The storage half of the phased money path (docs/design.md §4), part of the conformance suite:
 * a pending charge found again by its client key, settled once (its event and idempotency
 * response with it), claimed by the recovery sweeper once per lease even by concurrent
 * claimers; refunds reserve their amounts while pending and release them when they fail.
 */
import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { AccountRepository } from "../src/AccountRepository.js"
import {
  ChargeRepository,
  type ChargeRepositoryService,
  type NewCharge,
  type Processing,
  type StoredCharge
} from "../src/ChargeRepository.js"
import { EventRepository } from "../src/EventRepository.js"
import { IdempotencyRepository } from "../src/IdempotencyRepository.js"
import { timeOrdered } from "../src/Ids.js"
import type * as Storage from "../src/Storage.js"
import type { Tenant } from "../src/Tenant.js"

const nextId = timeOrdered()
const T0 = 1_760_000_000
/** Far beyond any lease the server sets: the sweeper's "now" in these tests. */
const LATER = Date.now() + 10 * 365 * 24 * 3600 * 1000

/** The conformance suite's `it`, as far as these cases use it. */
export interface EffectIt {
  readonly effect: (
    name: string,
    self: () => Effect.Effect<unknown, unknown, Storage.Repositories>
  ) => void
}

const freshTenant = Effect.gen(function* () {
  const id = nextId("acct")
  yield* (yield* AccountRepository).createAccount({ id, name: id, created: T0 })
  return { accountId: id, livemode: false } as Tenant
})

const pending = (tenant: Tenant, fields: Partial<NewCharge & Processing> = {}) => {
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
    status: "pending" as const,
    customer: null,
    description: null,
    metadata: {},
    region: "US-NY",
    cardType: "credit",
    feeBreakdown: { percentage: 290, flatFee: 30, adjustment: 0 },
    compliance: null,
    failureCode: null,
    failureMessage: null,
    details: { source: "tok_visa" },
    processor: "simulator",
    processorKey: `levy_${id}`,
    idempotencyKey: null,
    requestFingerprint: null,
    processorReference: null,
    recoverAfterMs: Date.now() + 60_000,
    ...fields
  }
}

const eventOf = (charge: StoredCharge, type: string) => ({
  id: nextId("evt"),
  accountId: charge.accountId,
  livemode: charge.livemode,
  type,
  data: { object: { id: charge.id, status: charge.status } },
  request: charge.idempotencyKey === null ? null : { idempotencyKey: charge.idempotencyKey },
  created: charge.created
})

const eventTypes = (tenant: Tenant, id: string) =>
  Effect.flatMap(EventRepository, (events) =>
    Effect.map(events.list(tenant, { limit: 100 }), (page) =>
      page.data
        .filter((e) => (e.data.object as { id?: string; charge?: string }).id === id)
        .map((e) => e.type)
    )
  )

const succeed = (charges: ChargeRepositoryService, tenant: Tenant, id: string, key?: string) =>
  charges.settleCharge(
    tenant,
    id,
    { status: "succeeded", processorReference: "pay_1", details: { source: "tok_visa" } },
    (settled) => ({
      events: [eventOf(settled, "charge.succeeded")],
      idempotency:
        key === undefined
          ? undefined
          : { key, fingerprint: "fp", response: { outcome: "succeeded", body: { id: settled.id } } }
    })
  )

export const chargePhaseCases = (it: EffectIt) => {
  it.effect("a pending charge: found by its client key, unique per tenant by either key", () =>
    Effect.gen(function* () {
      const tenant = yield* freshTenant
      const charges = yield* ChargeRepository
      const first = pending(tenant, { idempotencyKey: "order-1", requestFingerprint: "fp" })
      const begun = yield* charges.beginCharge(first)
      expect(begun).toMatchObject({ status: "pending", processorKey: first.processorKey })
      const found = yield* charges.findByIdempotencyKey(tenant, "order-1")
      expect(Option.map(found, (c) => c.id)).toEqual(Option.some(first.id))
      expect(yield* charges.findByIdempotencyKey({ ...tenant, livemode: true }, "order-1")).toEqual(
        Option.none()
      )
      const sameKey = yield* Effect.either(
        charges.beginCharge(pending(tenant, { idempotencyKey: "order-1" }))
      )
      expect(Either.isLeft(sameKey) && sameKey.left._tag).toBe("DuplicateRecord")
      const sameProcessorKey = yield* Effect.either(
        charges.beginCharge(pending(tenant, { processorKey: first.processorKey }))
      )
      expect(Either.isLeft(sameProcessorKey) && sameProcessorKey.left._tag).toBe("DuplicateRecord")
      // The other mode is another namespace for both keys.
      yield* charges.beginCharge(
        pending(
          { ...tenant, livemode: true },
          {
            idempotencyKey: "order-1",
            processorKey: first.processorKey
          }
        )
      )
    })
  )

  it.effect("settling is conditional: once, with its event and idempotency response", () =>
    Effect.gen(function* () {
      const tenant = yield* freshTenant
      const charges = yield* ChargeRepository
      const idempotency = yield* IdempotencyRepository
      const charge = pending(tenant, { idempotencyKey: "k-settle", requestFingerprint: "fp" })
      yield* charges.beginCharge(charge)
      // The claim was forgotten (a 503): settling writes the response anew.
      const won = yield* succeed(charges, tenant, charge.id, "k-settle")
      expect(won.won).toBe(true)
      expect(won.record).toMatchObject({
        status: "succeeded",
        processorReference: "pay_1",
        recoverAfterMs: null
      })
      const lost = yield* succeed(charges, tenant, charge.id, "k-settle")
      expect(lost.won).toBe(false)
      expect(lost.record).toEqual(won.record)
      expect(yield* eventTypes(tenant, charge.id)).toEqual(["charge.succeeded"])
      const replay = yield* idempotency.begin(tenant, "k-settle", "fp")
      expect(replay).toEqual({
        _tag: "Replay",
        response: { outcome: "succeeded", body: { id: charge.id } }
      })
      // A claim still held (a retry in flight) is completed, not replaced.
      const held = pending(tenant, { idempotencyKey: "k-held", requestFingerprint: "fp" })
      yield* charges.beginCharge(held)
      yield* idempotency.begin(tenant, "k-held", "fp")
      yield* succeed(charges, tenant, held.id, "k-held")
      expect((yield* idempotency.get(tenant, "k-held")).state).toBe("done")
      // Another request under the key (another fingerprint) keeps its record.
      const other = pending(tenant, { idempotencyKey: "k-other", requestFingerprint: "fp" })
      yield* charges.beginCharge(other)
      yield* idempotency.begin(tenant, "k-other", "another")
      yield* succeed(charges, tenant, other.id, "k-other")
      expect((yield* idempotency.get(tenant, "k-other")).state).toBe("in_progress")
    })
  )

  it.effect("a settle that fails part-way writes nothing: the charge stays pending", () =>
    Effect.gen(function* () {
      const tenant = yield* freshTenant
      const charges = yield* ChargeRepository
      const charge = pending(tenant)
      yield* charges.beginCharge(charge)
      const taken = yield* charges
        .settleCharge(
          tenant,
          charge.id,
          { status: "succeeded", processorReference: "pay_1" },
          (settled) => {
            const event = eventOf(settled, "charge.succeeded")
            return { events: [event, event] }
          }
        )
        .pipe(Effect.either)
      expect(Either.isLeft(taken) && taken.left._tag).toBe("StorageError")
      expect((yield* charges.get(tenant, charge.id)).status).toBe("pending")
      expect(yield* eventTypes(tenant, charge.id)).toEqual([])
    })
  )

  it.effect("a settle with the processor's dispute opens it in the same transaction", () =>
    Effect.gen(function* () {
      const tenant = yield* freshTenant
      const charges = yield* ChargeRepository
      const charge = pending(tenant)
      yield* charges.beginCharge(charge)
      const dispute = {
        id: nextId("dp"),
        accountId: tenant.accountId,
        livemode: false,
        chargeId: charge.id,
        amount: 10_320,
        status: "needs_response" as const,
        reason: "fraudulent",
        created: T0,
        updated: T0
      }
      const settled = yield* charges.settleCharge(
        tenant,
        charge.id,
        { status: "succeeded", processorReference: "pay_2" },
        (c) => ({ events: [eventOf(c, "charge.succeeded")], dispute })
      )
      expect(settled.record.disputed).toBe(true)
      expect(yield* charges.getDispute(tenant, dispute.id)).toEqual(dispute)
      expect((yield* charges.get(tenant, charge.id)).disputed).toBe(true)
    })
  )

  it.effect("the sweeper claims a pending charge only once its lease expired, once per lease", () =>
    Effect.gen(function* () {
      const tenant = yield* freshTenant
      const charges = yield* ChargeRepository
      const due = pending(tenant, { recoverAfterMs: LATER - 1 })
      const notYet = pending(tenant, { recoverAfterMs: LATER + 1_000 })
      const settled = pending(tenant, { recoverAfterMs: LATER - 1 })
      for (const c of [due, notYet, settled]) yield* charges.beginCharge(c)
      yield* succeed(charges, tenant, settled.id)
      const mine = (list: ReadonlyArray<StoredCharge>) =>
        list.filter((c) => c.accountId === tenant.accountId).map((c) => c.id)
      const claim = { now: LATER, leaseMs: 60_000, limit: 1_000 }
      const first = yield* charges.claimPendingCharges(claim)
      expect(mine(first)).toEqual([due.id])
      expect(first.find((c) => c.id === due.id)?.recoverAfterMs).toBe(LATER + 60_000)
      expect(mine(yield* charges.claimPendingCharges(claim))).toEqual([])
      // A request resuming the charge moves its lease too.
      const leased = yield* charges.leaseCharge(tenant, notYet.id, LATER + 600_000)
      expect(leased.recoverAfterMs).toBe(LATER + 600_000)
      const after = yield* charges.claimPendingCharges({ ...claim, now: LATER + 61_000 })
      expect(mine(after)).toEqual([due.id])
    })
  )

  it.effect("concurrent sweepers never take the same pending charge", () =>
    Effect.gen(function* () {
      const tenant = yield* freshTenant
      const charges = yield* ChargeRepository
      const now = LATER + 5_000_000
      const ids = new Set<string>()
      for (let i = 0; i < 12; i++) {
        const c = pending(tenant, { recoverAfterMs: now - 1 - i })
        ids.add(c.id)
        yield* charges.beginCharge(c)
      }
      const claims = yield* Effect.all(
        Array.from({ length: 4 }, () =>
          charges.claimPendingCharges({ now, leaseMs: 60_000, limit: 5 })
        ),
        { concurrency: "unbounded" }
      )
      const taken = claims
        .flat()
        .filter((c) => ids.has(c.id))
        .map((c) => c.id)
      expect(new Set(taken).size).toBe(taken.length)
      expect(taken.length).toBeGreaterThan(0)
    })
  )

  it.effect("a pending refund reserves its amounts; failing releases them; settling is once", () =>
    Effect.gen(function* () {
      const tenant = yield* freshTenant
      const charges = yield* ChargeRepository
      const charge = pending(tenant)
      yield* charges.beginCharge(charge)
      yield* succeed(charges, tenant, charge.id)
      const refund = (amount: number, feeAmount: number, key: string) => ({
        id: nextId("re"),
        accountId: tenant.accountId,
        livemode: false,
        chargeId: charge.id,
        amount,
        feeAmount,
        reason: null,
        status: "pending",
        created: T0 + 1,
        metadata: {},
        processor: "simulator",
        processorKey: `levy_${key}`,
        idempotencyKey: key,
        requestFingerprint: "fp",
        processorReference: null,
        recoverAfterMs: LATER - 1
      })
      const first = yield* charges.refund(refund(6_192, 192, "r-1"))
      expect(first.charge).toMatchObject({ amountRefunded: 6_192, feeRefunded: 192 })
      expect(first.refund).toMatchObject({ status: "pending", idempotencyKey: "r-1" })
      // The reservation holds: a second refund cannot take more than what is left.
      const over = yield* Effect.either(charges.refund(refund(5_000, 0, "r-2")))
      expect(Either.isLeft(over) && over.left._tag).toBe("RefundTooLarge")
      const found = yield* charges.findRefundByIdempotencyKey(tenant, "r-1")
      expect(Option.map(found, (r) => r.id)).toEqual(Option.some(first.refund.id))
      const mine = (list: ReadonlyArray<{ readonly id: string }>) =>
        list.filter((r) => r.id === first.refund.id)
      expect(
        mine(yield* charges.claimPendingRefunds({ now: LATER, leaseMs: 60_000, limit: 1_000 }))
      ).toHaveLength(1)
      const failed = yield* charges.settleRefund(
        tenant,
        first.refund.id,
        {
          status: "failed",
          amount: 0,
          feeAmount: 0,
          processorReference: null,
          failureCode: "refund_failed",
          failureMessage: "too old"
        },
        () => ({ events: [] })
      )
      expect(failed.won).toBe(true)
      expect(failed.record.refund).toMatchObject({ status: "failed", failureCode: "refund_failed" })
      expect(failed.record.charge).toMatchObject({ amountRefunded: 0, feeRefunded: 0 })
      const again = yield* charges.settleRefund(
        tenant,
        first.refund.id,
        { status: "succeeded", amount: 6_192, feeAmount: 192, processorReference: "re_1" },
        () => ({ events: [] })
      )
      expect(again.won).toBe(false)
      expect(again.record.refund.status).toBe("failed")
      // Released: the whole charge can be refunded now, and a succeeded refund keeps its share.
      const whole = yield* charges.refund(refund(10_320, 320, "r-3"))
      const done = yield* charges.settleRefund(
        tenant,
        whole.refund.id,
        { status: "succeeded", amount: 10_320, feeAmount: 320, processorReference: "re_2" },
        (r, c) => ({
          events: [eventOf(c, "charge.refunded")],
          idempotency: {
            key: "r-3",
            fingerprint: "fp",
            response: { outcome: "succeeded", body: { id: r.id } }
          }
        })
      )
      expect(done.record.charge).toMatchObject({ amountRefunded: 10_320, refunded: true })
      expect(done.record.refund).toMatchObject({ status: "succeeded", processorReference: "re_2" })
      expect(yield* eventTypes(tenant, charge.id)).toContain("charge.refunded")
    })
  )

  it.effect("a succeeded refund failed later gives its amounts back, once, with its events", () =>
    Effect.gen(function* () {
      const tenant = yield* freshTenant
      const charges = yield* ChargeRepository
      const charge = pending(tenant)
      yield* charges.beginCharge(charge)
      yield* succeed(charges, tenant, charge.id)
      const refund = (amount: number, feeAmount: number, status: string) => ({
        id: nextId("re"),
        accountId: tenant.accountId,
        livemode: false,
        chargeId: charge.id,
        amount,
        feeAmount,
        reason: null,
        status,
        created: T0 + 1,
        metadata: {},
        processor: "stripe",
        processorReference: `re_proc_${nextId("x")}`
      })
      const whole = yield* charges.refund(refund(10_320, 320, "succeeded"))
      expect(whole.charge).toMatchObject({ amountRefunded: 10_320, refunded: true })
      const failure = { failureCode: "expired_or_canceled_card", failureMessage: "card closed" }
      const failed = yield* charges.failRefund(tenant, whole.refund.id, failure, (_, c) => ({
        events: [eventOf(c, "refund.failed")]
      }))
      expect(failed.won).toBe(true)
      expect(failed.record.refund).toMatchObject({ status: "failed", ...failure })
      expect(failed.record.charge).toMatchObject({
        amountRefunded: 0,
        feeRefunded: 0,
        refunded: false
      })
      expect(yield* charges.get(tenant, charge.id)).toMatchObject({
        amountRefunded: 0,
        feeRefunded: 0,
        refunded: false
      })
      expect(yield* charges.getRefund(tenant, whole.refund.id)).toMatchObject({ status: "failed" })
      // Again: the refund is failed already; nothing changes and no event is written.
      const again = yield* charges.failRefund(tenant, whole.refund.id, failure, (_, c) => ({
        events: [eventOf(c, "refund.failed")]
      }))
      expect(again.won).toBe(false)
      expect((yield* eventTypes(tenant, charge.id)).filter((t) => t === "refund.failed")).toEqual([
        "refund.failed"
      ])
      // A pending refund is left to its own phases.
      const reserved = yield* charges.refund(refund(1_032, 32, "pending"))
      const notYet = yield* charges.failRefund(tenant, reserved.refund.id, failure, () => ({
        events: []
      }))
      expect(notYet.won).toBe(false)
      expect(notYet.record.charge).toMatchObject({ amountRefunded: 1_032, feeRefunded: 32 })
      // The money given back can be refunded again, up to the total and no further.
      const rest = yield* charges.refund(refund(9_288, 288, "succeeded"))
      expect(rest.charge).toMatchObject({ amountRefunded: 10_320, refunded: true })
      const over = yield* Effect.either(charges.refund(refund(1, 0, "succeeded")))
      expect(Either.isLeft(over) && over.left._tag).toBe("RefundTooLarge")
      const unknown = yield* Effect.either(
        charges.failRefund(tenant, "re_none", failure, () => ({ events: [] }))
      )
      expect(Either.isLeft(unknown) && unknown.left._tag).toBe("RecordNotFound")
    })
  )
}

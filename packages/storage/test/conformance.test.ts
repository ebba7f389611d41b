/**
 * The storage contract, written once and run against every store (memory, PostgreSQL,
 * embedded PGlite). Each test works in its own fresh account, so tests share a store.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Clock, Effect, Either, Exit, Option } from "effect"
import { AccountRepository } from "../src/AccountRepository.js"
import { type Charge, ChargeRepository, type NewCharge } from "../src/ChargeRepository.js"
import { EventRepository } from "../src/EventRepository.js"
import { FeeConfigRepository } from "../src/FeeConfigRepository.js"
import {
  CLAIM_LEASE_MS,
  IdempotencyRepository,
  type StoredResponse
} from "../src/IdempotencyRepository.js"
import { random36, timeOrdered } from "../src/Ids.js"
import type { JsonObject } from "../src/Json.js"
import * as Page from "../src/Page.js"
import {
  type ProcessorChangeRequest,
  ProcessorConfigRepository
} from "../src/ProcessorConfigRepository.js"
import type { Tenant } from "../src/Tenant.js"
import { Transactions } from "../src/Transactions.js"
import { WebhookDeliveryRepository } from "../src/WebhookDeliveryRepository.js"
import { WebhookEndpointRepository } from "../src/WebhookEndpointRepository.js"
import { chargePhaseCases } from "./chargePhases.js"
import { processorNotificationCases } from "./processorNotifications.js"
import { rulesetNoticeCases } from "./rulesetNotices.js"
import { stores } from "./stores.js"
import { webhookLimitCases } from "./webhookLimits.js"

const nextId = timeOrdered()
const T0 = 1_760_000_000

/** A fresh account; its test-mode tenant, and the live one. */
const freshAccount = Effect.gen(function* () {
  const accounts = yield* AccountRepository
  const id = nextId("acct")
  yield* accounts.createAccount({ id, name: `test ${id}`, created: T0 })
  return {
    test: { accountId: id, livemode: false } as Tenant,
    live: { accountId: id, livemode: true } as Tenant
  }
})

const newCharge = (tenant: Tenant, fields: Partial<NewCharge> = {}): NewCharge => {
  const amount = fields.amount ?? 10_000
  const fee = fields.convenienceFee ?? 320
  return {
    id: nextId("ch"),
    accountId: tenant.accountId,
    livemode: tenant.livemode,
    created: T0,
    amount,
    convenienceFee: fee,
    totalAmount: amount + fee,
    currency: "usd",
    status: "succeeded",
    customer: null,
    description: null,
    metadata: {},
    region: "US-NY",
    cardType: "credit",
    feeBreakdown: { percentage: 290, flatFee: 30, adjustment: 0 },
    compliance: { compliant: true, reasonCode: null, reason: null, rulesetVersion: "2025.1" },
    failureCode: null,
    failureMessage: null,
    details: { source: "tok_visa" },
    ...fields
  }
}

const eventFor = (charge: Charge | NewCharge) => ({
  id: nextId("evt"),
  accountId: charge.accountId,
  livemode: charge.livemode,
  type: "charge.succeeded",
  data: { object: { id: charge.id, amount: charge.amount } },
  request: null,
  created: charge.created
})

/** Runs an effect with the clock `ms` ahead of real time. */
const clockAhead =
  (ms: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withClock(effect, {
      [Clock.ClockTypeId]: Clock.ClockTypeId,
      unsafeCurrentTimeMillis: () => Date.now() + ms,
      currentTimeMillis: Effect.sync(() => Date.now() + ms),
      unsafeCurrentTimeNanos: () => BigInt(Date.now() + ms) * 1_000_000n,
      currentTimeNanos: Effect.sync(() => BigInt(Date.now() + ms) * 1_000_000n),
      sleep: Effect.sleep
    })

/** Every page of a list, following `starting_after`. */
const walk = <A extends { readonly id: string }>(
  page: (request: Page.PageRequest) => Effect.Effect<Page.Page<A>, unknown>,
  request: Page.PageRequest
) =>
  Effect.gen(function* () {
    const pages: Array<Page.Page<A>> = []
    let cursor: string | undefined
    for (;;) {
      const p = yield* page({ ...request, startingAfter: cursor })
      pages.push(p)
      if (!p.hasMore) return pages
      cursor = p.data[p.data.length - 1]!.id
    }
  })

const ids = (items: ReadonlyArray<{ readonly id: string }>) => items.map((i) => i.id)

/** A live Stripe account's configuration held for approval, asked by key_a against none. */
const heldSave = (fields: Partial<ProcessorChangeRequest> = {}): ProcessorChangeRequest => ({
  id: nextId("pcc"),
  action: "save",
  processor: "stripe",
  credentials: { secretKey: "sk_live_x" },
  surcharge: false,
  requestedBy: "key_a",
  at: T0,
  expected: null,
  ...fields
})

/** key_b's approval of the held change `id`, checking nothing more. */
const approvalOf = (id: string, at = T0) => ({ id, by: "key_b", at, check: () => Effect.void })

for (const store of stores) {
  if (store.skip) {
    describe.skip(`storage conformance: ${store.name} (PostgreSQL unreachable)`, () => {})
    continue
  }
  layer(store.layer, { excludeTestServices: true, timeout: 60_000 })(
    `storage conformance: ${store.name}`,
    (it) => {
      chargePhaseCases(it)
      processorNotificationCases(it)
      rulesetNoticeCases(it)
      webhookLimitCases(it)

      it.effect(
        "a charge, its idempotency record and its event commit together or not at all",
        () =>
          Effect.gen(function* () {
            const { test } = yield* freshAccount
            const tx = yield* Transactions
            const charges = yield* ChargeRepository
            const events = yield* EventRepository
            const idempotency = yield* IdempotencyRepository
            const write = (charge: NewCharge, key: string, failAt: "between" | "end" | "never") =>
              tx.run(
                Effect.gen(function* () {
                  yield* idempotency.begin(test, key, "fp")
                  yield* charges.insert(charge)
                  if (failAt === "between") yield* Effect.fail("injected failure" as const)
                  yield* events.insert(eventFor(charge))
                  yield* idempotency.complete(test, key, {
                    outcome: "succeeded",
                    body: { id: charge.id }
                  })
                  if (failAt === "end") yield* Effect.fail("injected failure" as const)
                })
              )
            for (const failAt of ["between", "end"] as const) {
              const charge = newCharge(test)
              const exit = yield* Effect.exit(write(charge, `key-${failAt}`, failAt))
              expect(Exit.isFailure(exit)).toBe(true)
              expect((yield* Effect.either(charges.get(test, charge.id)))._tag).toBe("Left")
              expect((yield* Effect.either(idempotency.get(test, `key-${failAt}`)))._tag).toBe(
                "Left"
              )
            }
            expect((yield* events.list(test, {})).data).toEqual([])
            expect((yield* charges.list(test, {})).data).toEqual([])
            // And the same writes without a failure all commit.
            const charge = newCharge(test)
            yield* write(charge, "key-ok", "never")
            expect((yield* charges.get(test, charge.id)).id).toBe(charge.id)
            expect((yield* idempotency.get(test, "key-ok")).state).toBe("done")
            expect(ids((yield* events.list(test, {})).data)).toHaveLength(1)
          })
      )

      it.effect("50 concurrent creates with one idempotency key make exactly one charge", () =>
        Effect.gen(function* () {
          const tx = yield* Transactions
          const charges = yield* ChargeRepository
          const events = yield* EventRepository
          const idempotency = yield* IdempotencyRepository
          // Both ways of writing: separate calls, and ChargeRepository.create.
          for (const way of ["separate", "create"] as const) {
            const { test } = yield* freshAccount
            const attempt = tx
              .run(
                Effect.gen(function* () {
                  const begun = yield* idempotency.begin(test, "same-key", "fp-1")
                  if (begun._tag === "Replay") {
                    return { kind: "replay" as const, response: begun.response }
                  }
                  const charge = newCharge(test)
                  const response: StoredResponse = {
                    outcome: "succeeded",
                    body: { id: charge.id, amount: charge.amount }
                  }
                  if (way === "create") {
                    yield* charges.create({
                      charge,
                      event: eventFor(charge),
                      idempotency: { key: "same-key", response }
                    })
                  } else {
                    yield* charges.insert(charge)
                    yield* events.insert(eventFor(charge))
                    yield* idempotency.complete(test, "same-key", response)
                  }
                  return { kind: "created" as const, response }
                })
              )
              .pipe(
                Effect.catchTag("IdempotencyKeyInUse", () =>
                  Effect.succeed({ kind: "in_progress" as const })
                )
              )
            const results = yield* Effect.all(
              Array.from({ length: 50 }, () => attempt),
              { concurrency: "unbounded" }
            )
            const created = results.filter((r) => r.kind === "created")
            expect(created).toHaveLength(1)
            const stored = created[0]!.response
            for (const r of results) {
              if (r.kind === "replay") expect(r.response).toEqual(stored)
            }
            const all = yield* charges.list(test, { limit: 100 })
            expect(ids(all.data)).toEqual([(stored.body as { id: string }).id])
            expect((yield* events.list(test, { limit: 100 })).data).toHaveLength(1)
            expect((yield* idempotency.get(test, "same-key")).response).toEqual(stored)
          }
        })
      )

      it.effect("ChargeRepository.create writes charge, event and response all or nothing", () =>
        Effect.gen(function* () {
          const { test } = yield* freshAccount
          const charges = yield* ChargeRepository
          const events = yield* EventRepository
          const idempotency = yield* IdempotencyRepository
          const response: StoredResponse = { outcome: "succeeded", body: { ok: true } }
          // The key was never claimed: nothing is written.
          const orphan = newCharge(test)
          const unclaimed = yield* Effect.either(
            charges.create({
              charge: orphan,
              event: eventFor(orphan),
              idempotency: { key: "never-claimed", response }
            })
          )
          expect(Either.isLeft(unclaimed) && unclaimed.left).toMatchObject({
            _tag: "RecordNotFound",
            entity: "idempotency_record"
          })
          expect((yield* Effect.either(charges.get(test, orphan.id)))._tag).toBe("Left")
          // The event already exists: no charge, and the claim stays in progress.
          const first = newCharge(test)
          const firstEvent = eventFor(first)
          yield* charges.create({ charge: first, event: firstEvent })
          yield* idempotency.begin(test, "claimed", "fp")
          const second = newCharge(test)
          const clash = yield* Effect.either(
            charges.create({
              charge: second,
              event: { ...eventFor(second), id: firstEvent.id },
              idempotency: { key: "claimed", response }
            })
          )
          expect(Either.isLeft(clash) && clash.left).toMatchObject({
            _tag: "DuplicateRecord",
            entity: "event"
          })
          expect((yield* Effect.either(charges.get(test, second.id)))._tag).toBe("Left")
          expect((yield* idempotency.get(test, "claimed")).state).toBe("in_progress")
          // The charge id already exists.
          const dup = yield* Effect.either(
            charges.create({ charge: { ...second, id: first.id }, event: eventFor(second) })
          )
          expect(Either.isLeft(dup) && dup.left).toMatchObject({
            _tag: "DuplicateRecord",
            entity: "charge"
          })
          expect(ids((yield* charges.list(test, {})).data)).toEqual([first.id])
          expect(ids((yield* events.list(test, {})).data)).toEqual([firstEvent.id])
          // And a good one stores all three.
          const third = yield* charges.create({
            charge: second,
            event: eventFor(second),
            idempotency: { key: "claimed", response }
          })
          expect(third).toMatchObject({ id: second.id, amountRefunded: 0, refunded: false })
          expect((yield* charges.get(test, second.id)).metadata).toEqual(second.metadata)
          expect(yield* idempotency.begin(test, "claimed", "fp")).toEqual({
            _tag: "Replay",
            response
          })
        })
      )

      it.effect(
        "idempotency outside a transaction: in progress, replay, reuse, release, expiry",
        () =>
          Effect.gen(function* () {
            const { test, live } = yield* freshAccount
            const idempotency = yield* IdempotencyRepository
            const first = yield* idempotency.begin(test, "k", "fp")
            expect(first._tag).toBe("Started")
            if (first._tag === "Started") {
              expect(first.record.expiresAtMs - first.record.createdMs).toBe(24 * 60 * 60 * 1000)
            }
            const inUse = yield* Effect.either(idempotency.begin(test, "k", "fp"))
            expect(Either.isLeft(inUse) && inUse.left._tag).toBe("IdempotencyKeyInUse")
            const reused = yield* Effect.either(idempotency.begin(test, "k", "other"))
            expect(Either.isLeft(reused) && reused.left._tag).toBe("IdempotencyKeyReused")
            // The same key in the other mode is another key.
            expect((yield* idempotency.begin(live, "k", "fp"))._tag).toBe("Started")
            yield* idempotency.complete(test, "k", { outcome: "failed", record: "refund" })
            expect(yield* idempotency.begin(test, "k", "fp")).toEqual({
              _tag: "Replay",
              response: { outcome: "failed", record: "refund" }
            })
            // Released claims can be taken again; done records are not released.
            yield* idempotency.release(live, "k")
            expect((yield* idempotency.begin(live, "k", "fp"))._tag).toBe("Started")
            yield* idempotency.release(test, "k")
            expect((yield* idempotency.begin(test, "k", "fp"))._tag).toBe("Replay")
            // A record past its expiry is replaced by a new claim.
            const later = clockAhead(24 * 60 * 60 * 1000 + 1)
            expect((yield* later(idempotency.begin(test, "k", "another-request")))._tag).toBe(
              "Started"
            )
            // Purging removes what has expired, and only that.
            yield* idempotency.purgeExpired
            expect((yield* idempotency.get(live, "k")).state).toBe("in_progress")
            const purged = yield* clockAhead(3 * 24 * 60 * 60 * 1000)(idempotency.purgeExpired)
            expect(purged).toBeGreaterThanOrEqual(2)
            expect((yield* Effect.either(idempotency.get(test, "k")))._tag).toBe("Left")
            expect((yield* Effect.either(idempotency.get(live, "k")))._tag).toBe("Left")
          })
      )

      it.effect(
        "an in-progress claim older than the lease is abandoned; a done record is not",
        () =>
          Effect.gen(function* () {
            const { test } = yield* freshAccount
            const idempotency = yield* IdempotencyRepository
            yield* idempotency.begin(test, "crashed", "fp")
            yield* idempotency.begin(test, "finished", "fp")
            yield* idempotency.complete(test, "finished", {
              outcome: "succeeded",
              body: { ok: true }
            })
            const justBefore = clockAhead(CLAIM_LEASE_MS - 1000)
            const inUse = yield* Effect.either(justBefore(idempotency.begin(test, "crashed", "fp")))
            expect(Either.isLeft(inUse) && inUse.left._tag).toBe("IdempotencyKeyInUse")
            const after = clockAhead(CLAIM_LEASE_MS + 1000)
            expect((yield* after(idempotency.begin(test, "crashed", "fp")))._tag).toBe("Started")
            expect((yield* after(idempotency.begin(test, "finished", "fp")))._tag).toBe("Replay")
          })
      )

      it.effect(
        "two concurrent delivery claimers never get the same delivery; expired leases return",
        () =>
          Effect.gen(function* () {
            const { test } = yield* freshAccount
            const endpoints = yield* WebhookEndpointRepository
            const events = yield* EventRepository
            const deliveries = yield* WebhookDeliveryRepository
            const endpoint = yield* endpoints.create({
              id: nextId("we"),
              accountId: test.accountId,
              livemode: false,
              url: "http://localhost:4242/hook",
              enabledEvents: ["*"],
              status: "enabled",
              description: null,
              created: T0,
              secret: `whsec_dev_${random36(24)}`
            })
            const mine = new Set<string>()
            for (let i = 0; i < 20; i++) {
              const event = yield* events.insert(eventFor(newCharge(test)))
              for (const d of yield* deliveries.enqueue(test, event.id, [endpoint.id]))
                mine.add(d.id)
              // Enqueuing again creates nothing.
              expect(yield* deliveries.enqueue(test, event.id, [endpoint.id])).toEqual([])
            }
            expect(mine.size).toBe(20)
            const claimer = (owner: string) =>
              Effect.gen(function* () {
                const got: Array<string> = []
                for (let round = 0; ; round++) {
                  // 21 rounds of 3 cover every delivery; more means one was claimed twice.
                  expect(round).toBeLessThan(40)
                  const batch = yield* deliveries.claim({ owner, limit: 3, leaseMs: 60_000 })
                  if (batch.length === 0) return got
                  for (const d of batch) {
                    expect(d.leaseOwner).toBe(owner)
                    if (mine.has(d.id)) got.push(d.id)
                  }
                }
              })
            const [a, b] = yield* Effect.all([claimer("worker-a"), claimer("worker-b")], {
              concurrency: 2
            })
            expect(a.filter((id) => b.includes(id))).toEqual([])
            expect(new Set([...a, ...b])).toEqual(mine)
            // All leased: nothing more to claim.
            const again = yield* deliveries.claim({
              owner: "worker-c",
              limit: 100,
              leaseMs: 60_000
            })
            expect(again.filter((d) => mine.has(d.id))).toEqual([])

            // A short lease expires and the delivery is claimable again; the old holder lost it.
            const event = yield* events.insert(eventFor(newCharge(test)))
            const [short] = yield* deliveries.enqueue(test, event.id, [endpoint.id])
            const firstClaim = yield* deliveries.claim({
              owner: "worker-d",
              limit: 100,
              leaseMs: 300
            })
            expect(ids(firstClaim)).toContain(short!.id)
            const tooSoon = yield* deliveries.claim({
              owner: "worker-e",
              limit: 100,
              leaseMs: 60_000
            })
            expect(ids(tooSoon)).not.toContain(short!.id)
            yield* Effect.sleep("400 millis")
            const reclaimed = yield* deliveries.claim({
              owner: "worker-e",
              limit: 100,
              leaseMs: 60_000
            })
            expect(ids(reclaimed)).toContain(short!.id)
            const lost = yield* Effect.either(
              deliveries.recordAttempt(test, short!.id, "worker-d", {
                statusCode: 200,
                error: null,
                durationMs: 5,
                next: "succeeded"
              })
            )
            expect(Either.isLeft(lost) && lost.left._tag).toBe("LeaseLost")

            // The holder records attempts: a retry later, then a success.
            const retry = yield* deliveries.recordAttempt(test, short!.id, "worker-e", {
              statusCode: 500,
              error: "HTTP 500",
              durationMs: 12,
              next: { retryAtMs: Date.now() + 60_000 }
            })
            expect(retry.delivery).toMatchObject({
              status: "pending",
              attempts: 1,
              leaseOwner: null
            })
            const notDue = yield* deliveries.claim({
              owner: "worker-f",
              limit: 100,
              leaseMs: 60_000
            })
            expect(ids(notDue)).not.toContain(short!.id)
            const later = yield* deliveries
              .claim({ owner: "worker-f", limit: 100, leaseMs: 60_000 })
              .pipe(clockAhead(120_000))
            expect(ids(later)).toContain(short!.id)
            const done = yield* deliveries.recordAttempt(test, short!.id, "worker-f", {
              statusCode: 204,
              error: null,
              durationMs: 3,
              next: "succeeded"
            })
            expect(done.delivery).toMatchObject({ status: "succeeded", attempts: 2 })
            const attempts = yield* deliveries.listAttempts(test, short!.id, {})
            expect(attempts.data.map((a) => [a.attempt, a.statusCode])).toEqual([
              [2, 204],
              [1, 500]
            ])
            expect(
              (yield* deliveries.list(test, { endpoint: endpoint.id, limit: 100 })).data
            ).toHaveLength(21)
          })
      )

      it.effect(
        "cursor pagination: limit, cursors, created ranges, customer; newest first; exact has_more",
        () =>
          Effect.gen(function* () {
            const { test } = yield* freshAccount
            const charges = yield* ChargeRepository
            const inserted: Array<Charge> = []
            for (let i = 0; i < 25; i++) {
              inserted.push(
                yield* charges.insert(
                  newCharge(test, {
                    created: T0 + Math.floor(i / 2),
                    customer: i % 3 === 0 ? "cus_a" : "cus_b"
                  })
                )
              )
            }
            const expected = [...inserted].sort(Page.newestFirst)
            // Ties on `created` are broken by id, descending.
            expect(expected[0]!.created).toBe(T0 + 12)
            const list = (r: Page.PageRequest & { customer?: string }) => charges.list(test, r)

            const pages = yield* walk(list, { limit: 10 })
            expect(pages.map((p) => p.data.length)).toEqual([10, 10, 5])
            expect(pages.map((p) => p.hasMore)).toEqual([true, true, false])
            expect(pages.flatMap((p) => ids(p.data))).toEqual(ids(expected))
            // has_more is exact when the rest fits the page exactly.
            const exact = yield* list({ limit: 5, startingAfter: expected[19]!.id })
            expect(ids(exact.data)).toEqual(ids(expected.slice(20)))
            expect(exact.hasMore).toBe(false)
            // Default and clamped limits.
            expect((yield* list({})).data).toHaveLength(10)
            expect((yield* list({ limit: 1000 })).data).toHaveLength(25)
            expect((yield* list({ limit: 0 })).data).toHaveLength(1)

            // ending_before walks back towards the newest.
            const before = yield* list({ limit: 10, endingBefore: expected[20]!.id })
            expect(ids(before.data)).toEqual(ids(expected.slice(10, 20)))
            expect(before.hasMore).toBe(true)
            const top = yield* list({ limit: 10, endingBefore: expected[5]!.id })
            expect(ids(top.data)).toEqual(ids(expected.slice(0, 5)))
            expect(top.hasMore).toBe(false)

            // created ranges.
            const range = { gte: T0 + 3, lt: T0 + 9 }
            expect(ids((yield* list({ limit: 100, created: range })).data)).toEqual(
              ids(expected.filter((c) => c.created >= T0 + 3 && c.created < T0 + 9))
            )
            const range2 = { gt: T0 + 3, lte: T0 + 9 }
            expect(ids((yield* list({ limit: 100, created: range2 })).data)).toEqual(
              ids(expected.filter((c) => c.created > T0 + 3 && c.created <= T0 + 9))
            )
            // customer, paged.
            const forA = expected.filter((c) => c.customer === "cus_a")
            const aPages = yield* walk((r) => list({ ...r, customer: "cus_a" }), { limit: 4 })
            expect(aPages.flatMap((p) => ids(p.data))).toEqual(ids(forA))
            expect(aPages.map((p) => p.hasMore)).toEqual([true, true, false])

            // Stable while new rows arrive: the next page does not shift.
            const first = yield* list({ limit: 10 })
            for (let i = 0; i < 5; i++)
              yield* charges.insert(newCharge(test, { created: T0 + 100 + i }))
            const second = yield* list({ limit: 10, startingAfter: first.data[9]!.id })
            expect(ids(second.data)).toEqual(ids(expected.slice(10, 20)))

            // An unknown cursor (or another account's id) is a missing record.
            const unknown = yield* Effect.either(list({ startingAfter: "ch_doesnotexist" }))
            expect(Either.isLeft(unknown) && unknown.left._tag).toBe("RecordNotFound")
          })
      )

      it.effect("getMany reads the tenant's charges among the ids at once, nobody else's", () =>
        Effect.gen(function* () {
          const mine = yield* freshAccount
          const other = yield* freshAccount
          const charges = yield* ChargeRepository
          const a = yield* charges.insert(newCharge(mine.test))
          const b = yield* charges.insert(newCharge(mine.test, { currency: "eur" }))
          const live = yield* charges.insert(newCharge(mine.live))
          const theirs = yield* charges.insert(newCharge(other.test))
          const found = yield* charges.getMany(mine.test, [
            b.id,
            a.id,
            live.id,
            theirs.id,
            "ch_missing",
            a.id
          ])
          expect(found.map((c) => [c.id, c.currency]).sort()).toEqual(
            [
              [a.id, "usd"],
              [b.id, "eur"]
            ].sort()
          )
          expect(found.find((c) => c.id === a.id)).toEqual(yield* charges.get(mine.test, a.id))
          expect(yield* charges.getMany(mine.test, [])).toEqual([])
          expect(ids(yield* charges.getMany(mine.live, [a.id, live.id]))).toEqual([live.id])
        })
      )

      it.effect(
        "test-mode and live-mode rows never meet; another account's ids behave as missing",
        () =>
          Effect.gen(function* () {
            const mine = yield* freshAccount
            const other = yield* freshAccount
            const charges = yield* ChargeRepository
            const events = yield* EventRepository
            const endpoints = yield* WebhookEndpointRepository
            const testCharge = yield* charges.insert(newCharge(mine.test))
            const liveCharge = yield* charges.insert(
              newCharge(mine.live, { amount: 99_999_999, convenienceFee: 1 })
            )
            yield* events.insert(eventFor(testCharge))
            expect(ids((yield* charges.list(mine.test, {})).data)).toEqual([testCharge.id])
            expect(ids((yield* charges.list(mine.live, {})).data)).toEqual([liveCharge.id])
            expect((yield* Effect.either(charges.get(mine.live, testCharge.id)))._tag).toBe("Left")
            expect((yield* Effect.either(charges.get(mine.test, liveCharge.id)))._tag).toBe("Left")
            expect((yield* events.list(mine.live, {})).data).toEqual([])
            // Another account sees nothing and cannot page from our ids.
            const notFound = yield* Effect.either(charges.get(other.test, testCharge.id))
            expect(Either.isLeft(notFound) && notFound.left).toMatchObject({
              _tag: "RecordNotFound",
              entity: "charge"
            })
            expect((yield* charges.list(other.test, {})).data).toEqual([])
            const cursor = yield* Effect.either(
              charges.list(other.test, { startingAfter: testCharge.id })
            )
            expect(Either.isLeft(cursor) && cursor.left._tag).toBe("RecordNotFound")
            const refund = yield* Effect.either(
              charges.refund({
                id: nextId("re"),
                accountId: other.test.accountId,
                livemode: false,
                chargeId: testCharge.id,
                amount: 100,
                feeAmount: 0,
                reason: null,
                status: "succeeded",
                created: T0,
                metadata: {}
              })
            )
            expect(Either.isLeft(refund) && refund.left._tag).toBe("RecordNotFound")
            const endpoint = yield* endpoints.create({
              id: nextId("we"),
              accountId: mine.live.accountId,
              livemode: true,
              url: "https://example.com/hook",
              enabledEvents: ["charge.succeeded"],
              status: "enabled",
              description: "live",
              created: T0,
              secret: "whsec_prod_secret"
            })
            expect((yield* Effect.either(endpoints.get(mine.test, endpoint.id)))._tag).toBe("Left")
            expect((yield* Effect.either(endpoints.secret(other.live, endpoint.id)))._tag).toBe(
              "Left"
            )
            expect(yield* endpoints.secret(mine.live, endpoint.id)).toBe("whsec_prod_secret")
            expect(ids(yield* endpoints.subscribedTo(mine.live, "charge.succeeded"))).toEqual([
              endpoint.id
            ])
            expect(yield* endpoints.subscribedTo(mine.test, "charge.succeeded")).toEqual([])
            // Money comes back as numbers, exactly.
            const back = yield* charges.get(mine.live, liveCharge.id)
            expect(back.amount).toBe(99_999_999)
            expect(typeof back.totalAmount).toBe("number")
            expect(back.totalAmount).toBe(100_000_000)
          })
      )

      it.effect("fee configuration: pending change stored, approved, cancelled; history kept", () =>
        Effect.gen(function* () {
          const { live, test } = yield* freshAccount
          const configs = yield* FeeConfigRepository
          const initial = {
            percentage: "2.9",
            flatFee: 30,
            minAmount: 50,
            maxAmount: null,
            billingMode: "direct"
          }
          yield* configs.initialize(live, initial, T0)
          const twice = yield* Effect.either(configs.initialize(live, initial, T0))
          expect(Either.isLeft(twice) && twice.left._tag).toBe("DuplicateRecord")
          expect(Option.getOrThrow(yield* configs.get(live)).config).toEqual(initial)
          expect(yield* configs.get(test)).toEqual(Option.none())

          const raise = yield* configs.request(live, {
            id: nextId("fcc"),
            changes: { percentage: "3.5" },
            requestedBy: "key_a",
            at: T0 + 10,
            expected: 0
          })
          expect(raise.status).toBe("pending")
          const second = yield* Effect.either(
            configs.request(live, {
              id: nextId("fcc"),
              changes: { flatFee: 50 },
              requestedBy: "key_a",
              at: T0 + 11,
              expected: 0
            })
          )
          expect(Either.isLeft(second) && second.left._tag).toBe("DuplicateRecord")
          expect(Option.getOrThrow(yield* configs.pending(live)).id).toBe(raise.id)
          expect(Option.getOrThrow(yield* configs.get(live)).config.percentage).toBe("2.9")
          // The other mode has no pending change.
          expect(yield* configs.pending(test)).toEqual(Option.none())

          const ok = () => Effect.void
          // Naming another change, or a check that refuses, applies nothing.
          const other = yield* Effect.either(
            configs.approve(live, { id: nextId("fcc"), by: "key_b", at: T0 + 15, check: ok })
          )
          expect(Either.isLeft(other) && other.left._tag).toBe("RecordNotFound")
          const refused = yield* Effect.either(
            configs.approve(live, {
              id: raise.id,
              by: "key_a",
              at: T0 + 16,
              check: (pending, config) =>
                Effect.fail({ requestedBy: pending.requestedBy, config } as const)
            })
          )
          expect(refused).toEqual(Either.left({ requestedBy: "key_a", config: initial }))
          expect(Option.getOrThrow(yield* configs.pending(live)).id).toBe(raise.id)
          expect(Option.getOrThrow(yield* configs.get(live)).config.percentage).toBe("2.9")

          const approved = yield* configs.approve(live, {
            id: raise.id,
            by: "key_b",
            at: T0 + 20,
            check: ok
          })
          expect(approved.config.config).toEqual({ ...initial, percentage: "3.5" })
          expect(approved.config.updated).toBe(T0 + 20)
          expect(approved.config.version).toBe(1)
          expect(approved.change).toMatchObject({
            id: raise.id,
            status: "applied",
            resolvedBy: "key_b",
            previous: initial
          })
          expect(yield* configs.pending(live)).toEqual(Option.none())
          const none = yield* Effect.either(
            configs.approve(live, { id: raise.id, by: "key_b", at: T0 + 21, check: ok })
          )
          expect(Either.isLeft(none) && none.left._tag).toBe("RecordNotFound")

          const dropped = yield* configs.request(live, {
            id: nextId("fcc"),
            changes: { flatFee: 99 },
            requestedBy: "key_a",
            at: T0 + 30,
            expected: 1
          })
          const cancelled = yield* configs.cancel(live, { by: "cli", at: T0 + 31 })
          expect(cancelled).toMatchObject({
            id: dropped.id,
            status: "cancelled",
            resolvedBy: "cli"
          })
          expect(Option.getOrThrow(yield* configs.get(live)).config.flatFee).toBe(30)

          const lower = yield* configs.apply(live, {
            id: nextId("fcc"),
            changes: { percentage: "2.5" },
            config: { ...initial, percentage: "2.5" },
            requestedBy: "key_a",
            at: T0 + 40,
            expected: 1
          })
          expect(lower.config.config.percentage).toBe("2.5")
          expect(lower.config.version).toBe(2)
          expect(lower.change.previous).toEqual({ ...initial, percentage: "3.5" })
          const history = yield* configs.history(live, {})
          expect(history.data.map((c) => [c.id, c.status])).toEqual([
            [lower.change.id, "applied"],
            [dropped.id, "cancelled"],
            [raise.id, "applied"]
          ])
          expect((yield* configs.history(test, {})).data).toEqual([])
        })
      )

      it.effect(
        "fee configuration writes are compare-and-set on its version; a held change is bound to its",
        () =>
          Effect.gen(function* () {
            const { live } = yield* freshAccount
            const configs = yield* FeeConfigRepository
            const change = (expected: number, config: JsonObject, at: number) => ({
              id: nextId("fcc"),
              changes: config,
              config,
              requestedBy: "key_a",
              at,
              expected
            })
            // No row yet is version 0; a write decided against another version writes nothing.
            const stale = yield* Effect.either(
              configs.apply(live, change(1, { percentage: "9" }, T0))
            )
            expect(Either.isLeft(stale) && stale.left).toMatchObject({
              _tag: "VersionConflict",
              expected: 1,
              found: 0
            })
            expect(yield* configs.get(live)).toEqual(Option.none())
            const first = yield* configs.apply(live, change(0, { percentage: "5" }, T0 + 1))
            expect(first.config.version).toBe(1)

            // Two writes decided against the same version: exactly one is applied.
            const both = yield* Effect.all(
              [
                Effect.either(configs.apply(live, change(1, { percentage: "4" }, T0 + 2))),
                Effect.either(configs.apply(live, change(1, { percentage: "50" }, T0 + 2)))
              ],
              { concurrency: "unbounded" }
            )
            expect(both.filter(Either.isRight)).toHaveLength(1)
            expect(both.filter(Either.isLeft).map((e) => e.left._tag)).toEqual(["VersionConflict"])
            const now = Option.getOrThrow(yield* configs.get(live))
            expect(now.version).toBe(2)

            // A held change is bound to the version it was requested against.
            const late = yield* Effect.either(
              configs.request(live, { ...change(1, { maxFee: null }, T0 + 3) })
            )
            expect(Either.isLeft(late) && late.left._tag).toBe("VersionConflict")
            const held = yield* configs.request(live, change(2, { maxFee: null }, T0 + 4))
            expect(held.baseVersion).toBe(2)
            yield* configs.apply(live, change(2, { ...now.config, percentage: "50" }, T0 + 5))
            const approval = yield* Effect.either(
              configs.approve(live, {
                id: held.id,
                by: "key_b",
                at: T0 + 6,
                check: () => Effect.void
              })
            )
            expect(Either.isLeft(approval) && approval.left).toMatchObject({
              _tag: "VersionConflict",
              expected: 2,
              found: 3
            })
            // Nothing applied: the configuration and the held change are as they were.
            expect(Option.getOrThrow(yield* configs.get(live))).toMatchObject({ version: 3 })
            expect(Option.getOrThrow(yield* configs.pending(live)).id).toBe(held.id)
          })
      )

      it.effect(
        "duplicates are typed errors; refunds and disputes keep the charge consistent",
        () =>
          Effect.gen(function* () {
            const { test, live } = yield* freshAccount
            const accounts = yield* AccountRepository
            const charges = yield* ChargeRepository
            const events = yield* EventRepository
            const pending = yield* charges.insert(
              newCharge(test, { amount: 1_000, convenienceFee: 59, status: "pending" })
            )
            const charge = yield* charges.settle(test, pending.id, {
              status: "succeeded",
              details: { source: "tok_visa", transactions: ["txn_1"] }
            })
            expect(charge).toMatchObject({ status: "succeeded", failureCode: null })
            expect((yield* charges.get(test, pending.id)).details).toEqual({
              source: "tok_visa",
              transactions: ["txn_1"]
            })
            const declined = yield* charges.insert(newCharge(test, { status: "pending" }))
            const failed = yield* charges.settle(test, declined.id, {
              status: "failed",
              failureCode: "card_declined",
              failureMessage: "Your card was declined."
            })
            expect(failed).toMatchObject({ status: "failed", failureCode: "card_declined" })
            expect(failed.details).toEqual(declined.details)
            const otherMode = yield* Effect.either(
              charges.settle({ ...test, livemode: true }, declined.id, { status: "succeeded" })
            )
            expect(Either.isLeft(otherMode) && otherMode.left._tag).toBe("RecordNotFound")
            const again = yield* Effect.either(charges.insert(newCharge(test, { id: charge.id })))
            expect(Either.isLeft(again) && again.left).toMatchObject({
              _tag: "DuplicateRecord",
              entity: "charge"
            })
            const event = yield* events.insert(eventFor(charge))
            const eventAgain = yield* Effect.either(events.insert(event))
            expect(Either.isLeft(eventAgain) && eventAgain.left._tag).toBe("DuplicateRecord")
            const account = yield* accounts.getAccount(test.accountId)
            const accountAgain = yield* Effect.either(accounts.createAccount(account))
            expect(Either.isLeft(accountAgain) && accountAgain.left._tag).toBe("DuplicateRecord")

            const refund = (amount: number, feeAmount: number) =>
              charges.refund({
                id: nextId("re"),
                accountId: test.accountId,
                livemode: false,
                chargeId: charge.id,
                amount,
                feeAmount,
                reason: null,
                status: "succeeded",
                created: T0 + 1,
                metadata: {}
              })
            const partial = yield* refund(530, 29)
            expect(partial.charge).toMatchObject({
              amountRefunded: 530,
              feeRefunded: 29,
              refunded: false
            })
            const tooMuch = yield* Effect.either(refund(530, 30))
            expect(Either.isLeft(tooMuch) && tooMuch.left._tag).toBe("RefundTooLarge")
            expect((yield* charges.get(test, charge.id)).amountRefunded).toBe(530)
            const rest = yield* refund(529, 30)
            expect(rest.charge).toMatchObject({
              amountRefunded: 1_059,
              feeRefunded: 59,
              refunded: true
            })
            const refunds = yield* charges.listRefunds(test, { charge: charge.id })
            expect(ids(refunds.data)).toEqual([rest.refund.id, partial.refund.id])

            const dispute = yield* charges.openDispute({
              id: nextId("dp"),
              accountId: test.accountId,
              livemode: false,
              chargeId: charge.id,
              amount: 1_059,
              status: "needs_response",
              reason: "fraudulent",
              created: T0 + 2,
              updated: T0 + 2
            })
            expect((yield* charges.get(test, charge.id)).disputed).toBe(true)
            const won = yield* charges.updateDispute(test, dispute.id, "won", T0 + 3)
            expect(won).toMatchObject({ status: "won", updated: T0 + 3 })
            expect(ids((yield* charges.listDisputes(test, {})).data)).toEqual([dispute.id])
            expect(yield* charges.getDispute(test, dispute.id)).toEqual(won)
            expect((yield* Effect.either(charges.getDispute(live, dispute.id)))._tag).toBe("Left")
            expect(yield* charges.getRefund(test, rest.refund.id)).toEqual(rest.refund)
            expect((yield* Effect.either(charges.getRefund(live, rest.refund.id)))._tag).toBe(
              "Left"
            )
          })
      )

      it.effect("a refund planned on stale refunded amounts is refused and changes nothing", () =>
        Effect.gen(function* () {
          const { test } = yield* freshAccount
          const charges = yield* ChargeRepository
          const charge = yield* charges.insert(newCharge(test))
          const refund = (amount: number, feeAmount: number) => ({
            id: nextId("re"),
            accountId: test.accountId,
            livemode: false,
            chargeId: charge.id,
            amount,
            feeAmount,
            reason: null,
            status: "succeeded",
            created: T0 + 1,
            metadata: {}
          })
          const untouched = { amountRefunded: 0, feeRefunded: 0 }
          const first = yield* charges.refund(refund(5_160, 160), untouched)
          expect(first.charge).toMatchObject({ amountRefunded: 5_160, feeRefunded: 160 })
          const stale = refund(5_160, 160)
          const refused = yield* Effect.either(charges.refund(stale, untouched))
          expect(Either.isLeft(refused) && refused.left).toMatchObject({
            _tag: "StaleCharge",
            chargeId: charge.id
          })
          expect(yield* charges.get(test, charge.id)).toEqual(first.charge)
          expect((yield* Effect.either(charges.getRefund(test, stale.id)))._tag).toBe("Left")
          const fresh = yield* charges.refund(stale, {
            amountRefunded: 5_160,
            feeRefunded: 160
          })
          expect(fresh.charge).toMatchObject({ amountRefunded: 10_320, refunded: true })
        })
      )

      it.effect(
        "a charge's notes change only from what the editor read: a stale edit is refused, the other's kept",
        () =>
          Effect.gen(function* () {
            const { test, live } = yield* freshAccount
            const charges = yield* ChargeRepository
            const charge = yield* charges.insert(
              newCharge(test, { description: "first", metadata: { a: "1", b: "2" } })
            )
            const read = { description: "first", metadata: { b: "2", a: "1" } }
            const edited = yield* charges.editNotes(test, charge.id, read, {
              description: null,
              metadata: { a: "1", c: "3" }
            })
            expect(edited).toMatchObject({ description: null, metadata: { a: "1", c: "3" } })
            expect(yield* charges.get(test, charge.id)).toEqual(edited)
            // A second editor who read the same notes is refused; the first one's edit stays.
            const stale = yield* Effect.either(
              charges.editNotes(test, charge.id, read, { description: "x", metadata: {} })
            )
            expect(Either.isLeft(stale) && stale.left).toMatchObject({
              _tag: "StaleCharge",
              chargeId: charge.id
            })
            expect(yield* charges.get(test, charge.id)).toEqual(edited)
            // Another mode's or account's charge is not found, not stale.
            const missing = yield* Effect.either(
              charges.editNotes(live, charge.id, read, { description: null, metadata: {} })
            )
            expect(Either.isLeft(missing) && missing.left).toMatchObject({ _tag: "RecordNotFound" })
            // Only the notes change.
            const { description: _d, metadata: _m, ...rest } = edited
            const { description: _d0, metadata: _m0, ...before } = charge
            expect(rest).toEqual(before)
          })
      )

      it.effect("disputes list by status and by charge, paging within the filter", () =>
        Effect.gen(function* () {
          const { test, live } = yield* freshAccount
          const charges = yield* ChargeRepository
          const first = yield* charges.insert(newCharge(test))
          const second = yield* charges.insert(newCharge(test))
          const open = (charge: Charge, at: number) =>
            charges.openDispute({
              id: nextId("dp"),
              accountId: test.accountId,
              livemode: false,
              chargeId: charge.id,
              amount: charge.totalAmount,
              status: "needs_response",
              reason: "general",
              created: at,
              updated: at
            })
          const a = yield* open(first, T0 + 1)
          const b = yield* open(second, T0 + 2)
          const c = yield* open(first, T0 + 3)
          yield* charges.updateDispute(test, b.id, "lost", T0 + 4)
          const byStatus = (status: "needs_response" | "won" | "lost", more = {}) =>
            Effect.map(charges.listDisputes(test, { status, ...more }), (p) => ids(p.data))
          expect(yield* byStatus("needs_response")).toEqual([c.id, a.id])
          expect(yield* byStatus("lost")).toEqual([b.id])
          expect(yield* byStatus("won")).toEqual([])
          expect(yield* byStatus("lost", { charge: first.id })).toEqual([])
          const page = yield* charges.listDisputes(test, { status: "needs_response", limit: 1 })
          expect([ids(page.data), page.hasMore]).toEqual([[c.id], true])
          const next = yield* charges.listDisputes(test, {
            status: "needs_response",
            limit: 1,
            startingAfter: c.id
          })
          expect([ids(next.data), next.hasMore]).toEqual([[a.id], false])
          expect((yield* charges.listDisputes(live, { status: "needs_response" })).data).toEqual([])
        })
      )

      it.effect(
        "processor configs: one per account and mode, replaced whole, credentials only through open",
        () =>
          Effect.gen(function* () {
            const { test, live } = yield* freshAccount
            const other = yield* freshAccount
            const configs = yield* ProcessorConfigRepository
            expect(yield* configs.get(test)).toEqual(Option.none())
            expect(yield* configs.open(test)).toEqual(Option.none())
            const stripe = {
              processor: "stripe",
              credentials: { secretKey: "sk_test_abc", webhookSecret: "whsec_def" },
              surcharge: false,
              at: T0
            }
            const first = yield* configs.save(test, stripe)
            expect(first).toMatchObject({
              accountId: test.accountId,
              livemode: false,
              processor: "stripe",
              surcharge: false,
              created: T0,
              updated: T0
            })
            expect(JSON.stringify(first)).not.toContain("sk_test_abc")
            expect(Option.getOrThrow(yield* configs.get(test))).toEqual(first)
            expect(Option.getOrThrow(yield* configs.open(test))).toEqual({
              config: first,
              credentials: stripe.credentials
            })
            // Nothing crosses modes or accounts.
            expect(yield* configs.get(live)).toEqual(Option.none())
            expect(yield* configs.open(other.test)).toEqual(Option.none())

            // Replacing with the same processor keeps `created`; every save has a new revision.
            const again = yield* configs.save(test, {
              ...stripe,
              credentials: { secretKey: "sk_test_new", webhookSecret: "whsec_new" },
              at: T0 + 5
            })
            expect([again.created, again.updated]).toEqual([T0, T0 + 5])
            expect(again.revision).not.toBe(first.revision)
            const same = yield* configs.save(test, { ...stripe, at: T0 + 5 })
            expect(same.revision).not.toBe(again.revision)
            // Another processor replaces it whole: its own credentials, created anew.
            const adyen = yield* configs.save(test, {
              processor: "adyen",
              credentials: { apiKey: "AQEkey", merchantAccount: "Shop", hmacKey: "44782D" },
              surcharge: true,
              at: T0 + 9
            })
            expect(adyen).toMatchObject({ processor: "adyen", surcharge: true, created: T0 + 9 })
            expect(Option.getOrThrow(yield* configs.open(test)).credentials).toEqual({
              apiKey: "AQEkey",
              merchantAccount: "Shop",
              hmacKey: "44782D"
            })

            // Live mode has its own; removing one leaves the other.
            yield* configs.save(live, { ...stripe, credentials: { secretKey: "sk_live_x" } })
            const removed = yield* configs.remove(test)
            expect(removed.processor).toBe("adyen")
            expect(yield* configs.get(test)).toEqual(Option.none())
            expect(Option.getOrThrow(yield* configs.open(live)).credentials).toEqual({
              secretKey: "sk_live_x"
            })
            const missing = yield* Effect.either(configs.remove(test))
            expect(Either.isLeft(missing) && missing.left).toMatchObject({
              _tag: "RecordNotFound",
              entity: "processor_config"
            })
            // Deleted and saved again: a revision the deleted one never had.
            const back = yield* configs.save(test, stripe)
            expect([back.revision === first.revision, back.created]).toEqual([false, T0])
          })
      )

      it.effect("a processor config's save rolls back with its transaction", () =>
        Effect.gen(function* () {
          const { test } = yield* freshAccount
          const configs = yield* ProcessorConfigRepository
          const tx = yield* Transactions
          const save = {
            processor: "stripe",
            credentials: { secretKey: "sk_test_abc", webhookSecret: "whsec_def" },
            surcharge: false,
            at: T0
          }
          const exit = yield* Effect.exit(
            tx.run(Effect.zipRight(configs.save(test, save), Effect.fail("injected" as const)))
          )
          expect(Exit.isFailure(exit)).toBe(true)
          expect(yield* configs.get(test)).toEqual(Option.none())
          yield* configs.save(test, save)
          const removal = yield* Effect.exit(
            tx.run(Effect.zipRight(configs.remove(test), Effect.fail("injected" as const)))
          )
          expect(Exit.isFailure(removal)).toBe(true)
          expect(Option.isSome(yield* configs.get(test))).toBe(true)
        })
      )

      it.effect(
        "held processor changes: one per account and mode, credentials sealed, applied by id while the revision they were requested against is in force",
        () =>
          Effect.gen(function* () {
            const { test, live } = yield* freshAccount
            const configs = yield* ProcessorConfigRepository
            const secretKey = "sk_live_heldCredential0123456789"
            const request = (fields: Partial<ProcessorChangeRequest> = {}) =>
              heldSave({ credentials: { secretKey }, ...fields })
            const approval = (id: string) => approvalOf(id, T0 + 10)
            // The first configuration held: nothing in force until it is approved.
            const first = yield* configs.request(live, request())
            expect(first).toMatchObject({
              action: "save",
              processor: "stripe",
              baseRevision: null,
              requestedBy: "key_a",
              requestedAt: T0
            })
            expect(JSON.stringify(first)).not.toContain(secretKey)
            expect(yield* configs.get(live)).toEqual(Option.none())
            expect(Option.getOrThrow(yield* configs.pending(live))).toEqual({
              change: first,
              credentials: { secretKey }
            })
            // Nothing crosses modes; one held change per account and mode.
            expect(yield* configs.pending(test)).toEqual(Option.none())
            const second = yield* Effect.either(configs.request(live, request()))
            expect(Either.isLeft(second) && second.left).toMatchObject({
              _tag: "DuplicateRecord",
              entity: "pending_processor_config_change"
            })
            // Another id, or a check that refuses: nothing applied, still held.
            const other = yield* Effect.either(configs.approve(live, approval("pcc_other")))
            expect(Either.isLeft(other) && other.left._tag).toBe("RecordNotFound")
            const refused = yield* Effect.either(
              configs.approve(live, {
                ...approval(first.id),
                check: () => Effect.fail("refused" as const)
              })
            )
            expect(refused).toEqual(Either.left("refused"))
            expect(yield* configs.get(live)).toEqual(Option.none())
            // Approved by its id: applied with its credentials, no longer held.
            const applied = yield* configs.approve(live, approval(first.id))
            expect(applied.change).toEqual(first)
            expect(applied.config).toMatchObject({ processor: "stripe", created: T0 + 10 })
            expect(Option.getOrThrow(yield* configs.open(live))).toEqual({
              config: applied.config,
              credentials: { secretKey }
            })
            expect(yield* configs.pending(live)).toEqual(Option.none())
            const again = yield* Effect.either(configs.approve(live, approval(first.id)))
            expect(Either.isLeft(again) && again.left._tag).toBe("RecordNotFound")

            // A change decided against another revision than the one in force is not held.
            const late = yield* Effect.either(configs.request(live, request()))
            expect(Either.isLeft(late) && late.left).toMatchObject({
              _tag: "RevisionConflict",
              expected: null,
              found: applied.config.revision
            })
            // A held delete made stale by a save since: its approval applies nothing.
            const removal = yield* configs.request(
              live,
              request({ action: "delete", credentials: null, expected: applied.config.revision })
            )
            expect(Option.getOrThrow(yield* configs.pending(live)).credentials).toBeNull()
            const moved = yield* configs.save(live, {
              processor: "stripe",
              credentials: { secretKey: "sk_live_owner" },
              surcharge: false,
              at: T0 + 20
            })
            const stale = yield* Effect.either(configs.approve(live, approval(removal.id)))
            expect(Either.isLeft(stale) && stale.left).toMatchObject({
              _tag: "RevisionConflict",
              expected: applied.config.revision,
              found: moved.revision
            })
            expect(Option.getOrThrow(yield* configs.get(live))).toEqual(moved)
            // Cancelled: dropped; cancelling again finds nothing.
            const cancelled = yield* configs.cancel(live)
            expect(cancelled.change).toEqual(removal)
            expect(yield* configs.pending(live)).toEqual(Option.none())
            const none = yield* Effect.either(configs.cancel(live))
            expect(Either.isLeft(none) && none.left._tag).toBe("RecordNotFound")
            // A held delete approved while in force: removed.
            const removing = yield* configs.request(
              live,
              request({ action: "delete", credentials: null, expected: moved.revision })
            )
            const removed = yield* configs.approve(live, approval(removing.id))
            expect(removed.config).toEqual(moved)
            expect(yield* configs.get(live)).toEqual(Option.none())
            // A first configuration made stale by one saved meanwhile is not applied over it.
            const racing = yield* configs.request(live, request())
            const meanwhile = yield* configs.save(live, {
              processor: "adyen",
              credentials: { apiKey: "AQEkey", merchantAccount: "Shop" },
              surcharge: false,
              at: T0 + 30
            })
            const lost = yield* Effect.either(configs.approve(live, approval(racing.id)))
            expect(Either.isLeft(lost) && lost.left._tag).toBe("RevisionConflict")
            expect(Option.getOrThrow(yield* configs.get(live))).toEqual(meanwhile)
          })
      )

      it.effect("a held processor change is approved once however many approve it at once", () =>
        Effect.gen(function* () {
          const { live } = yield* freshAccount
          const configs = yield* ProcessorConfigRepository
          const held = yield* configs.request(live, heldSave())
          const approvals = yield* Effect.all(
            [1, 2, 3].map(() => Effect.either(configs.approve(live, approvalOf(held.id)))),
            { concurrency: "unbounded" }
          )
          expect(approvals.filter(Either.isRight)).toHaveLength(1)
          expect(approvals.filter(Either.isLeft).map((e) => e.left._tag)).toEqual([
            "RecordNotFound",
            "RecordNotFound"
          ])
        })
      )

      it.effect("a held processor change rolls back with its transaction", () =>
        Effect.gen(function* () {
          const { live } = yield* freshAccount
          const configs = yield* ProcessorConfigRepository
          const tx = yield* Transactions
          const request = heldSave()
          const exit = yield* Effect.exit(
            tx.run(
              Effect.zipRight(configs.request(live, request), Effect.fail("injected" as const))
            )
          )
          expect(Exit.isFailure(exit)).toBe(true)
          expect(yield* configs.pending(live)).toEqual(Option.none())
          yield* configs.request(live, request)
          const approval = yield* Effect.exit(
            tx.run(
              Effect.zipRight(
                configs.approve(live, approvalOf(request.id)),
                Effect.fail("injected" as const)
              )
            )
          )
          expect(Exit.isFailure(approval)).toBe(true)
          expect(yield* configs.get(live)).toEqual(Option.none())
          expect(Option.isSome(yield* configs.pending(live))).toBe(true)
        })
      )

      it.effect(
        "webhook endpoints: update, disable, delete with their deliveries; events by type",
        () =>
          Effect.gen(function* () {
            const { test, live } = yield* freshAccount
            const endpoints = yield* WebhookEndpointRepository
            const events = yield* EventRepository
            const deliveries = yield* WebhookDeliveryRepository
            const endpoint = yield* endpoints.create({
              id: nextId("we"),
              accountId: test.accountId,
              livemode: false,
              url: "http://127.0.0.1:9/hook",
              enabledEvents: ["charge.succeeded", "charge.refunded"],
              status: "enabled",
              description: "first",
              created: T0,
              secret: "whsec_dev_abc"
            })
            const succeeded = yield* events.insert(eventFor(newCharge(test)))
            const refunded = yield* events.insert({
              ...eventFor(newCharge(test)),
              type: "charge.refunded",
              created: T0 + 1
            })
            expect(ids((yield* events.list(test, { type: "charge.refunded" })).data)).toEqual([
              refunded.id
            ])
            expect(ids((yield* events.list(test, {})).data)).toEqual([refunded.id, succeeded.id])
            expect(ids(yield* endpoints.subscribedTo(test, "charge.refunded"))).toEqual([
              endpoint.id
            ])
            expect(yield* endpoints.subscribedTo(test, "dispute.created")).toEqual([])

            // Deliveries need this tenant's event and endpoints.
            const liveEvent = yield* events.insert(eventFor(newCharge(live)))
            const wrongMode = yield* Effect.either(
              deliveries.enqueue(test, liveEvent.id, [endpoint.id])
            )
            expect(Either.isLeft(wrongMode) && wrongMode.left).toMatchObject({
              _tag: "RecordNotFound",
              entity: "event"
            })
            const noEndpoint = yield* Effect.either(
              deliveries.enqueue(live, liveEvent.id, [endpoint.id])
            )
            expect(Either.isLeft(noEndpoint) && noEndpoint.left).toMatchObject({
              _tag: "RecordNotFound",
              entity: "webhook_endpoint"
            })
            const [delivery] = yield* deliveries.enqueue(test, succeeded.id, [endpoint.id])

            const updated = yield* endpoints.update(test, endpoint.id, {
              url: "http://127.0.0.1:9/other",
              enabledEvents: ["*"],
              description: null
            })
            expect(updated).toMatchObject({
              url: "http://127.0.0.1:9/other",
              enabledEvents: ["*"],
              description: null,
              status: "enabled"
            })
            expect(ids(yield* endpoints.subscribedTo(test, "dispute.created"))).toEqual([
              endpoint.id
            ])
            yield* endpoints.update(test, endpoint.id, { status: "disabled" })
            expect(yield* endpoints.subscribedTo(test, "dispute.created")).toEqual([])
            expect((yield* endpoints.get(test, endpoint.id)).url).toBe("http://127.0.0.1:9/other")
            const missing = yield* Effect.either(
              endpoints.update(live, endpoint.id, { status: "enabled" })
            )
            expect(Either.isLeft(missing) && missing.left._tag).toBe("RecordNotFound")

            const removed = yield* endpoints.remove(test, endpoint.id)
            expect(removed.id).toBe(endpoint.id)
            expect((yield* Effect.either(endpoints.get(test, endpoint.id)))._tag).toBe("Left")
            expect((yield* Effect.either(deliveries.get(test, delivery!.id)))._tag).toBe("Left")
            expect((yield* endpoints.list(test, {})).data).toEqual([])
          })
      )

      it.effect(
        "rolling a secret keeps the replaced one valid until its expiry, in this tenant only",
        () =>
          Effect.gen(function* () {
            const { test, live } = yield* freshAccount
            const endpoints = yield* WebhookEndpointRepository
            const endpoint = yield* endpoints.create({
              id: nextId("we"),
              accountId: test.accountId,
              livemode: false,
              url: "http://localhost:4242/hook",
              enabledEvents: ["*"],
              status: "enabled",
              description: null,
              created: T0,
              secret: "whsec_dev_first"
            })
            const now = 1_800_000_000_000
            expect(yield* endpoints.secrets(test, endpoint.id, now)).toEqual(["whsec_dev_first"])
            const rolled = yield* endpoints.rollSecret(test, endpoint.id, {
              secret: "whsec_dev_second",
              previousExpiresAtMs: now + 1000
            })
            expect(rolled).toEqual(endpoint)
            expect(yield* endpoints.secret(test, endpoint.id)).toBe("whsec_dev_second")
            expect(yield* endpoints.secrets(test, endpoint.id, now)).toEqual([
              "whsec_dev_second",
              "whsec_dev_first"
            ])
            expect(yield* endpoints.secrets(test, endpoint.id, now + 1000)).toEqual([
              "whsec_dev_second"
            ])
            // A second roll replaces the previous secret: never more than two.
            yield* endpoints.rollSecret(test, endpoint.id, {
              secret: "whsec_dev_third",
              previousExpiresAtMs: now + 2000
            })
            expect(yield* endpoints.secrets(test, endpoint.id, now)).toEqual([
              "whsec_dev_third",
              "whsec_dev_second"
            ])
            // An update keeps the secrets.
            yield* endpoints.update(test, endpoint.id, { status: "disabled" })
            expect(yield* endpoints.secrets(test, endpoint.id, now)).toHaveLength(2)
            const otherMode = yield* Effect.either(
              endpoints.rollSecret(live, endpoint.id, {
                secret: "whsec_prod_x",
                previousExpiresAtMs: now
              })
            )
            expect(Either.isLeft(otherMode) && otherMode.left._tag).toBe("RecordNotFound")
            expect((yield* Effect.either(endpoints.secrets(live, endpoint.id, now)))._tag).toBe(
              "Left"
            )
          })
      )

      it.effect(
        "fan-out: each event once, to the enabled endpoints of its tenant subscribed to its type",
        () =>
          Effect.gen(function* () {
            const { test, live } = yield* freshAccount
            const endpoints = yield* WebhookEndpointRepository
            const events = yield* EventRepository
            const charges = yield* ChargeRepository
            const deliveries = yield* WebhookDeliveryRepository
            // Take whatever earlier tests left, so the counts below are this test's.
            while ((yield* deliveries.fanOut(1000)).events > 0) {}
            const endpoint = (tenant: Tenant, enabledEvents: Array<string>, status = "enabled") =>
              endpoints.create({
                id: nextId("we"),
                accountId: tenant.accountId,
                livemode: tenant.livemode,
                url: "http://127.0.0.1:9/hook",
                enabledEvents,
                status: status as "enabled" | "disabled",
                description: null,
                created: T0,
                secret: "whsec_dev_abc"
              })
            const succeededOnly = yield* endpoint(test, ["charge.succeeded"])
            yield* endpoint(test, ["*"], "disabled")
            yield* endpoint(test, ["dispute.created"])
            const liveAll = yield* endpoint(live, ["*"])
            const e1 = yield* events.insert(eventFor(newCharge(test)))
            yield* events.insert({ ...eventFor(newCharge(test)), type: "charge.refunded" })
            const e3 = yield* events.insert(eventFor(newCharge(live)))
            // An event written by a charge's own statement is fanned out too.
            const charge = newCharge(test)
            const e4 = eventFor(charge)
            yield* charges.create({ charge, event: e4 })

            const first = yield* deliveries.fanOut(1000)
            expect(first).toEqual({ events: 4, deliveries: 3 })
            const testDeliveries = (yield* deliveries.list(test, {})).data
            expect(testDeliveries.map((d) => [d.endpointId, d.eventId]).sort()).toEqual(
              [
                [succeededOnly.id, e1.id],
                [succeededOnly.id, e4.id]
              ].sort()
            )
            expect(testDeliveries.every((d) => d.status === "pending" && d.attempts === 0)).toBe(
              true
            )
            expect(
              (yield* deliveries.list(live, {})).data.map((d) => [d.endpointId, d.eventId])
            ).toEqual([[liveAll.id, e3.id]])
            expect(yield* deliveries.fanOut(1000)).toEqual({ events: 0, deliveries: 0 })

            // Concurrent callers split the events between them: each is taken exactly once.
            for (let i = 0; i < 20; i++) yield* events.insert(eventFor(newCharge(test)))
            let taken = 0
            for (;;) {
              const rounds = yield* Effect.all(
                Array.from({ length: 6 }, () => deliveries.fanOut(3)),
                { concurrency: "unbounded" }
              )
              const n = rounds.reduce((sum, r) => sum + r.events, 0)
              if (n === 0) break
              taken += n
            }
            expect(taken).toBe(20)
            const all = yield* walk((r) => deliveries.list(test, r), { limit: 100 })
            const pairs = all.flatMap((p) => p.data).map((d) => `${d.endpointId}/${d.eventId}`)
            expect(pairs).toHaveLength(22)
            expect(new Set(pairs).size).toBe(22)

            // More deliveries than one INSERT carries (1,000 rows): all made, in one fan-out.
            yield* Effect.forEach(
              Array.from({ length: 1001 }, () => eventFor(newCharge(test))),
              (e) => events.insert(e),
              { concurrency: 8, discard: true }
            )
            expect(yield* deliveries.fanOut(2000)).toEqual({ events: 1001, deliveries: 1001 })
          })
      )

      it.effect(
        "batched attempts are recorded for the lease holder only; events fetched in batches",
        () =>
          Effect.gen(function* () {
            const { test, live } = yield* freshAccount
            const endpoints = yield* WebhookEndpointRepository
            const events = yield* EventRepository
            const deliveries = yield* WebhookDeliveryRepository
            const endpoint = yield* endpoints.create({
              id: nextId("we"),
              accountId: test.accountId,
              livemode: false,
              url: "http://127.0.0.1:9/hook",
              enabledEvents: ["*"],
              status: "enabled",
              description: null,
              created: T0,
              secret: "whsec_dev_abc"
            })
            const made = [
              yield* events.insert(eventFor(newCharge(test))),
              yield* events.insert(eventFor(newCharge(test))),
              yield* events.insert(eventFor(newCharge(test)))
            ]
            const liveEvent = yield* events.insert(eventFor(newCharge(live)))
            const fetched = yield* events.getMany([
              { ...test, id: made[0]!.id },
              { ...test, id: made[2]!.id },
              // The wrong mode, and an unknown id: left out.
              { ...test, id: liveEvent.id },
              { ...test, id: "evt_missing" },
              { ...live, id: liveEvent.id }
            ])
            expect(ids(fetched).sort()).toEqual([made[0]!.id, made[2]!.id, liveEvent.id].sort())
            expect(yield* events.getMany([])).toEqual([])

            const enqueue = (e: { readonly id: string }) =>
              Effect.map(deliveries.enqueue(test, e.id, [endpoint.id]), (d) => d[0]!)
            // Lease the first two to one owner, then the last to another (claims take every
            // due delivery of the store, other tests' too).
            const leased = (owner: string, wanted: ReadonlyArray<{ readonly id: string }>) =>
              Effect.map(deliveries.claim({ owner, limit: 10_000, leaseMs: 60_000 }), (claimed) =>
                claimed.filter((d) => wanted.some((q) => q.id === d.id))
              )
            const firstTwo = [yield* enqueue(made[0]!), yield* enqueue(made[1]!)]
            const mine = yield* leased(`a-${test.accountId}`, firstTwo)
            const theirs = yield* leased(`b-${test.accountId}`, [yield* enqueue(made[2]!)])
            expect(mine.length + theirs.length).toBe(3)
            const recorded = yield* deliveries.recordAttempts(
              `a-${test.accountId}`,
              [...mine, ...theirs].map((d, i) => ({
                tenant: test,
                deliveryId: d.id,
                outcome: {
                  statusCode: i === 0 ? 200 : 500,
                  error: i === 0 ? null : "HTTP 500",
                  durationMs: 7,
                  next: i === 0 ? ("succeeded" as const) : { retryAtMs: 1_900_000_000_000 }
                }
              }))
            )
            expect([...recorded].sort()).toEqual(mine.map((d) => d.id).sort())
            const first = yield* deliveries.get(test, mine[0]!.id)
            expect(first).toMatchObject({ status: "succeeded", attempts: 1, leaseOwner: null })
            if (mine[1] !== undefined) {
              expect(yield* deliveries.get(test, mine[1].id)).toMatchObject({
                status: "pending",
                attempts: 1,
                nextAttemptAtMs: 1_900_000_000_000,
                leaseOwner: null
              })
            }
            const attempts = yield* deliveries.listAttempts(test, mine[0]!.id, {})
            expect(attempts.data).toMatchObject([
              { attempt: 1, statusCode: 200, error: null, durationMs: 7 }
            ])
            // The other owner's delivery was not touched.
            expect(yield* deliveries.get(test, theirs[0]!.id)).toMatchObject({
              attempts: 0,
              leaseOwner: `b-${test.accountId}`
            })
            expect(yield* deliveries.recordAttempts("nobody", [])).toEqual([])

            // A resend makes the succeeded delivery pending and due again, attempts kept; a
            // new endpoint gets a new delivery; enqueue alone never queues one twice.
            const other = yield* endpoints.create({
              id: nextId("we"),
              accountId: test.accountId,
              livemode: false,
              url: "http://127.0.0.1:9/other",
              enabledEvents: ["*"],
              status: "enabled",
              description: null,
              created: T0,
              secret: "whsec_dev_abc"
            })
            const succeeded = mine[0]!
            expect(yield* deliveries.enqueue(test, succeeded.eventId, [endpoint.id])).toEqual([])
            const again = yield* deliveries.redeliver(test, succeeded.eventId, [
              endpoint.id,
              other.id
            ])
            expect(again).toHaveLength(2)
            expect(again.find((d) => d.endpointId === endpoint.id)).toMatchObject({
              id: succeeded.id,
              status: "pending",
              attempts: 1,
              attemptsAtQueue: 1
            })
            expect(again.find((d) => d.endpointId === other.id)).toMatchObject({
              status: "pending",
              attempts: 0,
              attemptsAtQueue: 0
            })
            const due = yield* deliveries.claim({
              owner: `c-${test.accountId}`,
              limit: 10_000,
              leaseMs: 60_000
            })
            expect(due.map((d) => d.id)).toEqual(expect.arrayContaining(again.map((d) => d.id)))
            const wrongMode = yield* Effect.either(
              deliveries.redeliver(live, succeeded.eventId, [endpoint.id])
            )
            expect(Either.isLeft(wrongMode) && wrongMode.left._tag).toBe("RecordNotFound")
          })
      )

      it.effect("API keys are stored hashed and found by the full key", () =>
        Effect.gen(function* () {
          const { test } = yield* freshAccount
          const accounts = yield* AccountRepository
          const secret = `sk_dev_service_${random36(32)}`
          const key = yield* accounts.createKey({
            id: nextId("key"),
            accountId: test.accountId,
            livemode: false,
            kind: "secret",
            name: "default",
            secret,
            created: T0
          })
          expect(key.hash).not.toContain(secret)
          expect(key.hash).toMatch(/^[0-9a-f]{64}$/)
          expect(key.last4).toBe(secret.slice(-4))
          expect(Option.getOrThrow(yield* accounts.findKey(secret)).id).toBe(key.id)
          expect(yield* accounts.findKey(`${secret}x`)).toEqual(Option.none())
          yield* accounts.touchKey(test.accountId, key.id, T0 + 5)
          expect(ids((yield* accounts.listKeys(test, {})).data)).toEqual([key.id])
          expect((yield* accounts.listKeys({ ...test, livemode: true }, {})).data).toEqual([])
          expect(yield* accounts.isEmpty).toBe(false)
          const revoked = yield* accounts.revokeKey(test.accountId, key.id)
          expect(revoked).toMatchObject({ revoked: true, lastUsed: T0 + 5 })
          expect(yield* accounts.findKey(secret)).toEqual(Option.none())
        })
      )
    }
  )
}

/**
 * The storage half of announcing changes of the law (docs/design.md §3 "Changes announced"),
 * part of the conformance suite: accounts in batches by id; the regions of a tenant's charges,
 * each once; a notice recorded once per account, mode, change and region, all of a batch or
 * none, and not at all when its transaction fails; two transactions recording the same notice
 * at once, one wins; a release keeps the time it was first seen.
 */
import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import { AccountRepository } from "../src/AccountRepository.js"
import { ChargeRepository, type NewCharge } from "../src/ChargeRepository.js"
import { EventRepository } from "../src/EventRepository.js"
import { random36, timeOrdered } from "../src/Ids.js"
import { type RulesetNotice, RulesetNoticeRepository } from "../src/RulesetNoticeRepository.js"
import type { Tenant } from "../src/Tenant.js"
import { Transactions } from "../src/Transactions.js"
import type { EffectIt } from "./chargePhases.js"

const nextId = timeOrdered()
const T0 = 1_760_000_000

const freshTenants = Effect.gen(function* () {
  const id = nextId("acct")
  yield* (yield* AccountRepository).createAccount({ id, name: id, created: T0 })
  return [
    { accountId: id, livemode: false } as Tenant,
    { accountId: id, livemode: true } as Tenant
  ] as const
})

const chargeIn = (tenant: Tenant, region: string | null): NewCharge => ({
  id: nextId("ch"),
  accountId: tenant.accountId,
  livemode: tenant.livemode,
  created: T0,
  amount: 10_000,
  convenienceFee: 320,
  totalAmount: 10_320,
  currency: "usd",
  status: "succeeded",
  customer: null,
  description: null,
  metadata: {},
  region,
  cardType: "credit",
  feeBreakdown: { percentage: 290, flatFee: 30, adjustment: 0 },
  compliance: null,
  failureCode: null,
  failureMessage: null,
  details: { source: "tok_visa" }
})

const notice = (tenant: Tenant, region: string, changeId = "dated:2026-07-01"): RulesetNotice => ({
  accountId: tenant.accountId,
  livemode: tenant.livemode,
  changeId,
  region,
  effectiveDate: "2026-07-01",
  rulesetVersion: "2.1.0",
  eventId: nextId("evt"),
  created: T0
})

const eventOf = (n: RulesetNotice) => ({
  id: n.eventId,
  accountId: n.accountId,
  livemode: n.livemode,
  type: "ruleset.changed",
  data: { object: { object: "ruleset_change" } },
  request: null,
  created: n.created
})

export const rulesetNoticeCases = (it: EffectIt) => {
  it.effect("accounts come in batches by id, after the one given", () =>
    Effect.gen(function* () {
      const accounts = yield* AccountRepository
      const repo = yield* RulesetNoticeRepository
      // Ids after every time-ordered one, unique to this run.
      const prefix = `acct_zz${random36(8)}`
      for (const suffix of ["c", "a", "b"]) {
        yield* accounts.createAccount({ id: `${prefix}${suffix}`, name: suffix, created: T0 })
      }
      const first = yield* repo.accounts(prefix, 2)
      expect(first.map((a) => a.id)).toEqual([`${prefix}a`, `${prefix}b`])
      expect(first[0]).toEqual({ id: `${prefix}a`, name: "a", created: T0 })
      const rest = yield* repo.accounts(`${prefix}b`, 100)
      expect(rest.map((a) => a.id).filter((id) => id.startsWith(prefix))).toEqual([`${prefix}c`])
      const all = yield* repo.accounts(null, 100_000)
      expect(all.map((a) => a.id)).toEqual([...all.map((a) => a.id)].sort())
      expect(all.map((a) => a.id)).toEqual(expect.arrayContaining([`${prefix}a`, `${prefix}c`]))
    })
  )

  it.effect("the regions of a tenant's charges, each once, sorted, in its own mode", () =>
    Effect.gen(function* () {
      const [test, live] = yield* freshTenants
      const [other] = yield* freshTenants
      const charges = yield* ChargeRepository
      const repo = yield* RulesetNoticeRepository
      for (const region of ["US-NY", "AU", "US-NY", null, "GB", "AU"]) {
        yield* charges.insert(chargeIn(test, region))
      }
      yield* charges.insert(chargeIn(live, "NZ"))
      yield* charges.insert(chargeIn(other, "CA"))
      expect(yield* repo.chargedRegions(test)).toEqual(["AU", "GB", "US-NY"])
      expect(yield* repo.chargedRegions(live)).toEqual(["NZ"])
      const [none] = yield* freshTenants
      expect(yield* repo.chargedRegions(none)).toEqual([])
    })
  )

  it.effect(
    "a notice is recorded once per account, mode, change and region; a batch all or none",
    () =>
      Effect.gen(function* () {
        const [test, live] = yield* freshTenants
        const repo = yield* RulesetNoticeRepository
        yield* repo.record([notice(test, "AU"), notice(test, "NZ")])
        expect([...(yield* repo.announced(test, "dated:2026-07-01"))].sort()).toEqual(["AU", "NZ"])
        // Another mode, another change: not announced yet.
        expect(yield* repo.announced(live, "dated:2026-07-01")).toEqual([])
        expect(yield* repo.announced(test, "dated:2026-08-01")).toEqual([])
        // A batch with one region announced already writes nothing of it.
        const again = yield* Effect.either(repo.record([notice(test, "GB"), notice(test, "AU")]))
        expect(Either.isLeft(again) && again.left._tag).toBe("DuplicateRecord")
        expect([...(yield* repo.announced(test, "dated:2026-07-01"))].sort()).toEqual(["AU", "NZ"])
        yield* repo.record([notice(live, "AU"), notice(test, "AU", "dated:2026-08-01")])
        expect(yield* repo.announced(live, "dated:2026-07-01")).toEqual(["AU"])
        expect(yield* repo.announced(test, "dated:2026-08-01")).toEqual(["AU"])
      })
  )

  it.effect("a notice and its event commit together or not at all", () =>
    Effect.gen(function* () {
      const [test] = yield* freshTenants
      const repo = yield* RulesetNoticeRepository
      const events = yield* EventRepository
      const tx = yield* Transactions
      const au = notice(test, "AU")
      const announce = (n: RulesetNotice) =>
        Effect.zipRight(repo.record([n]), events.insert(eventOf(n)))
      const failed = yield* Effect.either(
        tx.run(Effect.zipRight(announce(au), Effect.fail("injected" as const)))
      )
      expect(Either.isLeft(failed)).toBe(true)
      expect(yield* repo.announced(test, au.changeId)).toEqual([])
      expect(Either.isLeft(yield* Effect.either(events.get(test, au.eventId)))).toBe(true)
      yield* tx.run(announce(au))
      // Announced again in another transaction: it fails, and its event is not written.
      const second = notice(test, "AU")
      const twice = yield* Effect.either(tx.run(announce(second)))
      expect(Either.isLeft(twice) && twice.left._tag).toBe("DuplicateRecord")
      expect(Either.isLeft(yield* Effect.either(events.get(test, second.eventId)))).toBe(true)
      expect((yield* events.list(test, { limit: 10 })).data.map((e) => e.id)).toEqual([au.eventId])
    })
  )

  it.effect("two transactions announcing the same region at once: exactly one commits", () =>
    Effect.gen(function* () {
      const [test] = yield* freshTenants
      const repo = yield* RulesetNoticeRepository
      const events = yield* EventRepository
      const tx = yield* Transactions
      const attempts = Array.from({ length: 4 }, () => notice(test, "AU"))
      const results = yield* Effect.forEach(
        attempts,
        (n) =>
          Effect.either(
            tx.run(
              Effect.gen(function* () {
                yield* repo.record([n])
                // Hold the transaction open a moment, so that the others meet it.
                yield* Effect.sleep("20 millis")
                yield* events.insert(eventOf(n))
              })
            )
          ),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      for (const r of results.filter(Either.isLeft)) expect(r.left._tag).toBe("DuplicateRecord")
      expect((yield* events.list(test, { limit: 10 })).data).toHaveLength(1)
      expect(yield* repo.announced(test, "dated:2026-07-01")).toEqual(["AU"])
    })
  )

  it.effect("a release keeps the time it was first seen", () =>
    Effect.gen(function* () {
      const repo = yield* RulesetNoticeRepository
      const version = `9.9.9-test${random36(8)}`
      const first = yield* repo.releasesSeen(version, T0)
      expect(first).toEqual(expect.arrayContaining([{ version, firstSeen: T0 }]))
      const later = yield* repo.releasesSeen(version, T0 + 100)
      expect(later.filter((r) => r.version === version)).toEqual([{ version, firstSeen: T0 }])
    })
  )
}

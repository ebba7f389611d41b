/** Invariants of the pure helpers under the stores: paging, ids, the secret box. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, FastCheck as fc } from "effect"
import { AccountRepository } from "../src/AccountRepository.js"
import { newRecord } from "../src/ChargeRepository.js"
import { Ids, random36, timeOrdered } from "../src/Ids.js"
import * as Page from "../src/Page.js"
import * as SecretBox from "../src/SecretBox.js"
import * as Storage from "../src/Storage.js"
import { charges } from "../src/sql/Tables.js"

const item = fc.record({
  created: fc.integer({ min: 0, max: 20 }),
  id: fc.string({ minLength: 1, maxLength: 6 })
})
const items = fc.uniqueArray(item, { selector: (i) => i.id, maxLength: 60 })

describe("Page.paginate", () => {
  it.prop(
    "walking starting_after visits every item once, newest first",
    [items, fc.integer({ min: 1, max: 12 })],
    ([all, limit]) => {
      const sorted = [...all].sort(Page.newestFirst)
      const seen: Array<string> = []
      let cursor: (typeof sorted)[number] | undefined
      for (let guard = 0; guard < 100; guard++) {
        const page = Page.paginate(sorted, { limit, startingAfter: cursor?.id }, cursor)
        seen.push(...page.data.map((i) => i.id))
        expect(page.data.length).toBeLessThanOrEqual(limit)
        if (!page.hasMore) break
        expect(page.data.length).toBe(limit)
        cursor = page.data[page.data.length - 1]
      }
      expect(seen).toEqual(sorted.map((i) => i.id))
    }
  )

  it.prop(
    "ending_before returns the items just newer than the cursor",
    [items, fc.nat(), fc.integer({ min: 1, max: 12 })],
    ([all, at, limit]) => {
      const sorted = [...all].sort(Page.newestFirst)
      if (sorted.length === 0) return
      const cursor = sorted[at % sorted.length]!
      const index = sorted.indexOf(cursor)
      const page = Page.paginate(sorted, { limit, endingBefore: cursor.id }, cursor)
      expect(page.data).toEqual(sorted.slice(Math.max(0, index - limit), index))
      expect(page.hasMore).toBe(index > limit)
    }
  )

  it("limits default to 10 and clamp to 1..100", () => {
    expect(Page.limitOf({})).toBe(10)
    expect(Page.limitOf({ limit: 0 })).toBe(1)
    expect(Page.limitOf({ limit: 500 })).toBe(100)
  })
})

describe("Ids", () => {
  it("time-ordered ids sort in creation order and never repeat", () => {
    const next = timeOrdered()
    const ids = Array.from({ length: 5_000 }, () => next("ch"))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids[0]).toMatch(/^ch_[0-9a-z]{24}$/)
  })

  it("random36 is base 36 of the requested length", () => {
    expect(random36(40)).toMatch(/^[0-9a-z]{40}$/)
  })
})

describe("SecretBox", () => {
  const box = SecretBox.make(new Uint8Array(32).fill(7))
  it.effect("opens what it sealed, only with the same context and key", () =>
    Effect.gen(function* () {
      const sealed = box.seal("whsec_dev_secret", "webhook_endpoint:a:we_1")
      expect(sealed).not.toContain("whsec")
      expect(box.seal("whsec_dev_secret", "webhook_endpoint:a:we_1")).not.toBe(sealed)
      expect(yield* box.open(sealed, "webhook_endpoint:a:we_1")).toBe("whsec_dev_secret")
      const moved = yield* Effect.either(box.open(sealed, "webhook_endpoint:b:we_1"))
      expect(Either.isLeft(moved) && moved.left._tag).toBe("StorageError")
      const otherKey = SecretBox.make(new Uint8Array(32).fill(8))
      expect(
        Either.isLeft(yield* Effect.either(otherKey.open(sealed, "webhook_endpoint:a:we_1")))
      ).toBe(true)
      const tampered = `${sealed.slice(0, -4)}AAAA`
      expect(
        Either.isLeft(yield* Effect.either(box.open(tampered, "webhook_endpoint:a:we_1")))
      ).toBe(true)
    })
  )
})

describe("deterministic ids and an empty store", () => {
  it.effect("Ids.layerSequential counts from 1 per layer", () =>
    Effect.gen(function* () {
      const ids = yield* Ids
      expect([yield* ids.make("ch"), yield* ids.make("evt")]).toEqual([
        "ch_0000000000000001",
        "evt_0000000000000002"
      ])
    }).pipe(Effect.provide(Ids.layerSequential))
  )

  it.effect("a new in-memory store is empty", () =>
    Effect.gen(function* () {
      const accounts = yield* AccountRepository
      expect(yield* accounts.isEmpty).toBe(true)
      yield* accounts.createAccount({ id: "acct_1", name: "one", created: 1 })
      expect(yield* accounts.isEmpty).toBe(false)
    }).pipe(Effect.provide(Storage.layerMemory), Effect.provide(Ids.layerSequential))
  )
})

describe("a statement written once from a table", () => {
  const record = newRecord({
    id: "ch_1",
    accountId: "acct_1",
    livemode: false,
    created: 1,
    amount: 5_000,
    convenienceFee: 175,
    totalAmount: 5_175,
    currency: "usd",
    status: "succeeded",
    customer: null,
    description: "d",
    metadata: { order: "1" },
    region: "US-NY",
    cardType: "credit",
    feeBreakdown: { percentage: 145, flatFee: 30 },
    compliance: null,
    failureCode: null,
    failureMessage: null,
    details: { source: "tok_visa" },
    processor: "simulator"
  })

  it("sends the record's values in the order of the table's columns, JSON as text", () => {
    const row = charges.row(record)
    expect(charges.values(record)).toEqual(charges.list.split(", ").map((column) => row[column]))
    expect(charges.values(record)).toContain('{"order":"1"}')
  })

  it("numbers one typed placeholder per column from the first it is given", () => {
    const placeholders = charges.placeholders(6).split(", ")
    expect(placeholders).toHaveLength(charges.columns.length)
    expect(placeholders[0]).toBe("$6::text")
    expect(placeholders.at(-1)).toBe(`$${5 + charges.columns.length}::text`)
    expect(placeholders[charges.list.split(", ").indexOf("amount")]).toMatch(/^\$\d+::bigint$/)
  })
})

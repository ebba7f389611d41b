/**
 * The pure rules of processor webhooks: a dispute's status changes converge on the processor's
 * latest whatever order they arrive in, and nothing moves a closed dispute; a refund made at
 * the processor splits into base and fee parts that add up, never exceed what is left, and
 * together give back exactly the charge's fee when the whole charge is refunded.
 */
import { describe, expect, it } from "@effect/vitest"
import * as DisputeOrder from "@levy/engine/processorNotifications/DisputeOrder.js"
import * as RefundSplit from "@levy/engine/processorNotifications/RefundSplit.js"
import * as WebhookPath from "@levy/engine/processorNotifications/WebhookPath.js"
import type { Charge } from "@levy/storage"
import fc from "fast-check"
import { seedCharge } from "./chargeStores.js"

type Status = "needs_response" | "under_review" | "won" | "lost"
const STATUSES: ReadonlyArray<Status> = ["needs_response", "under_review", "won", "lost"]

/** Applies changes in arrival order as the webhook route does. */
const replay = (
  start: { status: Status; processorUpdatedAt: number },
  changes: ReadonlyArray<{ status: Status; occurredAt: number }>
) =>
  changes.reduce(
    (current, change) =>
      DisputeOrder.decide(current, change) === "stale"
        ? current
        : { status: change.status, processorUpdatedAt: change.occurredAt },
    start
  )

describe("DisputeOrder", () => {
  it("older changes and closed disputes are stale; a repeat only moves the time", () => {
    const open = { status: "needs_response" as const, processorUpdatedAt: 100 }
    const decide = DisputeOrder.decide
    expect(decide(open, { status: "under_review", occurredAt: 99 })).toBe("stale")
    expect(decide(open, { status: "under_review", occurredAt: 100 })).toBe("changed")
    expect(decide(open, { status: "needs_response", occurredAt: 200 })).toBe("same")
    expect(decide(open, { status: "needs_response", occurredAt: 100 })).toBe("stale")
    const lost = { status: "lost" as const, processorUpdatedAt: 100 }
    expect(decide(lost, { status: "won", occurredAt: 500 })).toBe("stale")
    const review = { status: "under_review" as const, processorUpdatedAt: 100 }
    expect(decide(review, { status: "needs_response", occurredAt: 100 })).toBe("stale")
    expect(decide(review, { status: "needs_response", occurredAt: 101 })).toBe("changed")
  })

  it("changes with distinct times end in the latest one's status, in any order of arrival", () => {
    const change = fc.record({
      status: fc.constantFrom<Status>("needs_response", "under_review"),
      occurredAt: fc.integer({ min: 1, max: 1_000 })
    })
    fc.assert(
      fc.property(
        fc.uniqueArray(change, { selector: (c) => c.occurredAt, minLength: 1, maxLength: 8 }),
        fc.option(fc.constantFrom<Status>("won", "lost"), { nil: undefined }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (open, close, seed) => {
          const all = close === undefined ? open : [...open, { status: close, occurredAt: 2_000 }]
          const start = { status: "needs_response" as const, processorUpdatedAt: 0 }
          const inOrder = replay(
            start,
            [...all].sort((a, b) => a.occurredAt - b.occurredAt)
          )
          const shuffled = [...all].sort(
            (a, b) => ((a.occurredAt * 7919 + seed) % 1009) - ((b.occurredAt * 7919 + seed) % 1009)
          )
          expect(replay(start, shuffled).status).toBe(inOrder.status)
          if (close !== undefined) expect(inOrder.status).toBe(close)
        }
      )
    )
  })

  it("a closed dispute stays closed whatever follows", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Status>("won", "lost"),
        fc.array(
          fc.record({
            status: fc.constantFrom(...STATUSES),
            occurredAt: fc.integer({ min: 0, max: 10_000 })
          })
        ),
        (closed, later) => {
          expect(replay({ status: closed, processorUpdatedAt: 5_000 }, later).status).toBe(closed)
        }
      )
    )
  })
})

const charge = (amount: number, convenienceFee: number): Charge => ({
  ...seedCharge({ accountId: "acct_1", livemode: false }, "ch_1", { amount, convenienceFee }),
  amountRefunded: 0,
  feeRefunded: 0,
  refunded: false,
  disputed: false,
  estimate: null
})

describe("RefundSplit", () => {
  it("a fifth of the total gives back a fifth of the fee; all that is left, all the fee", () => {
    expect(RefundSplit.split(charge(10_000, 320), 2_064)).toEqual({ total: 2_064, fee: 64 })
    expect(RefundSplit.split(charge(10_000, 320), 10_320)).toEqual({ total: 10_320, fee: 320 })
    expect(RefundSplit.split(charge(10_000, 320), 10_321)).toBeUndefined()
    expect(RefundSplit.split(charge(10_000, 320), 0)).toBeUndefined()
    expect(RefundSplit.split(charge(10_000, 320), 500, false)).toEqual({ total: 500, fee: 0 })
    expect(RefundSplit.split(charge(10_000, 320), 320, true)).toEqual({ total: 320, fee: 320 })
    expect(RefundSplit.split(charge(10_000, 320), 321, true)).toBeUndefined()
  })

  it("dashboard refunds of a whole charge give back its fee exactly, never more than left", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 50, max: 10_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.integer({ min: 1, max: 2_000_000 }), { maxLength: 12 }),
        (amount, fee, parts) => {
          let c = charge(amount, fee)
          for (const part of [...parts, c.totalAmount]) {
            const left = c.totalAmount - c.amountRefunded
            if (left === 0) break
            const split = RefundSplit.split(c, Math.min(part, left))
            if (split === undefined) throw new Error("a refund within what is left must split")
            expect(split.fee).toBeGreaterThanOrEqual(0)
            expect(split.fee).toBeLessThanOrEqual(c.convenienceFee - c.feeRefunded)
            expect(split.total - split.fee).toBeLessThanOrEqual(
              c.amount - (c.amountRefunded - c.feeRefunded)
            )
            c = {
              ...c,
              amountRefunded: c.amountRefunded + split.total,
              feeRefunded: c.feeRefunded + split.fee
            }
          }
          expect(c.amountRefunded).toBe(c.totalAmount)
          expect(c.feeRefunded).toBe(fee)
        }
      )
    )
  })
})

describe("WebhookPath", () => {
  it("reads account, mode and processor, and nothing else", () => {
    const target = { accountId: "acct_0abc", livemode: true, processor: "stripe" }
    expect(WebhookPath.parse(WebhookPath.pathOf(target))).toEqual(target)
    expect(WebhookPath.parse("/v1/processor-webhooks/acct_1/test/adyen/")).toEqual({
      accountId: "acct_1",
      livemode: false,
      processor: "adyen"
    })
    for (const bad of [
      "/v1/processor-webhooks/acct_1/prod/stripe",
      "/v1/processor-webhooks/acct_1/test",
      "/v1/processor-webhooks/acct_1/test/stripe/x",
      "/v1/processor-webhooks/acct%00/test/stripe",
      `/v1/processor-webhooks/${"a".repeat(65)}/test/stripe`,
      "/v1/charges"
    ]) {
      expect(WebhookPath.parse(bad), bad).toBeUndefined()
    }
  })
})

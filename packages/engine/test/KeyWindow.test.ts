/**
 * The key window guard (src/processors/KeyWindow.ts) on each processor's stated guarantee:
 * Stripe is asked first at any age, Adyen is repeated for 31 days and never after, the
 * simulator forever; a first call is never held. Then the invariant over any guarantee and
 * age: a call is never repeated past the window without asking the processor.
 */

import { Duration, Effect, Either, Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Adyen from "../src/processors/adyen/AdyenProcessor.js"
import * as KeyWindow from "../src/processors/KeyWindow.js"
import type {
  IdempotencyGuarantee,
  PaymentProcessor,
  RefundOutcome
} from "../src/processors/PaymentProcessor.js"
import * as Simulator from "../src/processors/simulator/Simulator.js"
import * as Stripe from "../src/processors/stripe/StripeProcessor.js"

const DAY = 24 * 60 * 60 * 1000
const CREATED = Date.UTC(2026, 0, 1)

/** A processor promising `idempotency` (the simulator underneath; no call is made here). */
const promising = (idempotency: IdempotencyGuarantee): PaymentProcessor => ({
  ...Simulator.make(),
  name: "promising",
  idempotency
})

const stripe = promising(Stripe.definition.idempotency)
const adyen = promising(Adyen.definition.idempotency)
const simulator = Simulator.make()

const stepAt = (processor: PaymentProcessor, kind: KeyWindow.Kind, ageMs: number, resumed = true) =>
  KeyWindow.step(processor, kind, { resumed, createdMs: CREATED, now: CREATED + ageMs })

describe("the key window guard, per processor", () => {
  it("Stripe: a resumed charge or refund is looked up first at any age", () => {
    for (const age of [0, DAY - 1, DAY, 400 * DAY]) {
      expect(stepAt(stripe, "charge", age)).toBe("lookFirst")
      expect(stepAt(stripe, "refund", age)).toBe("lookFirst")
    }
  })

  it("Adyen: repeated under its key for 31 days, held for review from then on", () => {
    for (const kind of ["charge", "refund"] as const) {
      expect(stepAt(adyen, kind, 30 * DAY)).toBe("call")
      expect(stepAt(adyen, kind, 31 * DAY - 1)).toBe("call")
      expect(stepAt(adyen, kind, 31 * DAY)).toBe("review")
      expect(stepAt(adyen, kind, 365 * DAY)).toBe("review")
    }
  })

  it("the simulator is looked up first, and its keys never expire", () => {
    expect(stepAt(simulator, "refund", 10 * 365 * DAY)).toBe("lookFirst")
    const noLookups = promising({ ...simulator.idempotency, lookupRefunds: false })
    expect(stepAt(noLookups, "refund", 10 * 365 * DAY)).toBe("call")
  })

  it("a first call (not resumed) is never held or looked up, whatever the record's age", () => {
    expect(stepAt(adyen, "refund", 365 * DAY, false)).toBe("call")
    expect(stepAt(stripe, "charge", 365 * DAY, false)).toBe("call")
  })

  it("never repeats a call past the window without asking the processor", () => {
    const guarantee = fc.record({
      keyWindow: fc.oneof(
        fc.integer({ min: 0, max: 100 * DAY }).map(Duration.millis),
        fc.constant(Duration.infinity)
      ),
      lookupCharges: fc.boolean(),
      lookupRefunds: fc.boolean()
    })
    fc.assert(
      fc.property(
        guarantee,
        fc.constantFrom<KeyWindow.Kind>("charge", "refund"),
        fc.integer({ min: 0, max: 200 * DAY }),
        (idempotency, kind, age) => {
          const processor = promising(idempotency)
          const step = stepAt(processor, kind, age)
          const canAsk = kind === "charge" ? idempotency.lookupCharges : idempotency.lookupRefunds
          const past = age >= Duration.toMillis(idempotency.keyWindow)
          if (canAsk) expect(step).toBe("lookFirst")
          else expect(step).toBe(past ? "review" : "call")
        }
      )
    )
  })
})

describe("KeyWindow.once", () => {
  const refunded: RefundOutcome = { _tag: "Refunded", reference: "re_found" }
  const attempt = (processor: PaymentProcessor, createdMs: number, found: boolean) => {
    const calls: Array<string> = []
    const effect = KeyWindow.once({
      processor,
      kind: "refund",
      key: "levy_re_1",
      resumed: true,
      createdMs,
      lookup: Effect.sync(() => {
        calls.push("lookup")
        return found ? Option.some(refunded) : Option.none()
      }),
      call: Effect.sync((): RefundOutcome => {
        calls.push("call")
        return { _tag: "Refunded", reference: "re_made" }
      })
    })
    return { calls, run: () => Effect.runPromise(Effect.either(effect)) }
  }

  it("settles from the lookup when the processor has the refund: no call", async () => {
    const a = attempt(stripe, Date.now() - 400 * DAY, true)
    expect(await a.run()).toEqual(Either.right(refunded))
    expect(a.calls).toEqual(["lookup"])
  })

  it("makes the call when the lookup finds nothing", async () => {
    const a = attempt(stripe, Date.now() - 400 * DAY, false)
    expect(Either.getOrThrow(await a.run())).toMatchObject({ reference: "re_made" })
    expect(a.calls).toEqual(["lookup", "call"])
  })

  it("past Adyen's window: fails ProcessorUnavailable saying what to check, nothing called", async () => {
    const a = attempt(adyen, Date.now() - 32 * DAY, false)
    const result = await a.run()
    expect(Either.isLeft(result) && result.left._tag).toBe("ProcessorUnavailable")
    expect(Either.isLeft(result) && result.left.message).toMatch(
      /will not repeat it.*dashboard.*levy_re_1/
    )
    expect(a.calls).toEqual([])
  })
})

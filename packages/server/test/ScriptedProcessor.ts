/**
 * A processor for crash-safety tests: the simulator underneath (which counts the payments and
 * refunds it really made, one per key), with a script in front that can lose the answer of a
 * call that went through (the processor took the money, Levy heard nothing), be down before any
 * money moves, forget payments and refunds on the lookups (a restarted simulator), decline a
 * separate charge's fee part, refuse refunds, or promise what another processor promises about
 * its keys (a short key window, no lookups: Adyen's Checkout API).
 */

import {
  type IdempotencyGuarantee,
  type PaymentProcessor,
  ProcessorUnavailable
} from "@levy/engine/processors/PaymentProcessor.js"
import { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import * as Simulator from "@levy/engine/processors/simulator/Simulator.js"
import { Effect, Layer, Option } from "effect"

export interface Script {
  /** The next N calls (charge or refund) go through, then fail as unanswered. */
  loseAnswers: number
  /** Every call fails before reaching the processor. */
  down: boolean
  /** `lookup` and `lookupRefund` find nothing (the call must be repeated under its key). */
  lookupFinds: boolean
  /** What the processor promises about its keys (the simulator's by default). */
  idempotency: IdempotencyGuarantee
  /** A `separate` charge's fee part (`…:fee`) is declined. */
  declineFee: boolean
  /** Refunds are refused by the processor. */
  refuseRefunds: boolean
}

export interface Scripted {
  readonly script: Script
  readonly processor: PaymentProcessor
  readonly simulator: Simulator.SimulatorProcessor
  /** Every key `charge` was called with, in order. */
  readonly chargeKeys: Array<string>
  readonly refundKeys: Array<string>
  /** Every key `lookupRefund` was asked for, in order. */
  readonly refundLookups: Array<string>
  readonly layer: Layer.Layer<PaymentProcessors>
}

const unavailable = (what: string) =>
  new ProcessorUnavailable({ processor: Simulator.NAME, message: `scripted: ${what}` })

export const make = (): Scripted => {
  const simulator = Simulator.make()
  const script: Script = {
    loseAnswers: 0,
    down: false,
    lookupFinds: true,
    idempotency: simulator.idempotency,
    declineFee: false,
    refuseRefunds: false
  }
  const chargeKeys: Array<string> = []
  const refundKeys: Array<string> = []
  const refundLookups: Array<string> = []
  /** Runs `call` unless down; loses its answer while the script says so. */
  const through = <A, E>(call: Effect.Effect<A, E>) =>
    Effect.suspend(() => {
      if (script.down) return Effect.fail(unavailable("down"))
      return Effect.flatMap(call, (answer) => {
        if (script.loseAnswers > 0) {
          script.loseAnswers--
          return Effect.fail(unavailable("answer lost"))
        }
        return Effect.succeed(answer)
      })
    })
  const processor: PaymentProcessor = {
    ...simulator,
    get idempotency() {
      return script.idempotency
    },
    charge: (request) =>
      Effect.suspend(() => {
        chargeKeys.push(request.idempotencyKey)
        if (script.declineFee && request.idempotencyKey.endsWith(":fee")) {
          return through(
            Effect.succeed({
              _tag: "Declined" as const,
              code: "card_declined",
              message: "Your card was declined.",
              declineCode: "insufficient_funds"
            })
          )
        }
        return through(simulator.charge(request))
      }),
    refund: (request) =>
      Effect.suspend(() => {
        refundKeys.push(request.idempotencyKey)
        if (script.refuseRefunds) {
          return through(
            Effect.succeed({
              _tag: "RefundFailed" as const,
              code: "charge_too_old",
              message: "The payment is too old to refund."
            })
          )
        }
        return through(simulator.refund(request))
      }),
    lookup: (key) =>
      Effect.suspend(() => {
        if (script.down) return Effect.fail(unavailable("down"))
        return script.lookupFinds ? simulator.lookup(key) : Effect.succeed(Option.none())
      }),
    lookupRefund: (request) =>
      Effect.suspend(() => {
        refundLookups.push(request.idempotencyKey)
        if (script.down) return Effect.fail(unavailable("down"))
        return script.lookupFinds ? simulator.lookupRefund(request) : Effect.succeed(Option.none())
      })
  }
  return {
    script,
    processor,
    simulator,
    chargeKeys,
    refundKeys,
    refundLookups,
    layer: Layer.succeed(PaymentProcessors, {
      forTenant: (tenant) =>
        Effect.succeed(tenant.livemode ? Option.none() : Option.some(processor)),
      forNotifications: () => Effect.succeed(Option.none())
    })
  }
}

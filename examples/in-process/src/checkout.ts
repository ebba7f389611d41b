/**
 * What a checkout backend does with Levy in-process: no HTTP server, no API key; the backend
 * names the account and mode it works for (the tenant) and gets typed results, or the
 * workflows' own errors to branch on.
 */
import { LevyService } from "@levy/engine"
import { Effect } from "effect"

export interface CheckoutResult {
  readonly accountId: string
  readonly estimateFee: number
  readonly plainChargeId: string
  readonly keyedChargeId: string
  readonly replayedChargeId: string
  readonly refundedAmount: number
  readonly refundedFee: number
  readonly declined: string
  readonly loweredFee: number
}

/** The tour; `log` gets one line per step. */
export const checkout = (
  log: (line: string) => void = () => undefined
): Effect.Effect<CheckoutResult, LevyService.ServiceError, LevyService.LevyService> =>
  Effect.gen(function* () {
    const levy = yield* LevyService.LevyService
    const account = yield* levy.accounts.create("Corner Shop")
    const tenant = LevyService.tenant(account.accountId, "test")
    log(`account ${account.accountId} (test mode: the simulator takes the payments)`)

    const estimate = yield* levy.estimates.create(tenant, {
      amount: 10_000,
      currency: "usd",
      region: "US-FL",
      cardType: "credit"
    })
    log(`estimate: fee ${estimate.convenienceFee}, total ${estimate.totalAmount}`)

    const order = { amount: 10_000, currency: "usd", source: "tok_visa", customer: "cus_42" }
    const plain = yield* levy.charges.create(tenant, order)
    log(`charge ${plain.id}: ${plain.status}, total ${plain.totalAmount}`)

    // A retry under the same key (a timeout, a double click) answers the first charge.
    const keyed = yield* levy.charges.create(tenant, order, { idempotencyKey: "order-1001" })
    const replayed = yield* levy.charges.create(tenant, order, { idempotencyKey: "order-1001" })
    log(`charge ${keyed.id} under order-1001, replayed as ${replayed.id}`)

    const refund = yield* levy.refunds.create(tenant, { charge: keyed.id, amount: 2_500 })
    log(`refund ${refund.id}: ${refund.amount} of the amount, ${refund.convenienceFee} of the fee`)

    // A declined card is the workflow's own error, with the failed charge it stored.
    const declined = yield* levy.charges
      .create(tenant, { ...order, source: "tok_chargeDeclined" })
      .pipe(
        Effect.map((charge) => `charged ${charge.id}`),
        Effect.catchTag("ChargeFailed", (failed) =>
          Effect.succeed(`declined: ${failed.charge.failureCode} (${failed.charge.id})`)
        )
      )
    log(declined)

    // The owner lowers the fee: in test mode a change applies at once (in live mode one that
    // raises a fee waits for someone else's approval: levy.feeConfig.approve).
    const config = yield* levy.feeConfig.update(tenant, { percentage: 2.5, flatFee: 0.2 })
    const lowered = yield* levy.charges.create(tenant, order)
    log(
      `fee now ${config.percentage}% + ${config.flatFee}: charge ${lowered.id} fee ${lowered.convenienceFee}`
    )

    return {
      accountId: account.accountId,
      estimateFee: estimate.convenienceFee,
      plainChargeId: plain.id,
      keyedChargeId: keyed.id,
      replayedChargeId: replayed.id,
      refundedAmount: refund.amount,
      refundedFee: refund.convenienceFee,
      declined,
      loweredFee: lowered.convenienceFee
    } satisfies CheckoutResult
  })

/**
 * A refund the processor failed after accepting it (docs/design.md §8): no money went back to
 * the payer, so the Levy refund with that processor reference becomes `failed` with the
 * processor's reason, its amounts go back to the charge (it can be refunded again), and
 * `refund.failed` tells the merchant. A refund already failed, or still pending (its own phases
 * settle it), changes nothing; a refund Levy does not know on a charge it does is logged.
 */
import { Refund as RefundApi } from "@levy/api"
import {
  ChargeRepository,
  type EventRepository,
  Ids,
  type Json,
  ProcessorNotificationRepository,
  type StorageError,
  type Tenant
} from "@levy/storage"
import { Effect, Option, Schema } from "effect"
import type { RefundFailedNotification } from "../processors/PaymentProcessor.js"
import * as RefundWire from "../refunds/RefundWire.js"
import type { Change } from "./Change.js"

const encodeRefund = Schema.encodeSync(RefundApi.Refund)

/** Applies a processor's refund failure to `tenant`'s state. */
export const apply = (
  tenant: Tenant.Tenant,
  n: RefundFailedNotification
): Effect.Effect<
  Change,
  StorageError,
  ProcessorNotificationRepository | ChargeRepository | Ids | EventRepository
> =>
  Effect.gen(function* () {
    const repo = yield* ProcessorNotificationRepository
    const charge = yield* repo.chargeByReference(tenant, n.paymentReference)
    if (Option.isNone(charge)) return "unknown_payment"
    const refund = yield* repo.refundByReference(tenant, n.refundReference)
    if (Option.isNone(refund)) {
      // Levy books every refund of its charges it hears of; one it never heard of failing
      // leaves its books as they are, but someone should know.
      yield* Effect.logWarning("a processor refund failed that Levy has no record of", {
        charge: charge.value.id,
        refund: n.refundReference,
        code: n.code
      })
      return "known"
    }
    const eventId = yield* Effect.flatMap(Ids, (ids) => ids.make("evt"))
    const charges = yield* ChargeRepository
    const failed = yield* charges
      .failRefund(
        tenant,
        refund.value.id,
        { failureCode: n.code, failureMessage: n.message },
        (r, c) => ({
          events: [
            {
              id: eventId,
              accountId: r.accountId,
              livemode: r.livemode,
              type: "refund.failed",
              data: { object: encodeRefund(RefundWire.toWire(r, c.currency)) as unknown as Json },
              request: null,
              created: Math.floor(Date.now() / 1000)
            }
          ]
        })
      )
      .pipe(Effect.catchTag("RecordNotFound", Effect.die))
    return failed.won ? "applied" : "known"
  })

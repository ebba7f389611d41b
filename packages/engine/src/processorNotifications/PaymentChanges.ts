/**
 * Late payment outcomes from processor notifications (docs/design.md §4, §8): a charge left
 * `pending` (the processor answered "pending", or Levy stopped between the processor's answer
 * and its own record) is settled by the notification through the charge's own phase 3
 * (charges/ChargePhases.ts: `charge.succeeded` or `charge.failed`, and the response stored
 * for the client's Idempotency-Key), found by its payment's reference or by the processor key
 * the processor echoes. A settled charge changes nothing. A `separate` charge is two payments
 * whose outcomes must be taken together: it is left to the recovery sweeper.
 */
import {
  type ChargeRepository,
  type Ids,
  ProcessorNotificationRepository,
  type StorageError,
  type StoredCharge,
  type Tenant
} from "@levy/storage"
import { Effect, Option } from "effect"
import * as ChargePhases from "../charges/ChargePhases.js"
import * as ChargeWire from "../charges/ChargeWire.js"
import type { PaymentFailed, PaymentSucceeded } from "../processors/PaymentProcessor.js"
import type { Change } from "./Change.js"

/** The charge a payment notification is about, locked: by reference, else by its key. */
const chargeOf = (tenant: Tenant.Tenant, n: PaymentSucceeded | PaymentFailed) =>
  Effect.gen(function* () {
    const repo = yield* ProcessorNotificationRepository
    const byReference = yield* repo.chargeByReference(tenant, n.paymentReference)
    if (Option.isSome(byReference) || n.idempotencyKey === null) return byReference
    return yield* repo.chargeByProcessorKey(tenant, n.idempotencyKey)
  })

/** What the processor did, as the charge's collection outcome. */
const collectedOf = (charge: StoredCharge, n: PaymentSucceeded | PaymentFailed) =>
  n._tag === "PaymentSucceeded"
    ? {
        _tag: "Succeeded" as const,
        reference: n.paymentReference,
        transactions: [
          { part: "amount" as const, amount: charge.totalAmount, reference: n.paymentReference }
        ]
      }
    : {
        _tag: "Declined" as const,
        code: n.code,
        message: n.message,
        declineCode: n.declineCode
      }

/** Applies a processor's payment notification to `tenant`'s state. */
export const apply = (
  tenant: Tenant.Tenant,
  n: PaymentSucceeded | PaymentFailed
): Effect.Effect<Change, StorageError, ProcessorNotificationRepository | ChargeRepository | Ids> =>
  Effect.gen(function* () {
    const found = yield* chargeOf(tenant, n)
    if (Option.isNone(found)) return "unknown_payment"
    const charge = found.value
    if (charge.status !== "pending") return "known"
    const details = ChargeWire.detailsOf(charge)
    if (details.billingMode === "separate") {
      yield* Effect.logInfo("a separate charge's payment outcome is left to recovery", {
        charge: charge.id,
        payment: n.paymentReference
      })
      return "known"
    }
    if (n._tag === "PaymentSucceeded" && n.amount !== charge.totalAmount) {
      yield* Effect.logWarning("a processor reports a payment of another amount than charged", {
        charge: charge.id,
        charged: charge.totalAmount,
        received: n.amount
      })
    }
    const settled = yield* ChargePhases.settle(charge, collectedOf(charge, n))
    return settled.won ? "applied" : "known"
  })

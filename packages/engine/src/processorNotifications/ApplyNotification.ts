/**
 * One processor notification applied to Levy's state (docs/design.md §8), in one transaction
 * with the record that it was applied and the Levy events it causes: a redelivery finds the
 * record and changes nothing; a failure leaves nothing, and the processor's retry applies it
 * whole. A notification about a payment Levy did not make (the processor account also takes
 * payments elsewhere) is logged and not recorded, so it costs no storage.
 */
import {
  type ChargeRepository,
  type EventRepository,
  type Ids,
  ProcessorNotificationRepository,
  type StorageError,
  type Tenant,
  Transactions
} from "@levy/storage"
import { Data, Effect } from "effect"
import type { Notification } from "../processors/PaymentProcessor.js"
import type { Change } from "./Change.js"
import * as DisputeChanges from "./DisputeChanges.js"
import * as PaymentChanges from "./PaymentChanges.js"
import * as RefundChanges from "./RefundChanges.js"
import * as RefundFailures from "./RefundFailures.js"

/** Undoes the notification's record: nothing else was written. */
class UnknownPayment extends Data.TaggedError("UnknownPayment") {}

/** What a notification changes, inside the caller's transaction. */
const change = (tenant: Tenant.Tenant, processor: string, n: Notification) => {
  switch (n._tag) {
    case "DisputeOpened":
    case "DisputeUpdated":
      return DisputeChanges.apply(tenant, n)
    case "RefundMade":
      return RefundChanges.apply(tenant, processor, n)
    case "RefundFailed":
      return RefundFailures.apply(tenant, n)
    case "PaymentSucceeded":
    case "PaymentFailed":
      return PaymentChanges.apply(tenant, n)
  }
}

/** Applies `n`, sent by `processor` to `tenant`'s URL, at most once. */
export const apply = (
  tenant: Tenant.Tenant,
  processor: string,
  n: Notification
): Effect.Effect<
  Change | "duplicate",
  StorageError,
  ProcessorNotificationRepository | ChargeRepository | Ids | EventRepository | Transactions
> =>
  Effect.gen(function* () {
    const repo = yield* ProcessorNotificationRepository
    const transactions = yield* Transactions
    const outcome = yield* transactions
      .run(
        Effect.gen(function* () {
          // First: a concurrent delivery of the same notification waits here for this one.
          const fresh = yield* repo.record({
            accountId: tenant.accountId,
            livemode: tenant.livemode,
            processor,
            notificationId: n.id,
            receivedMs: Date.now()
          })
          if (!fresh) return "duplicate" as const
          const changed = yield* change(tenant, processor, n)
          if (changed === "unknown_payment") return yield* new UnknownPayment()
          return changed
        })
      )
      .pipe(Effect.catchTag("UnknownPayment", () => Effect.succeed("unknown_payment" as const)))
    if (outcome === "unknown_payment") {
      yield* Effect.logInfo("a processor notification about a payment Levy did not make", {
        processor,
        notification: n.id,
        kind: n._tag
      })
    }
    return outcome
  })

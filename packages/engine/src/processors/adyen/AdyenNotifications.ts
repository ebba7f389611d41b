/**
 * Adyen standard webhooks as the port's notifications. Each notification item carries its own
 * HMAC signature (`additionalData.hmacSignature`), checked with the library's HmacValidator;
 * one bad item rejects the whole batch, so Adyen delivers it again. Mapped: AUTHORISATION (a
 * payment's late outcome), REFUND (a refund, including one made in the Customer Area; with
 * `success` false, a refund Adyen accepted and then could not make), REFUND_FAILED (a refund
 * the card scheme rejected after Adyen sent it),
 * NOTIFICATION_OF_CHARGEBACK and CHARGEBACK (a dispute opened), CHARGEBACK_REVERSED,
 * SECOND_CHARGEBACK, PREARBITRATION_WON / _LOST (its end). Others map to nothing.
 */
import { Effect } from "effect"
import { type DisputeStatus, type Notification, NotificationInvalid } from "../PaymentProcessor.js"
import { AdyenSdk } from "./AdyenSdk.js"

const NAME = "adyen"

/** One item as Adyen sends it (the fields Levy reads). */
interface Item {
  readonly eventCode: string
  readonly pspReference: string
  readonly originalReference?: string
  readonly merchantAccountCode: string
  readonly merchantReference: string
  readonly amount: { readonly value: number; readonly currency: string }
  readonly success: string
  readonly eventDate?: string
  readonly reason?: string
  readonly additionalData?: Readonly<Record<string, string | undefined>>
}

/** Adyen's dispute status (`additionalData.disputeStatus`) in Levy's words. */
const disputeStatus = (status: string | undefined, fallback: DisputeStatus): DisputeStatus => {
  switch (status) {
    case "Won":
      return "won"
    case "Lost":
    case "Accepted":
    case "Expired":
      return "lost"
    case "Responded":
    case "Pending":
      return "under_review"
    case "Undefended":
      return "needs_response"
    default:
      return fallback
  }
}

const CLOSING: Readonly<Record<string, DisputeStatus>> = {
  CHARGEBACK_REVERSED: "won",
  PREARBITRATION_WON: "won",
  SECOND_CHARGEBACK: "lost",
  PREARBITRATION_LOST: "lost"
}

const invalid = (reason: "signature" | "malformed", message: string) =>
  new NotificationInvalid({ processor: NAME, reason, message })

/** A chargeback's reason: Adyen's text, else the network's reason code. */
const reasonOf = (item: Item): string =>
  item.reason || item.additionalData?.chargebackReasonCode || "unknown"

/** A refund (the item's `pspReference`) that moved no money after all. */
const refundFailed = (
  item: Item,
  id: string,
  occurredAt: number,
  paymentReference: string
): Notification => ({
  _tag: "RefundFailed",
  id,
  occurredAt,
  refundReference: item.pspReference,
  paymentReference,
  code: item.eventCode === "REFUND" ? "refund_failed" : "refund_rejected_by_scheme",
  message: item.reason || "Adyen could not complete the refund."
})

/** The notifications one verified item stands for. */
const notificationsOf = (item: Item): ReadonlyArray<Notification> => {
  const id = `${item.pspReference}:${item.eventCode}:${item.success}`
  const occurredAt = Math.floor(Date.parse(item.eventDate ?? "") / 1000) || 0
  const succeeded = item.success === "true"
  const paymentReference = item.originalReference || item.pspReference
  const currency = item.amount.currency.toLowerCase()
  switch (item.eventCode) {
    case "AUTHORISATION":
      return [
        succeeded
          ? {
              _tag: "PaymentSucceeded",
              id,
              occurredAt,
              paymentReference: item.pspReference,
              idempotencyKey: item.merchantReference || null,
              amount: item.amount.value
            }
          : {
              _tag: "PaymentFailed",
              id,
              occurredAt,
              paymentReference: item.pspReference,
              idempotencyKey: item.merchantReference || null,
              code: "card_declined",
              message: item.reason || "The payment was refused.",
              declineCode: "generic_decline"
            }
      ]
    case "REFUND":
      // Adyen's refund call only says it was received: success false is a refund that failed
      // after Levy recorded it made, so it moved no money and Levy gives its amounts back.
      return succeeded
        ? [
            {
              _tag: "RefundMade",
              id,
              occurredAt,
              refundReference: item.pspReference,
              paymentReference,
              amount: item.amount.value,
              currency,
              idempotencyKey: item.merchantReference || null
            }
          ]
        : [refundFailed(item, id, occurredAt, paymentReference)]
    case "REFUND_FAILED":
      return [refundFailed(item, id, occurredAt, paymentReference)]
    case "NOTIFICATION_OF_CHARGEBACK":
    case "CHARGEBACK": {
      // A CHARGEBACK may come with no NOTIFICATION_OF_CHARGEBACK before it: it opens the
      // dispute if Levy has none, and sets the status Adyen gives.
      const status = disputeStatus(item.additionalData?.disputeStatus, "needs_response")
      const opened: Notification = {
        _tag: "DisputeOpened",
        id: `${id}:opened`,
        occurredAt,
        disputeReference: paymentReference,
        paymentReference,
        amount: item.amount.value,
        currency,
        reason: reasonOf(item),
        status
      }
      return item.eventCode === "CHARGEBACK"
        ? [
            opened,
            {
              _tag: "DisputeUpdated",
              id,
              occurredAt,
              disputeReference: paymentReference,
              paymentReference,
              status,
              amount: item.amount.value,
              currency,
              reason: reasonOf(item)
            }
          ]
        : [opened]
    }
    default: {
      const closing = CLOSING[item.eventCode]
      return closing === undefined
        ? []
        : [
            {
              _tag: "DisputeUpdated",
              id,
              occurredAt,
              disputeReference: paymentReference,
              paymentReference,
              status: closing,
              amount: item.amount.value,
              currency,
              reason: reasonOf(item)
            }
          ]
    }
  }
}

/** Reads, verifies and normalizes one webhook body. */
export const parse = (
  rawBody: string,
  hmacKey: string,
  livemode: boolean
): Effect.Effect<ReadonlyArray<Notification>, NotificationInvalid> =>
  Effect.gen(function* () {
    const body = yield* Effect.try({
      try: () =>
        JSON.parse(rawBody) as {
          live?: string
          notificationItems?: Array<{ NotificationRequestItem?: Item }>
        },
      catch: () => invalid("malformed", "The body is not JSON.")
    })
    const items = (body?.notificationItems ?? []).map((entry) => entry?.NotificationRequestItem)
    if (items.length === 0 || items.some((item) => item?.amount === undefined)) {
      return yield* invalid(
        "malformed",
        "The body is not an Adyen notification (notificationItems)."
      )
    }
    if ((body.live === "true") !== livemode) {
      return yield* invalid(
        "malformed",
        `An Adyen ${body.live === "true" ? "live" : "test"} notification reached the ${livemode ? "live" : "test"}-mode URL; point each Adyen webhook at the URL of its own mode.`
      )
    }
    const Adyen = yield* Effect.promise(AdyenSdk.load)
    const validator = new Adyen.hmacValidator()
    for (const item of items as Array<Item>) {
      const valid = yield* Effect.try({
        try: () => validator.validateHMAC(item as never, hmacKey),
        catch: () => invalid("signature", "A notification item has no hmacSignature.")
      })
      if (!valid) {
        return yield* invalid(
          "signature",
          "A notification item's hmacSignature does not match the webhook's HMAC key (Customer Area → Developers → Webhooks)."
        )
      }
    }
    return (items as Array<Item>).flatMap(notificationsOf)
  })

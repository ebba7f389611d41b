/**
 * Stripe webhook events as the port's notifications. The signature is checked by the `stripe`
 * SDK over the exact raw body; the events Levy acts on are disputes (`charge.dispute.*`),
 * refunds (`refund.created`, and `charge.refunded` when its charge lists the refunds), a
 * refund failing after Stripe accepted it (`refund.failed`), and late payment outcomes (`payment_intent.succeeded` / `payment_failed`). Others map to nothing.
 */
import type Stripe from "stripe"
import type { DisputeStatus, Notification } from "../PaymentProcessor.js"

/** The metadata key under which the adapter records Levy's idempotency key on a PaymentIntent. */
export const IDEMPOTENCY_METADATA = "levy_idempotency_key"

/** Stripe's dispute statuses in Levy's four (an inquiry closed without a chargeback is won). */
export const disputeStatus = (status: string): DisputeStatus => {
  switch (status) {
    case "won":
    case "warning_closed":
    case "prevented":
      return "won"
    case "lost":
      return "lost"
    case "under_review":
    case "warning_under_review":
    case "appeal_under_review":
      return "under_review"
    default:
      return "needs_response"
  }
}

/** The id of an expandable field: the string, or the expanded object's id. */
const idOf = (field: string | { readonly id: string } | null | undefined): string | null =>
  field === null || field === undefined ? null : typeof field === "string" ? field : field.id

const fromDispute = (event: Stripe.Event, dispute: Stripe.Dispute): Notification => {
  const base = {
    id: event.id,
    occurredAt: event.created,
    disputeReference: dispute.id,
    paymentReference: idOf(dispute.payment_intent) ?? idOf(dispute.charge) ?? "",
    status: disputeStatus(dispute.status),
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason
  }
  return event.type === "charge.dispute.created"
    ? { _tag: "DisputeOpened", ...base }
    : { _tag: "DisputeUpdated", ...base }
}

const fromRefund = (event: Stripe.Event, refund: Stripe.Refund): Notification => ({
  _tag: "RefundMade",
  id: `${event.id}:${refund.id}`,
  occurredAt: event.created,
  refundReference: refund.id,
  paymentReference: idOf(refund.payment_intent) ?? idOf(refund.charge) ?? "",
  amount: refund.amount,
  currency: refund.currency,
  idempotencyKey: refund.metadata?.[IDEMPOTENCY_METADATA] ?? null
})

/** Why Stripe failed a refund, in words (its `failure_reason` codes, Refunds API reference). */
const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  lost_or_stolen_card: "The card was reported lost or stolen.",
  expired_or_canceled_card: "The card expired or was canceled.",
  charge_for_pending_refund_disputed: "The charge was disputed while the refund was pending.",
  insufficient_funds: "The Stripe balance could not cover the refund.",
  declined: "The card's issuer declined the refund.",
  merchant_request: "The refund was canceled at the merchant's request."
}

const fromFailedRefund = (event: Stripe.Event, refund: Stripe.Refund): Notification => {
  const code = refund.failure_reason ?? "unknown"
  return {
    _tag: "RefundFailed",
    id: event.id,
    occurredAt: event.created,
    refundReference: refund.id,
    paymentReference: idOf(refund.payment_intent) ?? idOf(refund.charge) ?? "",
    code,
    message: FAILURE_MESSAGES[code] ?? "Stripe could not complete the refund."
  }
}

const fromPaymentIntent = (event: Stripe.Event, intent: Stripe.PaymentIntent): Notification => {
  const base = {
    id: event.id,
    occurredAt: event.created,
    paymentReference: intent.id,
    idempotencyKey: intent.metadata[IDEMPOTENCY_METADATA] ?? null
  }
  if (event.type === "payment_intent.succeeded") {
    return { _tag: "PaymentSucceeded", ...base, amount: intent.amount_received }
  }
  const error = intent.last_payment_error
  return {
    _tag: "PaymentFailed",
    ...base,
    code: error?.code ?? "card_declined",
    message: error?.message ?? "The payment failed.",
    declineCode: error?.decline_code ?? "generic_decline"
  }
}

/** The notifications one verified Stripe event stands for. */
export const notificationsOf = (event: Stripe.Event): ReadonlyArray<Notification> => {
  switch (event.type) {
    case "charge.dispute.created":
    case "charge.dispute.updated":
    case "charge.dispute.closed":
      return [fromDispute(event, event.data.object)]
    case "refund.created":
      return [fromRefund(event, event.data.object)]
    case "refund.failed":
      return [fromFailedRefund(event, event.data.object)]
    case "charge.refunded": {
      // Since API version 2022-11-15 a charge no longer lists its refunds unless expanded, so
      // this event usually carries none; `refund.created` then says which refund it was.
      const refunds = event.data.object.refunds?.data ?? []
      return refunds.map((refund) => fromRefund(event, refund))
    }
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
      return [fromPaymentIntent(event, event.data.object)]
    default:
      return []
  }
}

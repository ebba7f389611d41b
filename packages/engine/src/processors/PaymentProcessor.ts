/**
 * The payment processor port (docs/design.md §4): what Levy needs from a processor that really
 * moves money — what a payment method is, a charge and a refund each made at most once per
 * idempotency key, a payment found again by its key after a crash, one cheap credentials check,
 * and the processor's own notifications (disputes, dashboard refunds, late payment outcomes)
 * verified and normalized.
 *
 * Every operation that moves money takes an idempotency key chosen by Levy and fixed in storage
 * before the call (docs/design.md §4), so a call repeated after a crash or a timeout returns the
 * first call's result and never moves money twice. An adapter passes the key to the processor's
 * own idempotency mechanism (Stripe's `Idempotency-Key` header, Adyen's `Idempotency-Key`
 * header) AND records it on the payment or refund itself (Stripe metadata, Adyen
 * `merchantReference`), because processors forget idempotency keys after a while (Stripe: 24
 * hours) and `lookup` / `lookupRefund` must still find it.
 *
 * Amounts are integers in the currency's minor units, currencies ISO 4217 lower case.
 */
import { Data, type Duration, type Effect, type Option } from "effect"

// ---------------------------------------------------------------------------------------------
// Payment methods

/** How the card is funded: what the law and the card networks' surcharge rules turn on. */
export type Funding = "credit" | "debit" | "prepaid" | "unknown"

/** Whether the card is issued to a person or to a business. */
export type Category = "consumer" | "commercial" | "unknown"

/** What the processor knows about a payment source, before any money moves. */
export interface PaymentMethod {
  readonly funding: Funding
  /** The card network, lower case (`visa`, `mastercard`, `amex`, …), when known. */
  readonly network: string | null
  /** The issuer's country, ISO 3166-1 alpha-2 upper case (`US`, `CA`), when known. */
  readonly issuingCountry: string | null
  readonly category: Category
}

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * The processor could not be reached, timed out, or answered in a way that leaves the outcome
 * unknown (5xx, a broken connection, an idempotency conflict still in flight). Money MAY have
 * moved: the caller must not give up on the payment but ask `lookup` or repeat the same call
 * with the same idempotency key later.
 */
export class ProcessorUnavailable extends Data.TaggedError("ProcessorUnavailable")<{
  readonly processor: string
  readonly message: string
  readonly cause?: unknown
}> {}

/**
 * The processor refused Levy's configuration: credentials wrong or revoked, the account not
 * allowed to do this (e.g. surcharging not enabled), a request the processor deems malformed.
 * Repeating will not help until someone changes the configuration; no money moved. With
 * `param`, the refusal is of a field of the request itself (its metadata): the request, not
 * the account's configuration, must change.
 */
export class ProcessorRefused extends Data.TaggedError("ProcessorRefused")<{
  readonly processor: string
  readonly message: string
  /** The processor's own error code, when it gave one. */
  readonly code?: string
  /** The request's field (Levy's name for it: `metadata`, `description`) it refused. */
  readonly param?: string
  /**
   * Levy refused it itself, before asking the processor (a key of the other mode, a setting
   * Levy cannot send): the messages say so, never that the processor refused.
   */
  readonly byLevy?: true
  /** The processor configuration's field Levy refused (`credentials[secretKey]`, `surcharge`). */
  readonly setting?: string
}> {}

/** The source is not a payment method this processor can use (unknown, expired, consumed). */
export class SourceInvalid extends Data.TaggedError("SourceInvalid")<{
  readonly source: string
  readonly message: string
}> {}

/** A notification whose signature does not verify, or whose body cannot be read. */
export class NotificationInvalid extends Data.TaggedError("NotificationInvalid")<{
  readonly processor: string
  readonly reason: "signature" | "malformed"
  readonly message: string
}> {}

/** What any call to the processor can fail with. */
export type ProcessorError = ProcessorUnavailable | ProcessorRefused

// ---------------------------------------------------------------------------------------------
// Charges

export interface ChargeRequest {
  /** Levy's key for this payment: the same key never pays twice (see the module comment). */
  readonly idempotencyKey: string
  readonly source: string
  /** The total to take from the card, minor units, fee included. */
  readonly amount: number
  readonly currency: string
  /**
   * The convenience fee included in `amount`, minor units; recorded on the payment (metadata).
   * Where the processor account enables it, the adapter also sends it as the processor's
   * surcharge field.
   */
  readonly fee: number
  readonly description?: string
  /** Free-form string pairs recorded on the payment (Levy's charge id among them). */
  readonly metadata: Readonly<Record<string, string>>
}

/** The payment was authorized and captured. */
export interface ChargeSucceeded {
  readonly _tag: "Succeeded"
  /** The processor's id of the payment (Stripe PaymentIntent id, Adyen pspReference). */
  readonly reference: string
  /** The amount captured, minor units. */
  readonly amount: number
  /**
   * A dispute the processor reported together with the payment, and how it ended when it
   * already did. Only the simulator does (`tok_chargeDispute`, open; `tok_chargeDisputeWon`,
   * `tok_chargeDisputeLost`, closed at once); real processors report disputes later, as
   * notifications.
   */
  readonly dispute?: { readonly reason: string; readonly outcome?: "won" | "lost" }
}

/** The issuer or the processor's risk checks declined the payment; no money moved. */
export interface ChargeDeclined {
  readonly _tag: "Declined"
  /** Levy's failure code (`card_declined`, `expired_card`, `incorrect_cvc`, …). */
  readonly code: string
  /** A message fit to show the payer. */
  readonly message: string
  /** The issuer's reason, Stripe's vocabulary (`generic_decline`, `insufficient_funds`, …). */
  readonly declineCode: string
  /** The processor's id of the declined attempt, when it made one. */
  readonly reference?: string
}

/**
 * The processor accepted the payment but its outcome comes later (3-D Secure, an asynchronous
 * method, a capture still in progress). The outcome arrives as a `PaymentSucceeded` /
 * `PaymentFailed` notification, or from `lookup`.
 */
export interface ChargePending {
  readonly _tag: "Pending"
  readonly reference: string
}

export type ChargeOutcome = ChargeSucceeded | ChargeDeclined | ChargePending

// ---------------------------------------------------------------------------------------------
// Refunds

export interface RefundRequest {
  /** Levy's key for this refund: the same key never refunds twice. */
  readonly idempotencyKey: string
  /** The `reference` of the succeeded payment. */
  readonly paymentReference: string
  /** The amount to give back, minor units; at most what is left of the payment. */
  readonly amount: number
  readonly currency: string
}

/** The processor took the refund (it may still settle later, but it is no longer Levy's call). */
export interface Refunded {
  readonly _tag: "Refunded"
  readonly reference: string
}

/** The processor refused the refund (already fully refunded, disputed, too old); no money moved. */
export interface RefundFailed {
  readonly _tag: "RefundFailed"
  readonly code: string
  readonly message: string
}

export type RefundOutcome = Refunded | RefundFailed

/** Which refund to find again: Levy's key for it, on the payment it gave money back from. */
export interface RefundLookup {
  readonly idempotencyKey: string
  /** The `reference` of the payment refunded (where the processor lists its refunds). */
  readonly paymentReference: string
}

// ---------------------------------------------------------------------------------------------
// Idempotency guarantees

/**
 * What a processor promises about Levy's idempotency keys, which recovery rests on
 * (docs/processors.md "How recovery works"): a money-moving call is repeated under its key only
 * while the processor still replays the first answer to it, and past that only after asking
 * the processor whether the first call went through.
 */
export interface IdempotencyGuarantee {
  /**
   * How long the processor replays the first answer to a key (Stripe: 24 hours; Adyen: at least
   * 31 days); infinite for the simulator, which is deterministic.
   */
  readonly keyWindow: Duration.Duration
  /** Whether `lookup` really asks the processor (false: it always answers None). */
  readonly lookupCharges: boolean
  /** Whether `lookupRefund` really asks the processor (false: it always answers None). */
  readonly lookupRefunds: boolean
}

// ---------------------------------------------------------------------------------------------
// Notifications (the processor's webhooks), normalized

/** Fields every notification has. */
interface NotificationBase {
  /**
   * The processor's id of this notification, stable across redeliveries (Stripe event id;
   * Adyen pspReference + eventCode + success): Levy stores it and ignores a repeat.
   */
  readonly id: string
  /** When the processor says the change happened, Unix seconds (orders out-of-order deliveries). */
  readonly occurredAt: number
}

/** Where a dispute stands, in Levy's words. */
export type DisputeStatus = "needs_response" | "under_review" | "won" | "lost"

export interface DisputeOpened extends NotificationBase {
  readonly _tag: "DisputeOpened"
  readonly disputeReference: string
  readonly paymentReference: string
  readonly amount: number
  readonly currency: string
  readonly reason: string
  readonly status: DisputeStatus
}

/**
 * A dispute moved on; `won` and `lost` close it. It carries what opening the dispute needs
 * too, so a dispute whose opening notification is late (or never comes) is opened from it.
 */
export interface DisputeUpdated extends NotificationBase {
  readonly _tag: "DisputeUpdated"
  readonly disputeReference: string
  readonly paymentReference: string
  readonly status: DisputeStatus
  readonly amount: number
  readonly currency: string
  readonly reason: string
}

/** A refund Levy did not ask for (made in the processor's dashboard), or one Levy did. */
export interface RefundMade extends NotificationBase {
  readonly _tag: "RefundMade"
  readonly refundReference: string
  readonly paymentReference: string
  readonly amount: number
  readonly currency: string
  /**
   * The idempotency key the refund was made with, when the notification carries one (Levy's
   * own refunds: Stripe metadata, Adyen `merchantReference`): how Levy recognises its own.
   */
  readonly idempotencyKey: string | null
}

/**
 * A refund the processor had accepted failed afterwards (Stripe `refund.failed`; Adyen
 * `REFUND_FAILED`, or a REFUND with `success` false): no money went back to the payer. Its
 * tag is `RefundFailed`, as the port's refund outcome of that name: both say the refund moved
 * no money, one when Levy asks, this one later.
 */
export interface RefundFailedNotification extends NotificationBase {
  readonly _tag: "RefundFailed"
  readonly refundReference: string
  readonly paymentReference: string
  /** The processor's reason (Stripe `failure_reason`, Adyen's event code). */
  readonly code: string
  readonly message: string
}

/** A payment left pending succeeded. */
export interface PaymentSucceeded extends NotificationBase {
  readonly _tag: "PaymentSucceeded"
  readonly paymentReference: string
  /** The idempotency key Levy recorded on the payment, when the notification carries it. */
  readonly idempotencyKey: string | null
  readonly amount: number
}

/** A payment left pending failed. */
export interface PaymentFailed extends NotificationBase {
  readonly _tag: "PaymentFailed"
  readonly paymentReference: string
  readonly idempotencyKey: string | null
  readonly code: string
  readonly message: string
  readonly declineCode: string
}

export type Notification =
  | DisputeOpened
  | DisputeUpdated
  | RefundMade
  | RefundFailedNotification
  | PaymentSucceeded
  | PaymentFailed

/** A notification's HTTP headers, names lower case. */
export type NotificationHeaders = Readonly<Record<string, string | undefined>>

// ---------------------------------------------------------------------------------------------
// The port

/** A processor, bound to one account's credentials and mode. */
export interface PaymentProcessor {
  /** `simulator`, `stripe`, `adyen`: the name in configuration and notification URLs. */
  readonly name: string

  /**
   * What the source is (funding, network, issuing country, category). Read-only, safe to call
   * any number of times. Levy uses it instead of trusting the request's card type.
   */
  readonly describe: (
    source: string
  ) => Effect.Effect<PaymentMethod, SourceInvalid | ProcessorError>

  /**
   * Authorizes and captures `amount`. Idempotent on `idempotencyKey`: repeating the call with
   * the same key and request returns the first call's outcome and never takes money twice, for
   * as long as `lookup` can find the payment. `ProcessorUnavailable` means the outcome is
   * unknown: money may have moved.
   */
  readonly charge: (
    request: ChargeRequest
  ) => Effect.Effect<ChargeOutcome, SourceInvalid | ProcessorError>

  /**
   * Gives back `amount` of a succeeded payment (full or partial). Idempotent on
   * `idempotencyKey` like `charge`, within the processor's key window; the adapter records the
   * key on the refund so `lookupRefund` finds it after that.
   */
  readonly refund: (request: RefundRequest) => Effect.Effect<RefundOutcome, ProcessorError>

  /**
   * The payment made with this idempotency key, if any (recovery after a crash between the
   * processor's answer and Levy's record of it). `None` means the processor has no payment
   * with this key, so repeating the charge with the same key is safe. Read-only; always
   * `None` where `idempotency.lookupCharges` is false.
   */
  readonly lookup: (
    idempotencyKey: string
  ) => Effect.Effect<Option.Option<ChargeOutcome>, ProcessorError>

  /**
   * The refund made with this idempotency key on this payment, if any (recovery of a refund
   * left pending). `None` means the processor has no such refund, so repeating the refund with
   * the same key is safe. Read-only; always `None` where `idempotency.lookupRefunds` is false.
   */
  readonly lookupRefund: (
    request: RefundLookup
  ) => Effect.Effect<Option.Option<RefundOutcome>, ProcessorError>

  /** How long the processor honours a key, and which lookups it has. */
  readonly idempotency: IdempotencyGuarantee

  /**
   * One cheap, read-only call proving the credentials work (used when saving configuration).
   * Fails `ProcessorRefused` with the processor's reason when they do not.
   */
  readonly verifyCredentials: () => Effect.Effect<void, ProcessorError>

  /**
   * Verifies a notification's signature over the exact raw body with `webhookSecret` (Stripe:
   * the endpoint's `whsec_…` through the `stripe` SDK; Adyen: the HMAC key) and normalizes what
   * it says. Events Levy does not act on are left out (an empty array is fine). Pure: no call
   * to the processor.
   */
  readonly parseNotification: (
    rawBody: string,
    headers: NotificationHeaders,
    webhookSecret: string
  ) => Effect.Effect<ReadonlyArray<Notification>, NotificationInvalid>

  /**
   * The body to answer an accepted notification with, when the processor wants a particular
   * one (Adyen: `[accepted]`); otherwise Levy answers `{"received":true}`.
   */
  readonly notificationAcknowledgement?: string
}

// ---------------------------------------------------------------------------------------------
// Adapters' factories

/** What an adapter is built from: one account's configuration for one mode. */
export interface ProcessorSettings {
  /** The processor's credentials by field name (see `ProcessorDefinition.credentialFields`). */
  readonly credentials: Readonly<Record<string, string>>
  /** Where the processor's API is (a proxy, a local fake in tests); the processor's own by default. */
  readonly apiBaseUrl?: string
  /** Live money, or the processor's own test environment. */
  readonly livemode: boolean
  /** Send the fee in the processor's surcharge field (only where the account enables it). */
  readonly surcharge?: boolean
}

/** One credential an adapter needs. */
export interface CredentialField {
  readonly name: string
  readonly description: string
  /** Required to save the configuration. */
  readonly required: boolean
}

/** An adapter as Levy's configuration sees it: its name, what it needs, how to build it. */
export interface ProcessorDefinition {
  readonly name: string
  readonly credentialFields: ReadonlyArray<CredentialField>
  /** The credential `parseNotification` verifies signatures with. */
  readonly webhookSecretField: string
  /** How long the processor honours an idempotency key, and which lookups it has. */
  readonly idempotency: IdempotencyGuarantee
  readonly make: (settings: ProcessorSettings) => PaymentProcessor
}

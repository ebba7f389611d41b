/**
 * The test-mode payment processor (docs/design.md §4) on the `PaymentProcessor` port: the
 * `source` token decides the card and the outcome, so integrations exercise declines and
 * disputes without real cards. It is deterministic: the same key and request always give the
 * same outcome and references, so repeating a charge or a refund after a restart (when `lookup`
 * and `lookupRefund`, which only remember this process's, say None) is as safe as at a real
 * processor — at any age: its keys never expire.
 */
import { createHash } from "node:crypto"
import { Duration, Effect, Option } from "effect"
import {
  type ChargeOutcome,
  type ChargeSucceeded,
  type IdempotencyGuarantee,
  NotificationInvalid,
  type PaymentMethod,
  type PaymentProcessor,
  type RefundOutcome,
  SourceInvalid
} from "../PaymentProcessor.js"

/** The name in charges' `processor` and in configuration. */
export const NAME = "simulator"

/** The default source when a test-mode charge names none. */
export const DEFAULT_SOURCE = "tok_visa"

/**
 * A test card: its funding and network. Issuer country and category are left unknown unless
 * the token is about them, so the request's `cardIssuingCountry` and `cardholder` decide them
 * (a test card issued in one fixed country would make every test-mode charge elsewhere a
 * foreign card's).
 */
const card = (
  funding: "credit" | "debit" | "prepaid",
  network: "visa" | "mastercard",
  issuer: Partial<Pick<PaymentMethod, "issuingCountry" | "category">> = {}
): PaymentMethod => ({
  funding,
  network,
  issuingCountry: issuer.issuingCountry ?? null,
  category: issuer.category ?? "unknown"
})

/** The test cards (docs/server.md "Test cards"); the country tokens are named as Stripe's. */
const CARDS: Readonly<Record<string, PaymentMethod>> = {
  tok_visa: card("credit", "visa"),
  tok_mastercard: card("credit", "mastercard"),
  tok_visa_debit: card("debit", "visa"),
  tok_mastercard_debit: card("debit", "mastercard"),
  tok_mastercard_prepaid: card("prepaid", "mastercard"),
  tok_visa_commercial: card("credit", "visa", { category: "commercial" }),
  tok_gb: card("credit", "visa", { issuingCountry: "GB", category: "consumer" }),
  tok_de: card("credit", "visa", { issuingCountry: "DE", category: "consumer" }),
  tok_au: card("credit", "visa", { issuingCountry: "AU", category: "consumer" }),
  tok_chargeDeclined: card("credit", "visa"),
  tok_chargeDispute: card("credit", "visa"),
  tok_chargeDisputeWon: card("credit", "visa"),
  tok_chargeDisputeLost: card("credit", "visa")
}

/**
 * The dispute each disputing token opens. The simulator sends no notifications, so a dispute
 * that ends is reported ended with the payment: the charge's disputes then go through
 * `dispute.created` and `dispute.closed` at once, and refunds after a won or a lost dispute
 * can be tried without waiting on an issuer.
 */
const DISPUTES: Readonly<Record<string, NonNullable<ChargeSucceeded["dispute"]>>> = {
  tok_chargeDispute: { reason: "fraudulent" },
  tok_chargeDisputeWon: { reason: "fraudulent", outcome: "won" },
  tok_chargeDisputeLost: { reason: "fraudulent", outcome: "lost" }
}

/** The tokens the simulator knows. */
export const TOKENS: ReadonlyArray<string> = Object.keys(CARDS)

/** How many charges (and refunds) the lookups remember; forgetting is safe: repeating is deterministic. */
const REMEMBERED = 100_000

/** Deterministic, so a key is honoured forever; both lookups find this process's own. */
const IDEMPOTENCY: IdempotencyGuarantee = {
  keyWindow: Duration.infinity,
  lookupCharges: true,
  lookupRefunds: true
}

/** A stable, fake processor reference for a key. */
const reference = (prefix: string, key: string) =>
  `${prefix}_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`

const invalid = (source: string) =>
  new SourceInvalid({
    source,
    message: `In test mode the source must be one of ${TOKENS.join(", ")}.`
  })

/** The simulator with what it did, counted (for tests). */
export interface SimulatorProcessor extends PaymentProcessor {
  /** Distinct succeeded payments (one per key). */
  readonly payments: () => number
  /** Distinct refunds (one per key). */
  readonly refunds: () => number
}

/** A simulator with its own memory of charges. */
export const make = (): SimulatorProcessor => {
  const charges = new Map<string, ChargeOutcome>()
  const refunds = new Map<string, RefundOutcome>()
  const remember = <A>(memory: Map<string, A>, key: string, outcome: A) => {
    if (memory.size >= REMEMBERED) memory.delete(memory.keys().next().value as string)
    memory.set(key, outcome)
  }
  const outcomeOf = (key: string, source: string, amount: number): ChargeOutcome =>
    source === "tok_chargeDeclined"
      ? {
          _tag: "Declined",
          code: "card_declined",
          message: "Your card was declined.",
          declineCode: "generic_decline",
          reference: reference("sim", key)
        }
      : {
          _tag: "Succeeded",
          reference: reference("sim", key),
          amount,
          ...(DISPUTES[source] === undefined ? {} : { dispute: DISPUTES[source] })
        }
  return {
    name: NAME,
    describe: (source) => {
      const method = CARDS[source]
      return method === undefined ? Effect.fail(invalid(source)) : Effect.succeed(method)
    },
    charge: (request) =>
      Effect.suspend(() => {
        if (CARDS[request.source] === undefined) return Effect.fail(invalid(request.source))
        const outcome =
          charges.get(request.idempotencyKey) ??
          outcomeOf(request.idempotencyKey, request.source, request.amount)
        remember(charges, request.idempotencyKey, outcome)
        return Effect.succeed(outcome)
      }),
    refund: (request) =>
      Effect.sync(() => {
        const outcome: RefundOutcome = {
          _tag: "Refunded",
          reference: reference("simre", request.idempotencyKey)
        }
        remember(refunds, request.idempotencyKey, outcome)
        return outcome
      }),
    lookup: (key) => Effect.sync(() => Option.fromNullable(charges.get(key))),
    lookupRefund: (request) =>
      Effect.sync(() => Option.fromNullable(refunds.get(request.idempotencyKey))),
    idempotency: IDEMPOTENCY,
    verifyCredentials: () => Effect.void,
    parseNotification: () =>
      Effect.fail(
        new NotificationInvalid({
          processor: NAME,
          reason: "malformed",
          message: "The simulator sends no notifications."
        })
      ),
    payments: () => [...charges.values()].filter((o) => o._tag === "Succeeded").length,
    refunds: () => refunds.size
  }
}

/** The simulator every test-mode tenant without a configured processor uses. */
export const processor: SimulatorProcessor = make()

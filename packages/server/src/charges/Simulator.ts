/**
 * The test-mode payment processor (docs/design.md §4): the `source` token decides the card and
 * the outcome, so integrations can exercise declines and disputes without real cards.
 */
import { createHash } from "node:crypto"
import { Effect, Either, Option } from "effect"
import type { CollectOutcome, CollectRequest, PaymentProcessor } from "./PaymentProcessor.js"

/** A test card: its type and network. */
export interface Card {
  readonly cardType: "credit" | "debit"
  readonly cardNetwork: "visa" | "mastercard"
}

/** The default source when a test-mode charge names none. */
export const DEFAULT_SOURCE = "tok_visa"

const CARDS: Readonly<Record<string, Card>> = {
  tok_visa: { cardType: "credit", cardNetwork: "visa" },
  tok_mastercard: { cardType: "credit", cardNetwork: "mastercard" },
  tok_visa_debit: { cardType: "debit", cardNetwork: "visa" },
  tok_mastercard_debit: { cardType: "debit", cardNetwork: "mastercard" },
  tok_chargeDeclined: { cardType: "credit", cardNetwork: "visa" },
  tok_chargeDispute: { cardType: "credit", cardNetwork: "visa" }
}

/** The tokens the simulator knows. */
export const TOKENS: ReadonlyArray<string> = Object.keys(CARDS)

/** A stable, fake processor reference for one part of a charge. */
const reference = (chargeId: string, part: string) =>
  `sim_${createHash("sha256").update(`${chargeId}:${part}`).digest("hex").slice(0, 24)}`

const outcome = (request: CollectRequest): CollectOutcome => {
  if (request.source === "tok_chargeDeclined") {
    return {
      _tag: "Declined",
      failureCode: "card_declined",
      failureMessage: "Your card was declined.",
      declineCode: "generic_decline"
    }
  }
  return {
    _tag: "Succeeded",
    transactions: request.parts.map((p) => ({
      ...p,
      reference: reference(request.chargeId, p.part)
    })),
    dispute:
      request.source === "tok_chargeDispute" ? Option.some({ reason: "fraudulent" }) : Option.none()
  }
}

export const processor: PaymentProcessor = {
  describe: (source) => {
    const card = CARDS[source]
    return card === undefined
      ? Either.left(`In test mode the source must be one of ${TOKENS.join(", ")}.`)
      : Either.right(Option.some(card))
  },
  collect: (request) => Effect.sync(() => outcome(request))
}

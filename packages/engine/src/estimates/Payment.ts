/**
 * The checks between a charge request and its collection: the tenant's processor (none in
 * live mode until one is configured), the card the source stands for against the request's
 * `cardType`/`cardNetwork`, the fee's compliance under the account's `nonCompliant` policy,
 * and the amounts to collect for the billing mode.
 */

import type { ChargeCreate, FeeConfigUpdate, Quote } from "@levy/api"
import type { Estimate } from "@levy/core"
import type { StorageError, Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import type {
  PaymentMethod,
  PaymentProcessor,
  ProcessorRefused,
  ProcessorUnavailable,
  SourceInvalid
} from "../processors/PaymentProcessor.js"
import type { PaymentProcessors } from "../processors/PaymentProcessors.js"
import { CardMismatch, FeeNotCompliant, ProcessorNotConfigured } from "./PaymentErrors.js"

export { DEFAULT_SOURCE } from "../processors/simulator/Simulator.js"

/** The tenant's processor; none configured is `ProcessorNotConfigured`. */
export const processorFor = (
  processors: typeof PaymentProcessors.Service,
  tenant: Tenant.Tenant
): Effect.Effect<PaymentProcessor, ProcessorNotConfigured | StorageError> =>
  processors.forTenant(tenant).pipe(
    Effect.flatMap(
      Option.match({
        onSome: Effect.succeed,
        onNone: () => Effect.fail(new ProcessorNotConfigured({ tenant }))
      })
    )
  )

/** The card fields of a charge request the processor can tell. */
type CardFields = Pick<
  ChargeCreate.ChargeCreate,
  "cardType" | "cardNetwork" | "cardIssuingCountry" | "cardholder"
>

/** Who holds a card of the processor's category, in the engine's words. */
const HOLDER = { consumer: "consumer", commercial: "business" } as const

/** What the processor says of the card, as the engine's inputs (unknowns left out). */
const fieldsOf = (method: PaymentMethod): CardFields => ({
  ...(method.funding === "unknown" ? {} : { cardType: method.funding }),
  ...(method.network === null ? {} : { cardNetwork: method.network }),
  ...(method.issuingCountry === null ? {} : { cardIssuingCountry: method.issuingCountry }),
  ...(method.category === "unknown" ? {} : { cardholder: HOLDER[method.category] })
})

const describeCard = (card: CardFields) =>
  [card.cardIssuingCountry, card.cardholder, card.cardNetwork, card.cardType]
    .filter((p) => p !== undefined)
    .join(" ")

/** A source as the processor described it: the engine's inputs, and the card as the wire shows it. */
export interface Described {
  readonly fields: CardFields
  readonly card: Quote.Card
}

/** The card as the processor described it, and nothing more of it (docs/quotes.md). */
const cardOf = (method: PaymentMethod): Quote.Card => ({
  funding: method.funding,
  network: method.network,
  country: method.issuingCountry,
  category: method.category
})

/**
 * The card of a charge or an estimate: what the processor tells of the source (funding,
 * network, issuing country, consumer or commercial) over the request's fields, which may not
 * contradict it. Fails with the processor's own failure for a source it cannot use, or when it
 * refused or did not answer.
 */
export const checkCard = (
  processor: PaymentProcessor,
  source: string,
  request: CardFields
): Effect.Effect<
  Described,
  CardMismatch | SourceInvalid | ProcessorRefused | ProcessorUnavailable
> =>
  Effect.gen(function* () {
    const method = yield* processor.describe(source)
    const card = fieldsOf(method)
    for (const field of ["cardType", "cardNetwork", "cardIssuingCountry", "cardholder"] as const) {
      const asked = request[field]
      const told = card[field]
      if (asked !== undefined && told !== undefined && asked !== told) {
        return yield* new CardMismatch({ field, asked, source, card: describeCard(card) })
      }
    }
    // The four card fields only: the request is a whole charge request, and nothing else of it
    // may reach the fee through here (docs/design.md §3).
    return { fields: { ...pick(request), ...card }, card: cardOf(method) }
  })

const pick = (request: CardFields): CardFields => ({
  ...(request.cardType === undefined ? {} : { cardType: request.cardType }),
  ...(request.cardNetwork === undefined ? {} : { cardNetwork: request.cardNetwork }),
  ...(request.cardIssuingCountry === undefined
    ? {}
    : { cardIssuingCountry: request.cardIssuingCountry }),
  ...(request.cardholder === undefined ? {} : { cardholder: request.cardholder })
})

/**
 * A fee the engine could not make compliant is refused; so is one it had to lower when the
 * account's policy is `reject` rather than `adjust`.
 */
export const checkCompliant = (
  quote: Estimate.ChargeQuote,
  policy: FeeConfigUpdate.NonCompliant
): Effect.Effect<void, FeeNotCompliant> => {
  const refused = !quote.compliant
    ? quote.compliance
    : policy === "reject" && !quote.configured.compliant
      ? quote.configured
      : undefined
  return refused === undefined
    ? Effect.void
    : Effect.fail(new FeeNotCompliant({ reasonCode: refused.reasonCode, reason: refused.reason }))
}

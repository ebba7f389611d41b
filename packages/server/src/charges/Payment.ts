/**
 * The checks between a charge request and its collection: the tenant's processor (none in
 * live mode until one is configured), the card the source stands for against the request's
 * `cardType`/`cardNetwork`, the fee's compliance under the account's `nonCompliant` policy,
 * and the amounts to collect for the billing mode.
 */

import type { FeeConfigUpdate } from "@levy/api"
import { ApiError, type ChargeCreate } from "@levy/api"
import type { Estimate } from "@levy/core"
import type { Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import * as Config from "../feeConfigs/Config.js"
import type { PaymentMethod, PaymentProcessor } from "../processors/PaymentProcessor.js"
import type { PaymentProcessors } from "../processors/PaymentProcessors.js"
import * as ProcessorErrors from "./ProcessorErrors.js"

export { DEFAULT_SOURCE } from "../processors/simulator/Simulator.js"

/** The tenant's processor, or the 400 saying none is configured (a store failure is a 503). */
export const processorFor = (
  processors: typeof PaymentProcessors.Service,
  tenant: Tenant.Tenant
): Effect.Effect<
  PaymentProcessor,
  ApiError.InvalidRequestError | ApiError.ServiceUnavailableError
> =>
  processors.forTenant(tenant).pipe(
    Effect.catchTag("StorageError", Config.unavailable),
    Effect.flatMap(
      Option.match({
        onSome: Effect.succeed,
        onNone: () =>
          Effect.fail(
            new ApiError.InvalidRequestError({
              code: "processor_not_configured",
              message:
                "No payment processor is configured for this account in live mode, so live charges cannot be made. Configure one, or use a development key to charge in test mode."
            })
          )
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

/**
 * The card of the charge: what the processor tells of the source (funding, network, issuing
 * country, consumer or commercial) over the request's fields, which may not contradict it. Fails with the API's error
 * for a source the processor cannot use, a processor that refused or did not answer.
 */
export const checkCard = (
  processor: PaymentProcessor,
  source: string,
  request: CardFields
): Effect.Effect<CardFields, ApiError.InvalidRequestError | ApiError.ServiceUnavailableError> =>
  Effect.gen(function* () {
    const method = yield* processor
      .describe(source)
      .pipe(Effect.catchAll(ProcessorErrors.ofDescribe))
    const card = fieldsOf(method)
    for (const field of ["cardType", "cardNetwork", "cardIssuingCountry", "cardholder"] as const) {
      const asked = request[field]
      const told = card[field]
      if (asked !== undefined && told !== undefined && asked !== told) {
        return yield* new ApiError.InvalidRequestError({
          code: "card_mismatch",
          param: field,
          message: `${field} '${asked}' contradicts the source '${source}', a ${describeCard(card)} card. Leave ${field} out, or send the source of the card you mean.`
        })
      }
    }
    return { ...request, ...card }
  })

/**
 * A fee the engine could not make compliant is refused; so is one it had to lower when the
 * account's policy is `reject` rather than `adjust`.
 */
export const checkCompliant = (
  quote: Estimate.ChargeQuote,
  policy: FeeConfigUpdate.NonCompliant
): Effect.Effect<void, ApiError.InvalidRequestError> => {
  const refused = !quote.compliant
    ? quote.compliance
    : policy === "reject" && !quote.configured.compliant
      ? quote.configured
      : undefined
  return refused === undefined ? Effect.void : Effect.fail(refusal(refused))
}

/** The 400 for a refused fee; an unknown region is the request's `region`, not the fee. */
const refusal = (verdict: Estimate.ChargeQuote["compliance"]) =>
  verdict.reasonCode === "unknown_region"
    ? new ApiError.InvalidRequestError({
        code: "unknown_region",
        param: "region",
        message: verdict.reason ?? "Unknown region."
      })
    : new ApiError.InvalidRequestError({
        code: verdict.reasonCode ?? "fee_not_compliant",
        message: `The convenience fee is not allowed here: ${verdict.reason ?? "not compliant"}`
      })

/**
 * The checks between a charge request and its collection: the tenant's processor (none in
 * live mode until one is configured), the card the source stands for against the request's
 * `cardType`/`cardNetwork`, the fee's compliance under the account's `nonCompliant` policy,
 * and the amounts to collect for the billing mode.
 */

import type { FeeConfigUpdate } from "@levy/api"
import { ApiError, type ChargeCreate, type FeeConfig } from "@levy/api"
import type { Estimate } from "@levy/core"
import type { Tenant } from "@levy/storage"
import { Effect, Either, Option } from "effect"
import type { PaymentProcessor, PaymentProcessors } from "./PaymentProcessor.js"
import type { Card } from "./Simulator.js"

export { DEFAULT_SOURCE } from "./Simulator.js"

/** The tenant's processor, or the 400 saying none is configured. */
export const processorFor = (
  processors: typeof PaymentProcessors.Service,
  tenant: Tenant.Tenant
): Effect.Effect<PaymentProcessor, ApiError.InvalidRequestError> =>
  Option.match(processors.forTenant(tenant), {
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

/** The card of the charge: the request's fields, filled in and checked against the source's card. */
export const checkCard = (
  processor: PaymentProcessor,
  source: string,
  request: Pick<ChargeCreate.ChargeCreate, "cardType" | "cardNetwork">
): Effect.Effect<
  {
    readonly cardType?: Card["cardType"] | typeof request.cardType
    readonly cardNetwork?: typeof request.cardNetwork
  },
  ApiError.InvalidRequestError
> =>
  Effect.gen(function* () {
    const described = processor.describe(source)
    if (Either.isLeft(described)) {
      return yield* new ApiError.InvalidRequestError({
        code: "source_invalid",
        param: "source",
        message: `No such source: '${source}'. ${described.left}`
      })
    }
    if (Option.isNone(described.right)) return request
    const card = described.right.value
    for (const field of ["cardType", "cardNetwork"] as const) {
      const asked = request[field]
      if (asked !== undefined && asked !== card[field]) {
        return yield* new ApiError.InvalidRequestError({
          code: "card_mismatch",
          param: field,
          message: `${field} '${asked}' contradicts the source '${source}', a ${card.cardNetwork} ${card.cardType} card.`
        })
      }
    }
    return card
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

/** What to collect: base + fee at once (`direct`), or the base and the fee apart (`separate`). */
export const collectParts = (
  billingMode: FeeConfig.FeeConfig["billingMode"],
  quote: Pick<Estimate.ChargeQuote, "baseAmount" | "convenienceFee" | "totalAmount">
): ReadonlyArray<{ readonly part: "amount" | "fee"; readonly amount: number }> =>
  billingMode === "direct"
    ? [{ part: "amount", amount: quote.totalAmount }]
    : quote.convenienceFee === 0
      ? [{ part: "amount", amount: quote.baseAmount }]
      : [
          { part: "amount", amount: quote.baseAmount },
          { part: "fee", amount: quote.convenienceFee }
        ]

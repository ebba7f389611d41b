/**
 * What makes an estimate a quote (docs/quotes.md), for the HTTP handler and the in-process
 * workflow alike: the card of its `source`, described by the tenant's processor before any
 * money moves, and the quote's id, which a charge names to collect no more than was shown.
 */
import type { EstimateRequest, Estimate as EstimateWire, Quote } from "@levy/api"
import type { SignerService, StorageError, Tenant } from "@levy/storage"
import { Effect, Option } from "effect"
import type {
  ProcessorRefused,
  ProcessorUnavailable,
  SourceInvalid
} from "../processors/PaymentProcessor.js"
import { PaymentProcessors } from "../processors/PaymentProcessors.js"
import * as Payment from "./Payment.js"
import type { CardMismatch, ProcessorNotConfigured } from "./PaymentErrors.js"
import * as QuoteToken from "./QuoteToken.js"

/** How long a quote may be charged: long enough to pay, short enough for the law not to move. */
export const TTL_SECONDS = 15 * 60

export type DescribeError =
  | ProcessorNotConfigured
  | CardMismatch
  | SourceInvalid
  | ProcessorRefused
  | ProcessorUnavailable
  | StorageError

/** The card of the estimate's `source`, as the tenant's processor describes it; none without one. */
export const describeSource = (
  tenant: Tenant.Tenant,
  payload: EstimateRequest.EstimateRequest
): Effect.Effect<Option.Option<Payment.Described>, DescribeError, PaymentProcessors> =>
  payload.source === undefined
    ? Effect.succeedNone
    : Effect.gen(function* () {
        const processor = yield* Payment.processorFor(yield* PaymentProcessors, tenant)
        return Option.some(yield* Payment.checkCard(processor, payload.source!, payload))
      })

/** The request as the engine quotes it: the described card's fields over the request's. */
export const forCard = (
  payload: EstimateRequest.EstimateRequest,
  described: Option.Option<Payment.Described>
): EstimateRequest.EstimateRequest =>
  Option.isNone(described) ? payload : { ...payload, ...described.value.fields }

/**
 * The estimate as a quote: its id and expiry, and the card it was quoted for. A what-if
 * (another day, another cost of acceptance) is no quote: no charge collects its fee.
 */
export const issue = (
  signer: SignerService,
  tenant: Tenant.Tenant,
  estimate: EstimateWire.Estimate,
  card: Quote.Card | null,
  nowSeconds: number
): EstimateWire.Estimate => {
  const shown = card === null ? estimate : { ...estimate, card }
  if (estimate.whatIf === true) return shown
  const expiresAt = nowSeconds + TTL_SECONDS
  const id = QuoteToken.issue(signer, {
    accountId: tenant.accountId,
    livemode: tenant.livemode,
    amount: estimate.baseAmount,
    currency: estimate.currency.toLowerCase(),
    region: estimate.region,
    fee: estimate.convenienceFee,
    card,
    expiresAt
  })
  return { id, ...shown, expiresAt }
}

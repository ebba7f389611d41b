/**
 * The Adyen adapter of the payment processor port, on the official `@adyen/api-library`
 * (Checkout API v72).
 *
 * - `source` is the `paymentMethod` object Adyen's Web Drop-in / Card Component gives
 *   (`state.data.paymentMethod`), as JSON text: `{"type":"scheme","encryptedCardNumber":…}`.
 * - describe: POST /cardDetails (brand, fundingSource, isCardCommercial, issuingCountryCode).
 * - charge: POST /payments with Levy's key as the `Idempotency-Key` header and as the payment's
 *   `reference`, the total as `amount`, captured at once (`captureDelayHours: 0`), the fee in
 *   `metadata.levy_fee` and, where the account enables surcharging, in `surcharge.value`.
 * - refund: POST /payments/{pspReference}/refunds with its own key.
 * - lookup / lookupRefund: Adyen's Checkout API has no way to find a payment or a refund by
 *   reference, so both say None and recovery repeats the call with the same key, which Adyen
 *   answers with the first response for at least 31 days (Adyen's API idempotency
 *   documentation); past that, recovery leaves the record for a person (KeyWindow.ts).
 * - Notifications: HMAC-verified with the library's HmacValidator (AdyenNotifications.ts).
 */
import type Adyen from "@adyen/api-library"
import { Duration, Effect, Option } from "effect"
import {
  type ChargeOutcome,
  type ChargeRequest,
  type IdempotencyGuarantee,
  type PaymentMethod,
  type PaymentProcessor,
  type ProcessorDefinition,
  ProcessorRefused,
  type ProcessorSettings,
  ProcessorUnavailable,
  type RefundOutcome,
  type RefundRequest,
  SourceInvalid
} from "../PaymentProcessor.js"
import { parse } from "./AdyenNotifications.js"
import { AdyenSdk } from "./AdyenSdk.js"
import { transport } from "./AdyenTransport.js"

const NAME = "adyen"
const TIMEOUT_MS = 30_000
/** Adyen's longest idempotency key. */
const MAX_KEY = 64

/**
 * Adyen keeps idempotency keys "for a minimum period of 31 days after first submission" (its
 * API idempotency documentation); its Checkout API finds neither payments nor refunds by
 * reference, so neither lookup asks Adyen.
 */
const IDEMPOTENCY: IdempotencyGuarantee = {
  keyWindow: Duration.days(31),
  lookupCharges: false,
  lookupRefunds: false
}
/** Where a shopper would come back after a redirect; Levy declines redirects, so never used. */
const DEFAULT_RETURN_URL = "https://levy.invalid/adyen/no-redirect"

type CheckoutPaymentMethod = Parameters<
  InstanceType<typeof Adyen.CheckoutAPI>["PaymentsApi"]["payments"]
>[0]["paymentMethod"]

/** Adyen's brand codes in Levy's network words. */
const NETWORKS: Readonly<Record<string, string>> = {
  mc: "mastercard",
  visa: "visa",
  amex: "amex",
  discover: "discover",
  diners: "diners",
  jcb: "jcb",
  cup: "unionpay",
  maestro: "maestro",
  cartebancaire: "cartes_bancaires"
}

/** Adyen's refusal reason codes Levy names like Stripe does; others are generic declines. */
const REFUSALS: Readonly<Record<string, { readonly code: string; readonly declineCode: string }>> =
  {
    "5": { code: "card_declined", declineCode: "do_not_honor" },
    "6": { code: "expired_card", declineCode: "expired_card" },
    "12": { code: "card_declined", declineCode: "insufficient_funds" },
    "24": { code: "incorrect_cvc", declineCode: "incorrect_cvc" },
    "20": { code: "card_declined", declineCode: "fraudulent" }
  }

/** An Adyen error, as the library (or the transport) raises it. */
interface HttpFailure {
  readonly statusCode?: number
  readonly errorCode?: string
  readonly message?: string
}

const failure = (error: unknown): HttpFailure | undefined => {
  // The library raised it only if it is loaded.
  const sdk = AdyenSdk.ifLoaded()
  return sdk !== undefined && error instanceof sdk.HttpClientException ? error : undefined
}

/** Any failed call as the port's error: 401/403/4xx refused, the rest unknown. */
/**
 * Adyen's error codes for content of Levy's request rather than the account's configuration,
 * with the request's field: 177 "Metadata size exceeds limit", 178 "Metadata key size exceeds
 * limit" (Adyen's API reference for `metadata`).
 */
const REQUEST_ERRORS: Readonly<Record<string, string>> = { "177": "metadata", "178": "metadata" }

const toProcessorError = (error: unknown): ProcessorRefused | ProcessorUnavailable => {
  const http = failure(error)
  const status = http?.statusCode ?? 0
  if (status === 401 || status === 403) {
    return new ProcessorRefused({
      processor: NAME,
      ...(http?.errorCode === undefined ? {} : { code: http.errorCode }),
      message: `Adyen refused the credentials (${status}${http?.errorCode === undefined ? "" : `, error ${http.errorCode}`}): check the API key, that its API credential has the Checkout webservice role, and that it may use the merchant account (Customer Area → Developers → API credentials).`
    })
  }
  if (status >= 400 && status < 500 && status !== 429) {
    const param = http?.errorCode === undefined ? undefined : REQUEST_ERRORS[http.errorCode]
    return new ProcessorRefused({
      processor: NAME,
      ...(http?.errorCode === undefined ? {} : { code: http.errorCode }),
      ...(param === undefined ? {} : { param }),
      message: `Adyen refused the request: ${http?.message ?? "no message"}`
    })
  }
  return new ProcessorUnavailable({
    processor: NAME,
    message: `Adyen did not answer conclusively: ${http?.message ?? String(error)}`,
    cause: status === 0 ? "network" : status
  })
}

const call = <A>(run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: (e) => e })

/** The source as Adyen's payment method object, or why it is not one. */
const paymentMethodOf = (source: string): Effect.Effect<Record<string, unknown>, SourceInvalid> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(source)
  } catch {
    parsed = undefined
  }
  return parsed !== null &&
    typeof parsed === "object" &&
    !Array.isArray(parsed) &&
    typeof (parsed as { type?: unknown }).type === "string"
    ? Effect.succeed(parsed as Record<string, unknown>)
    : Effect.fail(
        new SourceInvalid({
          source: "(Adyen payment method)",
          message:
            "An Adyen source is the paymentMethod object from Adyen's Drop-in or Card Component (state.data.paymentMethod) as JSON text."
        })
      )
}

const funding = (value: string | undefined): PaymentMethod["funding"] => {
  const lower = value?.toLowerCase()
  return lower === "credit" || lower === "debit" || lower === "prepaid" ? lower : "unknown"
}

/** A payment response as the port's outcome. */
const outcomeOf = (
  response: {
    readonly pspReference?: string | undefined
    readonly resultCode?: string | undefined
    readonly refusalReason?: string | undefined
    readonly refusalReasonCode?: string | undefined
    readonly amount?: { readonly value: number } | null | undefined
  },
  requested: number
): ChargeOutcome => {
  const reference = response.pspReference ?? ""
  switch (response.resultCode) {
    case "Authorised":
      return { _tag: "Succeeded", reference, amount: response.amount?.value ?? requested }
    case "Pending":
    case "Received":
    case "PresentToShopper":
      return { _tag: "Pending", reference }
    case "RedirectShopper":
    case "IdentifyShopper":
    case "ChallengeShopper":
      return {
        _tag: "Declined",
        code: "authentication_required",
        message:
          "The card requires the shopper to authenticate (3-D Secure), which a server-side charge cannot do.",
        declineCode: "authentication_required",
        reference
      }
    default: {
      const mapped = REFUSALS[response.refusalReasonCode ?? ""]
      return {
        _tag: "Declined",
        code: mapped?.code ?? "card_declined",
        message: response.refusalReason ?? "The payment was refused.",
        declineCode: mapped?.declineCode ?? "generic_decline",
        ...(reference === "" ? {} : { reference })
      }
    }
  }
}

/** An Adyen adapter for one account's API key and merchant account. */
export const make = (settings: ProcessorSettings): PaymentProcessor => {
  const { apiKey = "", merchantAccount = "" } = settings.credentials
  const liveEndpointUrlPrefix = settings.credentials.liveEndpointUrlPrefix ?? ""
  const returnUrl = settings.credentials.returnUrl || DEFAULT_RETURN_URL

  /** The library's Checkout service, or the refusal when the configuration cannot make one. */
  const checkout = Effect.suspend(() => {
    if (settings.livemode && liveEndpointUrlPrefix === "" && settings.apiBaseUrl === undefined) {
      return Effect.fail(
        new ProcessorRefused({
          processor: NAME,
          code: "live_endpoint_prefix_missing",
          message:
            "Live Adyen needs the live endpoint URL prefix of your company account (Customer Area → Developers → API URLs), e.g. 1797a841fbb37ca7-AdyenDemo."
        })
      )
    }
    return Effect.promise(AdyenSdk.load).pipe(
      Effect.map((Adyen) => {
        const client = new Adyen.Client(
          new Adyen.Config({
            apiKey,
            environment: settings.livemode
              ? Adyen.EnvironmentEnum.LIVE
              : Adyen.EnvironmentEnum.TEST,
            ...(liveEndpointUrlPrefix === ""
              ? { liveEndpointUrlPrefix: "levy" }
              : { liveEndpointUrlPrefix }),
            connectionTimeoutMillis: TIMEOUT_MS,
            applicationName: "levy"
          }),
          ...(settings.apiBaseUrl === undefined ? [] : [transport(settings.apiBaseUrl, TIMEOUT_MS)])
        )
        return new Adyen.CheckoutAPI(client)
      })
    )
  })

  const describe = (source: string) =>
    Effect.gen(function* () {
      const method = yield* paymentMethodOf(source)
      const encryptedCardNumber = method.encryptedCardNumber
      if (typeof encryptedCardNumber !== "string") {
        return yield* new SourceInvalid({
          source: "(Adyen payment method)",
          message:
            "Levy needs the card's encryptedCardNumber to know its funding (credit/debit/prepaid) before charging; stored payment methods are not supported yet."
        })
      }
      const api = yield* checkout
      const details = yield* call(() =>
        api.PaymentsApi.cardDetails({ merchantAccount, encryptedCardNumber })
      ).pipe(
        Effect.mapError((e) =>
          failure(e)?.statusCode === 422
            ? new SourceInvalid({
                source: "(Adyen payment method)",
                message: `Adyen cannot read this card: ${failure(e)?.message ?? "invalid"}`
              })
            : toProcessorError(e)
        )
      )
      const brand = details.brands?.find((b) => b.supported !== false)?.type
      return {
        funding: funding(details.fundingSource),
        network: brand === undefined ? null : (NETWORKS[brand] ?? brand),
        issuingCountry: details.issuingCountryCode?.toUpperCase() ?? null,
        category:
          details.isCardCommercial === undefined
            ? "unknown"
            : details.isCardCommercial
              ? "commercial"
              : "consumer"
      } satisfies PaymentMethod
    })

  const keyTooLong = (key: string) =>
    key.length > MAX_KEY
      ? Effect.fail(
          new ProcessorRefused({
            processor: NAME,
            code: "idempotency_key_too_long",
            message: `Adyen takes idempotency keys of at most ${MAX_KEY} characters; this one has ${key.length}.`
          })
        )
      : Effect.void

  const charge = (request: ChargeRequest) =>
    Effect.gen(function* () {
      yield* keyTooLong(request.idempotencyKey)
      const method = yield* paymentMethodOf(request.source)
      const api = yield* checkout
      const response = yield* call(() =>
        api.PaymentsApi.payments(
          {
            merchantAccount,
            reference: request.idempotencyKey,
            amount: { value: request.amount, currency: request.currency.toUpperCase() },
            paymentMethod: method as unknown as CheckoutPaymentMethod,
            returnUrl,
            captureDelayHours: 0,
            ...(settings.surcharge === true ? { surcharge: { value: request.fee } } : {}),
            ...(request.description === undefined
              ? {}
              : { shopperStatement: request.description.slice(0, 22) }),
            metadata: { ...request.metadata, levy_fee: String(request.fee) }
          },
          { idempotencyKey: request.idempotencyKey }
        )
      ).pipe(
        Effect.mapError((e) =>
          failure(e)?.statusCode === 422 && failure(e)?.errorCode === "174"
            ? new SourceInvalid({
                source: "(Adyen payment method)",
                message: `Adyen cannot read this card: ${failure(e)?.message ?? "invalid"}`
              })
            : toProcessorError(e)
        )
      )
      return outcomeOf(response, request.amount)
    })

  const refund = (request: RefundRequest) =>
    Effect.gen(function* () {
      yield* keyTooLong(request.idempotencyKey)
      const api = yield* checkout
      return yield* call(() =>
        api.ModificationsApi.refundCapturedPayment(
          request.paymentReference,
          {
            merchantAccount,
            reference: request.idempotencyKey,
            amount: { value: request.amount, currency: request.currency.toUpperCase() }
          },
          { idempotencyKey: request.idempotencyKey }
        )
      ).pipe(
        // Adyen takes the refund now ("received") and confirms it in a REFUND notification.
        Effect.map((r): RefundOutcome => ({ _tag: "Refunded", reference: r.pspReference })),
        Effect.catchAll((e) => {
          const http = failure(e)
          return http?.statusCode === 422
            ? Effect.succeed<RefundOutcome>({
                _tag: "RefundFailed",
                code: `adyen_${http.errorCode ?? "validation"}`,
                message: http.message ?? "Adyen refused the refund."
              })
            : Effect.fail(toProcessorError(e))
        })
      )
    })

  const verifyCredentials = () =>
    Effect.gen(function* () {
      if (apiKey === "" || merchantAccount === "") {
        return yield* new ProcessorRefused({
          processor: NAME,
          code: "credentials_missing",
          message: "Adyen needs apiKey and merchantAccount.",
          byLevy: true,
          setting: "credentials"
        })
      }
      const api = yield* checkout
      // Listing payment methods checks the key and the merchant account together; moves nothing.
      yield* call(() => api.PaymentsApi.paymentMethods({ merchantAccount })).pipe(
        Effect.mapError(toProcessorError)
      )
    })

  return {
    name: NAME,
    describe,
    charge,
    refund,
    lookup: () => Effect.succeed(Option.none()),
    lookupRefund: () => Effect.succeed(Option.none()),
    idempotency: IDEMPOTENCY,
    verifyCredentials,
    parseNotification: (rawBody, _headers, webhookSecret) =>
      parse(rawBody, webhookSecret, settings.livemode),
    notificationAcknowledgement: "[accepted]"
  }
}

/** Adyen as Levy's configuration sees it. */
export const definition: ProcessorDefinition = {
  name: NAME,
  idempotency: IDEMPOTENCY,
  credentialFields: [
    {
      name: "apiKey",
      description: "API key of an API credential with the Checkout webservice role.",
      required: true
    },
    {
      name: "merchantAccount",
      description: "The merchant account payments are made on.",
      required: true
    },
    {
      name: "hmacKey",
      description:
        "The HMAC key (hex) of the standard webhook pointed at Levy. Optional at first: the webhook URL is shown once the API key is saved; save again with both.",
      // Not required, like Stripe's webhook secret: the URL to create the webhook with (and so
      // get its key) is known once the configuration exists. Until then notifications are refused.
      required: false
    },
    {
      name: "liveEndpointUrlPrefix",
      description:
        "Live only: your company's live endpoint URL prefix (Customer Area → Developers → API URLs).",
      required: false
    },
    {
      name: "returnUrl",
      description:
        "Where a shopper would return after a redirect (Adyen requires one; Levy declines redirects).",
      required: false
    }
  ],
  webhookSecretField: "hmacKey",
  make
}

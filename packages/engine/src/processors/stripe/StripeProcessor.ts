/**
 * The Stripe adapter of the payment processor port, on the official `stripe` SDK.
 *
 * - A charge is one PaymentIntent created and confirmed in one call, with Levy's key as the
 *   request's `Idempotency-Key` and recorded in the PaymentIntent's metadata
 *   (`levy_idempotency_key`, next to `levy_fee`: the convenience fee inside the total).
 * - `source` is a PaymentMethod id (`pm_…`) or a ConfirmationToken id (`ctoken_…`).
 * - A refund records Levy's key in its metadata too.
 * - `lookup` asks Stripe's Search API for the PaymentIntent carrying the key in its metadata;
 *   `lookupRefund` lists the PaymentIntent's refunds and picks the one carrying the key.
 * - Stripe replays the first answer to an `Idempotency-Key` for 24 hours.
 * - Notifications are verified with `webhooks.constructEventAsync` over the raw body.
 */
import { Duration, Effect, Option } from "effect"
import type Stripe from "stripe"
import {
  type ChargeOutcome,
  type ChargeRequest,
  type IdempotencyGuarantee,
  NotificationInvalid,
  type PaymentMethod,
  type PaymentProcessor,
  type ProcessorDefinition,
  ProcessorRefused,
  type ProcessorSettings,
  type RefundLookup,
  type RefundOutcome,
  type RefundRequest,
  SourceInvalid
} from "../PaymentProcessor.js"
import { asStripeError, sourceInvalid, toProcessorError } from "./StripeErrors.js"
import { IDEMPOTENCY_METADATA, notificationsOf } from "./StripeNotifications.js"
import { StripeSdk } from "./StripeSdk.js"

const NAME = "stripe"

/**
 * Stripe keeps an idempotency key at least 24 hours (its API reference, "Idempotent
 * requests"); both lookups ask Stripe, so recovery settles from the answer at any age.
 */
const IDEMPOTENCY: IdempotencyGuarantee = {
  keyWindow: Duration.hours(24),
  lookupCharges: true,
  lookupRefunds: true
}

/** Refunds Stripe lists per PaymentIntent page (its maximum). */
const REFUNDS_PAGE = 100
/** More refunds of one PaymentIntent than this is not a payment Levy made. */
const REFUNDS_READ = 1_000

/** The SDK's connection options for an API base URL (a proxy, or a local fake in tests). */
const connection = (apiBaseUrl: string | undefined) => {
  if (apiBaseUrl === undefined) return {}
  const url = new URL(apiBaseUrl)
  const protocol = url.protocol === "http:" ? ("http" as const) : ("https" as const)
  return {
    host: url.hostname,
    port: url.port === "" ? (protocol === "http" ? 80 : 443) : Number(url.port),
    protocol
  }
}

/** The network behind a card's brand, in Levy's lower-case words. */
const network = (brand: string | null | undefined): string | null =>
  brand === null || brand === undefined || brand === "unknown"
    ? null
    : brand === "amex"
      ? "amex"
      : brand.toLowerCase()

const funding = (value: string | null | undefined): PaymentMethod["funding"] =>
  value === "credit" || value === "debit" || value === "prepaid" ? value : "unknown"

/** What Stripe's card object tells; Stripe's API does not say consumer or commercial. */
const methodOf = (
  card: { brand: string | null; funding: string | null; country: string | null } | null | undefined
): PaymentMethod => ({
  funding: funding(card?.funding),
  network: network(card?.brand),
  issuingCountry: card?.country?.toUpperCase() ?? null,
  category: "unknown"
})

/** A PaymentIntent as the port's outcome. */
const outcomeOf = (intent: Stripe.PaymentIntent): ChargeOutcome => {
  switch (intent.status) {
    case "succeeded":
      return { _tag: "Succeeded", reference: intent.id, amount: intent.amount_received }
    case "requires_payment_method":
    case "canceled": {
      const error = intent.last_payment_error
      return {
        _tag: "Declined",
        code: error?.code ?? "card_declined",
        message: error?.message ?? "The payment was not completed.",
        declineCode: error?.decline_code ?? "generic_decline",
        reference: intent.id
      }
    }
    default:
      return { _tag: "Pending", reference: intent.id }
  }
}

/** A card decline Stripe answered with a 402: the port's `Declined`. */
const declined = (error: unknown): ChargeOutcome | undefined => {
  const stripeError = asStripeError(error)
  if (stripeError?.type !== "StripeCardError") return undefined
  const intent = (stripeError.raw as { payment_intent?: { id?: string } } | undefined)
    ?.payment_intent
  return {
    _tag: "Declined",
    code: stripeError.code ?? "card_declined",
    message: stripeError.message,
    declineCode: stripeError.decline_code ?? "generic_decline",
    ...(intent?.id === undefined ? {} : { reference: intent.id })
  }
}

/** Refusals of a refund that are the payment's state, not Levy's configuration. */
const REFUND_REFUSALS = new Set([
  "charge_already_refunded",
  "charge_disputed",
  "amount_too_large",
  "charge_not_refundable",
  "refund_disputed_payment"
])

const call = <A>(run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: (e) => e })

/** A Stripe Refund as the port's outcome. */
const refundOutcomeOf = (r: Stripe.Refund): RefundOutcome =>
  r.status === "failed" || r.status === "canceled"
    ? {
        _tag: "RefundFailed",
        code: r.failure_reason ?? "refund_failed",
        message: `Stripe reports the refund ${r.status}.`
      }
    : { _tag: "Refunded", reference: r.id }

/** A Stripe adapter for one account's secret key. */
export const make = (settings: ProcessorSettings): PaymentProcessor => {
  const secretKey = settings.credentials.secretKey ?? ""
  let client: Stripe | undefined
  /** This account's client, made on first use (the SDK is imported then). */
  const clientOf = async (): Promise<Stripe> => {
    const Sdk = await StripeSdk.load()
    client ??= new Sdk(secretKey, {
      ...connection(settings.apiBaseUrl),
      maxNetworkRetries: 1,
      timeout: 30_000,
      telemetry: false,
      appInfo: { name: "Levy" }
    })
    return client
  }
  const withStripe = <A>(run: (stripe: Stripe) => Promise<A>) =>
    call(async () => run(await clientOf()))

  /** A key of the wrong mode is refused before any call: no real money in test mode, ever. */
  const modeMismatch = (): ProcessorRefused | undefined => {
    const live = /^(sk|rk)_live_/.test(secretKey)
    const test = /^(sk|rk)_test_/.test(secretKey)
    if (!live && !test) {
      return refusedByLevy(
        "invalid_secret_key",
        "credentials[secretKey]",
        "a Stripe secret key starts with sk_test_ or rk_test_ (test mode), sk_live_ or rk_live_ (live mode): Stripe Dashboard → Developers → API keys."
      )
    }
    if (live !== settings.livemode) {
      return refusedByLevy(
        "key_mode_mismatch",
        "credentials[secretKey]",
        settings.livemode
          ? "a test key (sk_test_… or rk_test_…) cannot be used in live mode; use a live key (sk_live_… or rk_live_…)."
          : "a live key (sk_live_… or rk_live_…) cannot be used in test mode, so that no real card is charged; use a test key (sk_test_… or rk_test_…)."
      )
    }
    return undefined
  }

  const surchargeUnsupported = (): ProcessorRefused | undefined =>
    settings.surcharge === true
      ? refusedByLevy(
          "surcharge_unsupported",
          "surcharge",
          "Stripe's card-not-present surcharge field is only in a preview API version the pinned SDK does not cover, so Levy cannot send it yet; turn the surcharge setting off (the fee is still recorded in the PaymentIntent's metadata)."
        )
      : undefined

  const describe = (source: string) =>
    Effect.gen(function* () {
      if (source.startsWith("ctoken_")) {
        const token = yield* withStripe((stripe) => stripe.confirmationTokens.retrieve(source))
        return methodOf(token.payment_method_preview?.card)
      }
      if (source.startsWith("pm_")) {
        const method = yield* withStripe((stripe) => stripe.paymentMethods.retrieve(source))
        return methodOf(method.card)
      }
      return yield* new SourceInvalid({
        source,
        message:
          "A Stripe source is a PaymentMethod id (pm_…) or a ConfirmationToken id (ctoken_…) from Stripe.js or the Payment Element."
      })
    }).pipe(
      Effect.catchIf(
        (e): e is unknown => !(e instanceof SourceInvalid),
        (e) => Effect.fail(sourceInvalid(source, e) ?? toProcessorError(e))
      )
    )

  const charge = (request: ChargeRequest) =>
    Effect.gen(function* () {
      const refused = modeMismatch() ?? surchargeUnsupported()
      if (refused !== undefined) return yield* refused
      if (!request.source.startsWith("pm_") && !request.source.startsWith("ctoken_")) {
        return yield* new SourceInvalid({
          source: request.source,
          message:
            "A Stripe source is a PaymentMethod id (pm_…) or a ConfirmationToken id (ctoken_…)."
        })
      }
      const params: Stripe.PaymentIntentCreateParams = {
        amount: request.amount,
        currency: request.currency,
        confirm: true,
        ...(request.source.startsWith("ctoken_")
          ? { confirmation_token: request.source }
          : { payment_method: request.source }),
        // Levy confirms server-side with no page to return to: redirects and 3-D Secure
        // challenges fail the attempt rather than leave it waiting forever.
        automatic_payment_methods: { enabled: true, allow_redirects: "never" },
        error_on_requires_action: true,
        ...(request.description === undefined ? {} : { description: request.description }),
        metadata: {
          ...request.metadata,
          [IDEMPOTENCY_METADATA]: request.idempotencyKey,
          levy_fee: String(request.fee)
        }
      }
      return yield* withStripe((stripe) =>
        stripe.paymentIntents.create(params, { idempotencyKey: request.idempotencyKey })
      ).pipe(
        Effect.map(outcomeOf),
        Effect.catchAll((e) => {
          const outcome = declined(e)
          if (outcome !== undefined) return Effect.succeed(outcome)
          return Effect.fail(sourceInvalid(request.source, e) ?? toProcessorError(e))
        })
      )
    })

  const refund = (request: RefundRequest) =>
    withStripe((stripe) =>
      stripe.refunds.create(
        {
          payment_intent: request.paymentReference,
          amount: request.amount,
          metadata: { [IDEMPOTENCY_METADATA]: request.idempotencyKey }
        },
        { idempotencyKey: request.idempotencyKey }
      )
    ).pipe(
      Effect.map(refundOutcomeOf),
      Effect.catchAll((e) => {
        const stripeError = asStripeError(e)
        return stripeError?.code !== undefined && REFUND_REFUSALS.has(stripeError.code)
          ? Effect.succeed<RefundOutcome>({
              _tag: "RefundFailed",
              code: stripeError.code,
              message: stripeError.message
            })
          : Effect.fail(toProcessorError(e))
      })
    )

  const lookup = (idempotencyKey: string) =>
    withStripe((stripe) =>
      stripe.paymentIntents.search({
        query: `metadata['${IDEMPOTENCY_METADATA}']:'${idempotencyKey.replace(/['\\]/g, "\\$&")}'`,
        limit: 10
      })
    ).pipe(
      Effect.map((result) => {
        // One key pays once; should Stripe hold several attempts, the one that took money wins.
        const intents = result.data
        const found = intents.find((i) => i.status === "succeeded") ?? intents[0]
        return found === undefined ? Option.none() : Option.some(outcomeOf(found))
      }),
      Effect.mapError(toProcessorError)
    )

  // Stripe's List refunds takes `payment_intent`; Search has no refunds, so the key recorded in
  // each refund's metadata is matched here. A PaymentIntent has few refunds (never more than
  // its amount allows), so reading them all is cheap.
  const lookupRefund = (request: RefundLookup) =>
    withStripe((stripe) =>
      stripe.refunds
        .list({ payment_intent: request.paymentReference, limit: REFUNDS_PAGE })
        .autoPagingToArray({ limit: REFUNDS_READ })
    ).pipe(
      Effect.map((refunds) =>
        Option.map(
          Option.fromNullable(
            refunds.find((r) => r.metadata?.[IDEMPOTENCY_METADATA] === request.idempotencyKey)
          ),
          refundOutcomeOf
        )
      ),
      Effect.mapError(toProcessorError)
    )

  const verifyCredentials = () =>
    Effect.gen(function* () {
      const refused = modeMismatch() ?? surchargeUnsupported()
      if (refused !== undefined) return yield* refused
      // Listing one PaymentIntent needs exactly the access charges need, and moves nothing.
      yield* withStripe((stripe) => stripe.paymentIntents.list({ limit: 1 })).pipe(
        Effect.mapError(toProcessorError)
      )
    })

  const parseNotification = (
    rawBody: string,
    headers: Readonly<Record<string, string | undefined>>,
    webhookSecret: string
  ) =>
    Effect.tryPromise({
      try: async () =>
        (await clientOf()).webhooks.constructEventAsync(
          rawBody,
          headers["stripe-signature"] ?? "",
          webhookSecret
        ),
      catch: (e) =>
        asStripeError(e)?.type === "StripeSignatureVerificationError"
          ? new NotificationInvalid({
              processor: NAME,
              reason: "signature",
              message:
                "The Stripe-Signature header does not match this body and the endpoint's signing secret (whsec_…), or its timestamp is too old."
            })
          : new NotificationInvalid({
              processor: NAME,
              reason: "malformed",
              message: "The body is not a Stripe event."
            })
    }).pipe(Effect.map(notificationsOf))

  return {
    name: NAME,
    describe,
    charge,
    refund,
    lookup,
    lookupRefund,
    idempotency: IDEMPOTENCY,
    verifyCredentials,
    parseNotification
  }
}

/** A refusal Levy makes itself, before any call to Stripe, naming the configuration's field. */
const refusedByLevy = (code: string, setting: string, message: string) =>
  new ProcessorRefused({ processor: NAME, code, message, byLevy: true, setting })

/** Stripe as Levy's configuration sees it. */
export const definition: ProcessorDefinition = {
  name: NAME,
  credentialFields: [
    {
      name: "secretKey",
      description:
        "Secret or restricted API key (sk_live_… / rk_live_… in live mode, sk_test_… / rk_test_… in test mode).",
      required: true
    },
    {
      name: "webhookSecret",
      description:
        "The signing secret (whsec_…) of the webhook endpoint pointed at Levy. Optional at first: the endpoint's URL is shown once the key is saved; save again with both.",
      // Not required: the webhook URL to create the Stripe endpoint with (and so get its
      // secret) is known once the configuration exists. Until it is set, notifications are refused.
      required: false
    }
  ],
  webhookSecretField: "webhookSecret",
  idempotency: IDEMPOTENCY,
  make
}

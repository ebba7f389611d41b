/**
 * What a `stripe` SDK error means for Levy: money certainly not moved (a refusal, a bad
 * source), or an outcome Levy cannot know yet (network, 5xx, rate limit, idempotency
 * conflict), which recovery settles later through `lookup` or the same call repeated.
 */
import type Stripe from "stripe"
import { ProcessorRefused, ProcessorUnavailable, SourceInvalid } from "../PaymentProcessor.js"
import { StripeSdk } from "./StripeSdk.js"

const NAME = "stripe"

/**
 * A Stripe error the SDK raised, if `error` is one. The SDK is loaded by then if it raised it;
 * its subclasses are told apart by `type`, the class name the SDK sets on each.
 */
export const asStripeError = (error: unknown): Stripe.errors.StripeError | undefined => {
  const sdk = StripeSdk.ifLoaded()
  return sdk !== undefined && error instanceof sdk.errors.StripeError ? error : undefined
}

/**
 * A request certainly refused: authentication, permission, or a 4xx invalid request. An
 * idempotency error is NOT one: it means an earlier request under the same key exists (and
 * may have taken money), so the outcome is unknown until `lookup` finds it.
 */
const certainlyRefused = (error: Stripe.errors.StripeError): boolean =>
  error.type === "StripeAuthenticationError" ||
  error.type === "StripePermissionError" ||
  (error.type === "StripeInvalidRequestError" &&
    error.statusCode !== undefined &&
    error.statusCode < 500 &&
    error.statusCode !== 409 &&
    error.code !== "idempotency_key_in_use")

/** Advice on top of Stripe's message for the refusals an operator can fix. */
const advice = (error: Stripe.errors.StripeError): string =>
  error.type === "StripeAuthenticationError"
    ? " Check the secret key (Dashboard → Developers → API keys) and save the configuration again."
    : error.type === "StripePermissionError"
      ? " The key lacks a permission Levy needs: give a restricted key write access to PaymentIntents and Refunds, read access to PaymentMethods and ConfirmationTokens."
      : ""

/** Stripe's message without anything that could be a credential. */
const safeMessage = (error: Stripe.errors.StripeError): string =>
  error.message.replace(/\b(sk|rk|whsec)_[A-Za-z0-9_*]+/g, "$1_…")

/**
 * The field of Levy's request behind an invalid-request refusal, by Stripe's `param`
 * (`metadata[order]` is the request's `metadata`): content the caller sent, not the
 * account's configuration.
 */
const requestParam = (error: Stripe.errors.StripeError): string | undefined => {
  if (error.type !== "StripeInvalidRequestError" || error.param === undefined) return undefined
  const field = error.param.split("[")[0]
  return field === "metadata" || field === "description" ? field : undefined
}

/** The port's error for any failure of a Stripe call. */
export const toProcessorError = (error: unknown): ProcessorRefused | ProcessorUnavailable => {
  const stripeError = asStripeError(error)
  if (stripeError !== undefined && certainlyRefused(stripeError)) {
    const param = requestParam(stripeError)
    return new ProcessorRefused({
      processor: NAME,
      message: `Stripe refused the request: ${safeMessage(stripeError)}${advice(stripeError)}`,
      ...(stripeError.code === undefined ? {} : { code: stripeError.code }),
      ...(param === undefined ? {} : { param })
    })
  }
  return new ProcessorUnavailable({
    processor: NAME,
    message:
      stripeError === undefined
        ? `Stripe could not be reached: ${String(error)}`
        : `Stripe did not answer conclusively (${stripeError.type}${stripeError.statusCode === undefined ? "" : ` ${stripeError.statusCode}`}): ${safeMessage(stripeError)}`,
    cause: stripeError?.type ?? "network"
  })
}

/** A missing PaymentMethod or ConfirmationToken: the source is unusable, nothing else is wrong. */
export const sourceInvalid = (source: string, error: unknown): SourceInvalid | undefined => {
  const stripeError = asStripeError(error)
  return stripeError?.type === "StripeInvalidRequestError" &&
    (stripeError.code === "resource_missing" ||
      stripeError.param === "payment_method" ||
      stripeError.param === "confirmation_token")
    ? new SourceInvalid({
        source,
        message: `Stripe cannot use '${source}': ${safeMessage(stripeError)}`
      })
    : undefined
}

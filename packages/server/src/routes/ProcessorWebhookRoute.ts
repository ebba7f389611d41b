/**
 * `POST /v1/processor-webhooks/<account>/<test|live>/<processor>` (docs/design.md §8,
 * docs/processors.md "Processor webhooks"): where Stripe and Adyen send an account's
 * notifications. No API key: the processor's signature over the exact raw body, checked with
 * the webhook secret of the account's configuration, is the authentication, so the edge hands
 * this route the request before its key check and JSON parsing (a `KeylessRoute` the server's
 * composition gives the edge, Server.ts).
 *
 * - a notification whose signature verifies is counted per account and mode (the mode's
 *   per-key limit: a busy live account's processor sends in bursts); every refusal (a URL that
 *   names no configured processor, a bad signature, an unreadable or too large body) is
 *   counted against the caller's address (an IPv6 one per /64) at the anonymous limit
 *   instead, so unsigned posts never spend the account's budget, and guessing accounts or
 *   forging signatures is throttled per client;
 * - bodies over the edge's limit: 413; unknown account, mode or processor, or one configured
 *   without a webhook secret: 404 (the same answer for each, so accounts cannot be probed);
 * - a bad signature or an unreadable body: 400, and nothing changes;
 * - each notification applied once (ApplyNotification.ts); a storage failure: 503, which the
 *   processor retries; then 200 with the processor's acknowledgement (Adyen `[accepted]`).
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { ApiError } from "@levy/api"
import * as ApplyNotification from "@levy/engine/processorNotifications/ApplyNotification.js"
import * as WebhookPath from "@levy/engine/processorNotifications/WebhookPath.js"
import type { NotificationInvalid } from "@levy/engine/processors/PaymentProcessor.js"
import {
  type NotificationTarget,
  PaymentProcessors
} from "@levy/engine/processors/PaymentProcessors.js"
import {
  type ChargeRepository,
  type EventRepository,
  type Ids,
  type ProcessorNotificationRepository,
  type StorageError,
  Tenant,
  type Transactions
} from "@levy/storage"
import { Effect, Option } from "effect"
import * as BodyLimit from "../http/BodyLimit.js"
import * as ClientAddress from "../http/ClientAddress.js"
import { EdgeConfig } from "../http/EdgeConfig.js"
import type { EdgeRequest } from "../http/EdgeRequest.js"
import type { KeylessRoute } from "../http/KeylessRoute.js"
import * as RateLimit from "../http/RateLimit.js"
import * as Unavailable from "../http/Unavailable.js"

/** What the route answers when the processor wants no particular body. */
const RECEIVED = { received: true }

const notFound = (pathname: string) =>
  new ApiError.NotFoundError({
    code: "processor_webhook_not_found",
    message: `No processor webhook at ${pathname}: the URL is /v1/processor-webhooks/<account id>/<test|live>/<processor>, for a processor configured for that account and mode with its webhook secret (/v1/processor-config).`
  })

const invalid = (error: NotificationInvalid) =>
  new ApiError.InvalidRequestError({
    code: error.reason === "signature" ? "signature_invalid" : "body_invalid",
    message: `The ${error.processor} notification was refused: ${error.message}`
  })

/** The raw body, as the edge read it within `max` bytes: 413 over it, 400 when unreadable. */
const rawBody = (
  request: EdgeRequest,
  max: number
): Effect.Effect<string, ApiError.PayloadTooLargeError | ApiError.InvalidRequestError> => {
  switch (request.body._tag) {
    case "Text":
      return Effect.succeed(request.body.text)
    case "TooLarge":
      return Effect.fail(BodyLimit.tooLarge(max))
    case "Unreadable":
      return Effect.fail(
        new ApiError.InvalidRequestError({
          code: "body_invalid",
          message: "The notification body could not be read."
        })
      )
  }
}

/** The 200 a processor expects for a notification it may consider delivered. */
const acknowledged = (target: NotificationTarget) =>
  target.processor.notificationAcknowledgement === undefined
    ? HttpServerResponse.unsafeJson(RECEIVED)
    : HttpServerResponse.text(target.processor.notificationAcknowledgement)

/** The route, with what it runs on (the edge's limiter and limits too) taken from the server's context. */
export const make = Effect.gen(function* () {
  const processors = yield* PaymentProcessors
  const limiter = yield* RateLimiter.RateLimiter
  const options = yield* EdgeConfig
  const context = yield* Effect.context<
    ProcessorNotificationRepository | ChargeRepository | Ids | EventRepository | Transactions
  >()
  const unavailable = (error: StorageError) => Unavailable.unavailable(error)

  const { window } = options.rateLimits
  const limits = options.rateLimits
  const refusedLimit = RateLimit.exceededError(
    "refused processor notifications from this address",
    limits.anonymous,
    window
  )
  const accountLimit = {
    test: RateLimit.exceededError(
      "processor notifications for this account in test mode",
      limits.test,
      window
    ),
    live: RateLimit.exceededError(
      "processor notifications for this account in live mode",
      limits.live,
      window
    )
  }

  /**
   * A refusal (404, 400, 413), counted against the caller's address: a 429 instead once the
   * address is over its limit, so guessing accounts and forging signatures are throttled per
   * client and never touch the account's own budget.
   */
  const refuse = (
    error: ApiError.AnyError,
    address: string | undefined,
    headers: Record<string, string>
  ): Effect.Effect<never, ApiError.AnyError> =>
    RateLimit.consumeBucket(
      limiter,
      window,
      {
        bucket: `processor-webhooks-refused:${ClientAddress.limitKey(address)}`,
        limit: limits.anonymous,
        failOpen: false,
        exceeded: refusedLimit
      },
      headers
    ).pipe(Effect.zipRight(Effect.fail(error)))

  const handle: KeylessRoute["handle"] = (request, pathname, address, headers) =>
    Effect.gen(function* () {
      if (request.method !== "POST") {
        headers.allow = "POST"
        return yield* new ApiError.MethodNotAllowedError({
          message: `${pathname} accepts only POST, from a payment processor.`
        })
      }
      const target = WebhookPath.parse(pathname)
      if (target === undefined) return yield* refuse(notFound(pathname), address, headers)
      const tenant = Tenant.make(target.accountId, target.livemode)
      const configured = yield* processors
        .forNotifications(tenant, target.processor)
        .pipe(Effect.catchTag("StorageError", unavailable))
      if (Option.isNone(configured)) return yield* refuse(notFound(pathname), address, headers)
      const { processor, webhookSecret } = configured.value
      const body = yield* Effect.catchAll(rawBody(request, options.maxBodyBytes), (error) =>
        refuse(error, address, headers)
      )
      const notifications = yield* processor
        .parseNotification(body, request.headers, webhookSecret)
        .pipe(Effect.catchAll((error) => refuse(invalid(error), address, headers)))
      // Only a notification the processor signed counts against the account: anyone who
      // knows the account's id could otherwise spend its budget and hold back the real ones.
      const mode = target.livemode ? "live" : "test"
      yield* RateLimit.consumeBucket(
        limiter,
        window,
        {
          bucket: `processor-webhooks:${target.accountId}:${mode}`,
          limit: limits[mode],
          failOpen: false,
          exceeded: accountLimit[mode]
        },
        headers
      )
      for (const notification of notifications) {
        yield* ApplyNotification.apply(tenant, target.processor, notification).pipe(
          Effect.catchTag("StorageError", unavailable)
        )
      }
      return acknowledged(configured.value)
    }).pipe(Effect.provide(context))
  const route: KeylessRoute = { prefix: WebhookPath.PREFIX, handle }
  return route
})

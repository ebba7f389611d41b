/**
 * `POST /v1/processor-webhooks/<account>/<test|live>/<processor>` (docs/design.md §8,
 * docs/processors.md "Processor webhooks"): where Stripe and Adyen send an account's
 * notifications. No API key: the processor's signature over the exact raw body, checked with
 * the webhook secret of the account's configuration, is the authentication, so the edge hands
 * this route the request before its key check and JSON parsing (a `KeylessRoute` the server's
 * composition gives the edge, Server.ts).
 *
 * - counted per account and mode (the mode's per-key limit: a busy live account's processor
 *   sends in bursts); a URL that names no configured processor is also counted against the
 *   caller's address at the anonymous limit, so guessing accounts is throttled;
 * - bodies over the edge's limit: 413; unknown account, mode or processor, or one configured
 *   without a webhook secret: 404 (the same answer for each, so accounts cannot be probed);
 * - a bad signature or an unreadable body: 400, and nothing changes;
 * - each notification applied once (ApplyNotification.ts); a storage failure: 503, which the
 *   processor retries; then 200 with the processor's acknowledgement (Adyen `[accepted]`).
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { ApiError } from "@levy/api"
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
import { EdgeConfig } from "../http/EdgeConfig.js"
import type { EdgeRequest } from "../http/EdgeRequest.js"
import type { KeylessRoute } from "../http/KeylessRoute.js"
import * as RateLimit from "../http/RateLimit.js"
import type { NotificationInvalid } from "../processors/PaymentProcessor.js"
import { type NotificationTarget, PaymentProcessors } from "../processors/PaymentProcessors.js"
import * as Unavailable from "../Unavailable.js"
import * as ApplyNotification from "./ApplyNotification.js"
import * as WebhookPath from "./WebhookPath.js"

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
const rawBody = (request: EdgeRequest, max: number) => {
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

  const handle: KeylessRoute["handle"] = (request, pathname, address, headers) =>
    Effect.gen(function* () {
      if (request.method !== "POST") {
        headers.allow = "POST"
        return yield* new ApiError.MethodNotAllowedError({
          message: `${pathname} accepts only POST, from a payment processor.`
        })
      }
      const limits = options.rateLimits
      const missing = () =>
        RateLimit.consumeBucket(
          limiter,
          limits,
          { bucket: RateLimit.addressBucket(address), limit: limits.anonymous, failOpen: false },
          headers
        ).pipe(Effect.zipRight(Effect.fail(notFound(pathname))))
      const target = WebhookPath.parse(pathname)
      if (target === undefined) return yield* missing()
      const tenant = Tenant.make(target.accountId, target.livemode)
      yield* RateLimit.consumeBucket(
        limiter,
        limits,
        {
          bucket: `processor-webhooks:${target.accountId}:${target.livemode ? "live" : "test"}`,
          limit: limits[target.livemode ? "live" : "test"],
          failOpen: false
        },
        headers
      )
      const configured = yield* processors
        .forNotifications(tenant, target.processor)
        .pipe(Effect.catchTag("StorageError", unavailable))
      if (Option.isNone(configured)) return yield* missing()
      const { processor, webhookSecret } = configured.value
      const body = yield* rawBody(request, options.maxBodyBytes)
      const notifications = yield* processor
        .parseNotification(body, request.headers, webhookSecret)
        .pipe(Effect.mapError(invalid))
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

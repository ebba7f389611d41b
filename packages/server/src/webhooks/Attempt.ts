/**
 * One attempt at one delivery: load its endpoint and event, check the URL again (DNS may
 * now point somewhere internal), sign with every valid secret, POST, and decide what comes
 * next. Returns the outcome to record, or none when the endpoint is gone (its deliveries
 * went with it).
 */
import { WebhookSignature } from "@levy/api"
import {
  type AttemptOutcome,
  EventRepository,
  type Tenant,
  type WebhookDelivery,
  WebhookEndpointRepository
} from "@levy/storage"
import { Clock, Effect, Option, Random } from "effect"
import * as UrlGuard from "../webhookEndpoints/UrlGuard.js"
import type { DispatcherConfig } from "./DispatcherConfig.js"
import * as Payload from "./Payload.js"
import * as RetryPolicy from "./RetryPolicy.js"
import * as Sender from "./Sender.js"

const USER_AGENT = "Levy-Webhooks/1.0"

export const make = Effect.gen(function* () {
  const endpoints = yield* WebhookEndpointRepository
  const events = yield* EventRepository

  return (config: DispatcherConfig, d: WebhookDelivery) =>
    Effect.gen(function* () {
      const tenant: Tenant.Tenant = { accountId: d.accountId, livemode: d.livemode }
      const startedMs = yield* Clock.currentTimeMillis
      const outcome = (
        statusCode: number | null,
        error: string | null,
        next: AttemptOutcome["next"],
        endMs: number
      ): Option.Option<AttemptOutcome> =>
        Option.some({ statusCode, error, durationMs: Math.max(0, endMs - startedMs), next })
      const retry = (statusCode: number | null, retryAfter: string | null, nowMs: number) =>
        Effect.map(Random.next, (random) =>
          RetryPolicy.next(config.retry, {
            attempts: d.attempts + 1,
            statusCode,
            retryAfter,
            nowMs,
            createdMs: d.created * 1000,
            random
          })
        )

      const found = yield* endpoints.get(tenant, d.endpointId).pipe(
        Effect.map(Option.some),
        Effect.catchTag("RecordNotFound", () => Effect.succeed(Option.none()))
      )
      if (Option.isNone(found)) return Option.none()
      const endpoint = found.value
      if (endpoint.status !== "enabled") {
        return outcome(null, "endpoint disabled", "failed", startedMs)
      }
      const stored = yield* events.get(tenant, d.eventId).pipe(
        Effect.map(Option.some),
        Effect.catchTag("RecordNotFound", () => Effect.succeed(Option.none()))
      )
      if (Option.isNone(stored)) return outcome(null, "event no longer stored", "failed", startedMs)
      const event = stored.value

      const guard = yield* Effect.either(
        UrlGuard.check(endpoint.url, { livemode: d.livemode, lookup: config.lookup })
      )
      if (guard._tag === "Left") {
        const nowMs = yield* Clock.currentTimeMillis
        const error = `refused before sending: ${guard.left.message}`
        return outcome(null, error, yield* retry(null, null, nowMs), nowMs)
      }
      const target = guard.right

      const secrets = yield* endpoints.secrets(tenant, endpoint.id, startedMs)
      // (A RecordNotFound here is the endpoint deleted meanwhile: see the caller.)
      const body = Payload.body(event)
      const signature = yield* Effect.promise(() =>
        WebhookSignature.sign(secrets, Math.floor(startedMs / 1000), body)
      )
      const result = yield* Sender.send({
        url: target.url,
        address: target.addresses[0]!,
        headers: {
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          [WebhookSignature.SIGNATURE_HEADER]: signature,
          [WebhookSignature.WEBHOOK_ID_HEADER]: event.id
        },
        body,
        timeoutMs: config.timeoutMs,
        maxResponseBytes: config.maxResponseBytes,
        livemode: d.livemode
      })
      const endMs = yield* Clock.currentTimeMillis
      if (result._tag === "NoResponse") {
        return outcome(null, result.error, yield* retry(null, null, endMs), endMs)
      }
      const { statusCode, retryAfter } = result
      if (statusCode >= 200 && statusCode < 300)
        return outcome(statusCode, null, "succeeded", endMs)
      if (statusCode === 410) {
        // The receiver says the endpoint is gone for good: stop sending to it.
        yield* endpoints
          .update(tenant, endpoint.id, { status: "disabled" })
          .pipe(Effect.catchTag("RecordNotFound", () => Effect.void))
        return outcome(statusCode, "410 Gone: endpoint disabled", "failed", endMs)
      }
      const error =
        statusCode >= 300 && statusCode < 400
          ? `redirect (${statusCode}) not followed`
          : `HTTP ${statusCode}`
      return outcome(statusCode, error, yield* retry(statusCode, retryAfter, endMs), endMs)
    })
})

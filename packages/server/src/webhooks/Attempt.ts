/**
 * One attempt at one delivery: load its endpoint (its event comes with it), check the URL again (DNS may
 * now point somewhere internal), sign with every valid secret, POST, and decide what comes
 * next. Returns the outcome to record, or none when the endpoint is gone (its deliveries
 * went with it).
 */
import { WebhookSignature } from "@levy/api"
import {
  type AttemptOutcome,
  type Event,
  type StorageError,
  type Tenant,
  type WebhookDelivery,
  type WebhookEndpoint,
  WebhookEndpointRepository
} from "@levy/storage"
import { Clock, Effect, Option, Random } from "effect"
import { LoopbackTargets } from "../webhookEndpoints/LoopbackTargets.js"
import * as UrlGuard from "../webhookEndpoints/UrlGuard.js"
import type { DispatcherConfig } from "./DispatcherConfig.js"
import * as Payload from "./Payload.js"
import * as RetryPolicy from "./RetryPolicy.js"
import * as Sender from "./Sender.js"
import * as Signer from "./Signer.js"

const USER_AGENT = "Levy-Webhooks/1.0"

/** An endpoint and its signing secrets. */
interface Target {
  readonly endpoint: WebhookEndpoint
  readonly secrets: ReadonlyArray<string>
}

/** A cached read of an endpoint: begun at `readAtMs`, shared by every attempt that asks meanwhile. */
interface Cached {
  readonly readAtMs: number
  readonly target: Effect.Effect<Option.Option<Target>, StorageError>
}

export const make = Effect.gen(function* () {
  const endpoints = yield* WebhookEndpointRepository
  const allowLoopback = yield* Effect.map(LoopbackTargets, (allowed): boolean => allowed)
  // Endpoints read in the last `endpointCacheMs`, so a burst of events to one endpoint costs
  // one read of it, not one per delivery. The price: a change (disable, delete, URL, roll)
  // reaches deliveries already queued up to that long after it is made. The read itself is
  // shared: the attempts of a claimed batch start together, and each used to miss and read
  // the endpoint and its secrets (two queries and a decryption) until the first read landed,
  // a hundred and more times a second (docs/performance.md "Webhook delivery").
  const cache = new Map<string, Cached>()

  const read = (tenant: Tenant.Tenant, id: string, nowMs: number) =>
    Effect.gen(function* () {
      const endpoint = yield* endpoints.get(tenant, id)
      const secrets = yield* endpoints.secrets(tenant, id, nowMs)
      return Option.some<Target>({ endpoint, secrets })
    }).pipe(Effect.catchTag("RecordNotFound", () => Effect.succeed(Option.none<Target>())))

  /** The endpoint with its secrets; none when it no longer exists. */
  const endpointOf = (
    config: DispatcherConfig,
    tenant: Tenant.Tenant,
    id: string,
    nowMs: number
  ): Effect.Effect<Option.Option<Target>, StorageError> => {
    const key = `${tenant.accountId}/${tenant.livemode}/${id}`
    const hit = cache.get(key)
    if (hit !== undefined && nowMs - hit.readAtMs < config.endpointCacheMs) return hit.target
    return Effect.flatMap(Effect.cached(read(tenant, id, nowMs)), (target) => {
      const entry: Cached = { readAtMs: nowMs, target }
      if (cache.size > 10_000) cache.clear()
      cache.set(key, entry)
      const current = () => cache.get(key) === entry
      return target.pipe(
        Effect.tap((found) =>
          Effect.sync(() => {
            // Read: later hits take the value itself, not the shared read.
            if (current()) cache.set(key, { readAtMs: nowMs, target: Effect.succeed(found) })
          })
        ),
        // A failed read is not kept: the next attempt reads again.
        Effect.tapError(() =>
          Effect.sync(() => {
            if (current()) cache.delete(key)
          })
        )
      )
    })
  }

  /** The attempt at `d`, whose event (read with its batch) is `event`. */
  return (config: DispatcherConfig, d: WebhookDelivery, event: Event | undefined) =>
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

      const found = yield* endpointOf(config, tenant, d.endpointId, startedMs)
      if (Option.isNone(found)) return Option.none()
      const { endpoint, secrets } = found.value
      if (endpoint.status !== "enabled") {
        return outcome(null, "endpoint disabled", "failed", startedMs)
      }
      if (event === undefined) return outcome(null, "event no longer stored", "failed", startedMs)

      const guard = yield* Effect.either(
        UrlGuard.check(endpoint.url, { livemode: d.livemode, allowLoopback, lookup: config.lookup })
      )
      if (guard._tag === "Left") {
        const nowMs = yield* Clock.currentTimeMillis
        const error = `refused before sending: ${guard.left.message}`
        return outcome(null, error, yield* retry(null, null, nowMs), nowMs)
      }
      const target = guard.right

      const body = Payload.body(event)
      const signature = Signer.sign(secrets, Math.floor(startedMs / 1000), body)
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
        cache.delete(`${tenant.accountId}/${tenant.livemode}/${endpoint.id}`)
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

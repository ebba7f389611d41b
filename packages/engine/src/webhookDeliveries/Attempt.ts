/**
 * The attempts at the deliveries of one claim to one endpoint: load the endpoint (the events
 * come with the claim), check its URL again (DNS may now point somewhere internal), then for
 * each delivery sign with every valid secret, POST, and decide what comes next: the outcome
 * to record, or none when the endpoint is gone (its deliveries went with it).
 *
 * The deliveries of a group are sent in the same instant, so they share one endpoint read
 * and one URL check (its DNS answer, and the address connected to), and run side by side as
 * plain callbacks in the group's one fiber: a fiber per delivery and its steps were a fifth
 * of the dispatcher's CPU, and most of its garbage (docs/performance.md "Webhook delivery").
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
import { Cause, Effect, Either, Option, Runtime } from "effect"
import { LoopbackTargets } from "../webhookEndpoints/LoopbackTargets.js"
import * as UrlGuard from "../webhookEndpoints/UrlGuard.js"
import type { DispatcherConfig } from "./DispatcherConfig.js"
import * as Payload from "./Payload.js"
import * as RetryPolicy from "./RetryPolicy.js"
import * as Sender from "./Sender.js"
import * as Signer from "./Signer.js"

const USER_AGENT = "Levy-Webhooks/1.0"

/** A claimed delivery and its event (read with its batch; undefined when no longer stored). */
export interface Item {
  readonly delivery: WebhookDelivery
  readonly event: Event | undefined
}

/**
 * Called once per delivery as its attempt ends: the outcome to record, or none (endpoint
 * gone, or the attempt could not be made: its lease lapses and it is tried again).
 */
export type Done = (delivery: WebhookDelivery, outcome: Option.Option<AttemptOutcome>) => void

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

  /**
   * The attempts at `items`, deliveries of one claim to one endpoint (one tenant); `done` is
   * called for each as it ends, and the effect ends when all have. Fails when the endpoint
   * cannot be read (no `done` then: the leases lapse). Interrupted, the requests in flight are
   * dropped and their `done` is not called.
   */
  return (
    config: DispatcherConfig,
    items: ReadonlyArray<Item>,
    done: Done
  ): Effect.Effect<void, StorageError> =>
    Effect.gen(function* () {
      const first = items[0]
      if (first === undefined) return
      const { accountId, livemode, endpointId } = first.delivery
      const tenant: Tenant.Tenant = { accountId, livemode }
      const clock = yield* Effect.clock
      const random = yield* Effect.random
      const runtime = yield* Effect.runtime<never>()
      const now = () => clock.unsafeCurrentTimeMillis()
      const readMs = now()
      const outcome = (
        startedMs: number,
        statusCode: number | null,
        error: string | null,
        next: AttemptOutcome["next"],
        endMs: number
      ): Option.Option<AttemptOutcome> =>
        Option.some({ statusCode, error, durationMs: Math.max(0, endMs - startedMs), next })
      // Only failed attempts draw a number (the jitter).
      const retry = (
        d: WebhookDelivery,
        statusCode: number | null,
        retryAfter: string | null,
        nowMs: number
      ) =>
        RetryPolicy.next(config.retry, {
          attempts: d.attempts + 1 - d.attemptsAtQueue,
          statusCode,
          retryAfter,
          nowMs,
          createdMs: d.created * 1000,
          random: Runtime.runSync(runtime, random.next)
        })

      const found = yield* endpointOf(config, tenant, endpointId, readMs)
      if (Option.isNone(found)) {
        for (const item of items) done(item.delivery, Option.none())
        return
      }
      const { endpoint, secrets } = found.value
      if (endpoint.status !== "enabled") {
        for (const { delivery } of items) {
          done(delivery, outcome(readMs, null, "endpoint disabled", "failed", readMs))
        }
        return
      }
      const sendable: Array<Item & { readonly event: Event }> = []
      for (const item of items) {
        if (item.event === undefined) {
          done(item.delivery, outcome(readMs, null, "event no longer stored", "failed", readMs))
        } else sendable.push(item as Item & { readonly event: Event })
      }
      if (sendable.length === 0) return

      const guard = yield* Effect.either(
        UrlGuard.check(endpoint.url, { livemode, allowLoopback, lookup: config.lookup })
      )
      if (guard._tag === "Left") {
        const nowMs = now()
        const error = `refused before sending: ${guard.left.message}`
        for (const { delivery } of sendable) {
          done(delivery, outcome(readMs, null, error, retry(delivery, null, null, nowMs), nowMs))
        }
        return
      }
      const target = guard.right
      const route = Sender.routeOf(target.url, target.addresses[0]!, livemode)
      if (Either.isLeft(route)) {
        const nowMs = now()
        const error = Sender.unsendable(route.left).error
        for (const { delivery } of sendable) {
          done(delivery, outcome(readMs, null, error, retry(delivery, null, null, nowMs), nowMs))
        }
        return
      }

      yield* Effect.async<void>((resume) => {
        let pending = sendable.length
        const inFlight: Array<Sender.InFlight> = []
        const end = (d: WebhookDelivery, result: Option.Option<AttemptOutcome>) => {
          done(d, result)
          if (--pending === 0) resume(Effect.void)
        }
        /** Signs and sends `event`; `end` is called once with the outcome. */
        const send = (d: WebhookDelivery, event: Event, startedMs: number): Sender.InFlight => {
          const body = Payload.body(event)
          const signature = Signer.sign(secrets, Math.floor(startedMs / 1000), body)
          const message: Sender.Message = {
            headers: [
              "content-type",
              "application/json",
              "user-agent",
              USER_AGENT,
              WebhookSignature.SIGNATURE_HEADER,
              signature,
              WebhookSignature.WEBHOOK_ID_HEADER,
              event.id
            ],
            body,
            timeoutMs: config.timeoutMs,
            maxResponseBytes: config.maxResponseBytes
          }
          return Sender.dispatch(route.right, message, (result) => {
            const endMs = now()
            if (result._tag === "NoResponse") {
              const next = retry(d, null, null, endMs)
              return end(d, outcome(startedMs, null, result.error, next, endMs))
            }
            const { statusCode, retryAfter } = result
            if (statusCode >= 200 && statusCode < 300) {
              return end(d, outcome(startedMs, statusCode, null, "succeeded", endMs))
            }
            if (statusCode === 410) {
              // The receiver says the endpoint is gone for good: stop sending to it, and
              // record the attempt once it is disabled.
              cache.delete(`${accountId}/${livemode}/${endpoint.id}`)
              const gone = outcome(startedMs, 410, "410 Gone: endpoint disabled", "failed", endMs)
              Runtime.runCallback(runtime)(
                endpoints.update(tenant, endpoint.id, { status: "disabled" }).pipe(
                  Effect.catchTag("RecordNotFound", () => Effect.void),
                  Effect.tapErrorCause((cause) =>
                    Effect.logWarning("webhook endpoint not disabled after 410", cause)
                  )
                ),
                // Store unavailable: not recorded, so the lease lapses and the next
                // attempt meets the 410 again.
                { onExit: (exit) => end(d, exit._tag === "Success" ? gone : Option.none()) }
              )
              return
            }
            const error =
              statusCode >= 300 && statusCode < 400
                ? `redirect (${statusCode}) not followed`
                : `HTTP ${statusCode}`
            const next = retry(d, statusCode, retryAfter, endMs)
            end(d, outcome(startedMs, statusCode, error, next, endMs))
          })
        }
        for (const { delivery: d, event } of sendable) {
          const startedMs = now()
          try {
            inFlight.push(send(d, event, startedMs))
          } catch (e) {
            // A request that cannot be made (its payload, its signature) still ends its
            // attempt, recorded and retried on the schedule: never a lease left to lapse and
            // the delivery tried again every minute with nothing recorded.
            Runtime.runSync(runtime)(Effect.logError("webhook request not made", Cause.die(e)))
            const endMs = now()
            const error = "not sent: the request could not be made (internal error)"
            end(d, outcome(startedMs, null, error, retry(d, null, null, endMs), endMs))
          }
        }
        // On interruption: drop the connections (or never send, when not yet on one).
        return Effect.sync(() => {
          for (const request of inFlight) request.cancel()
        })
      })
    })
})

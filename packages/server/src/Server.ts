/**
 * The HTTP server: the whole `/v1` API and the public docs (`/v1/openapi.json`, `/docs`),
 * answered by the edge (http/Edge.ts) on node:http at `port` (0 = ephemeral). Effect's
 * tracing is off for the whole server: nothing exports its spans, and creating them
 * (@effect/sql's for every statement) costs time on every request.
 */
import { createServer } from "node:http"
import * as HttpServer from "@effect/platform/HttpServer"
import { Effect, Layer } from "effect"
import * as Edge from "./http/Edge.js"
import { KeylessRoutes } from "./http/KeylessRoute.js"
import * as NodeListener from "./http/NodeListener.js"
import * as NodeServer from "./http/NodeServer.js"
import { ChargesLive } from "./routes/ChargesLive.js"
import { DisputesLive } from "./routes/DisputesLive.js"
import { EstimatesLive } from "./routes/EstimatesLive.js"
import { EventsLive } from "./routes/EventsLive.js"
import { FeeConfigsLive } from "./routes/FeeConfigsLive.js"
import { KeysLive } from "./routes/KeysLive.js"
import { ProcessorConfigsLive } from "./routes/ProcessorConfigsLive.js"
import * as ProcessorWebhookRoute from "./routes/ProcessorWebhookRoute.js"
import { RefundsLive } from "./routes/RefundsLive.js"
import { RegionsLive } from "./routes/RegionsLive.js"
import * as ReplayedFailures from "./routes/ReplayedFailures.js"
import { RulesetsLive } from "./routes/RulesetsLive.js"
import { WebhookEndpointsLive } from "./routes/WebhookEndpointsLive.js"

/**
 * The routes the edge hands a request before its key check: the processors' webhooks. Given
 * to the edge here, where the server is put together, so that http/ names no resource.
 */
const KeylessRoutesLive = Layer.effect(
  KeylessRoutes,
  Effect.map(ProcessorWebhookRoute.make, (route) => [route])
)

/**
 * Every group's handlers, the keyless routes and the replay of a stored failure: what the edge
 * serves. Needs: `KeyResolver`,
 * a `RateLimiter`, `ComplianceRules`, `PaymentProcessors`, `EdgeConfig`, and the whole store
 * from @levy/storage (`Storage.layerMemory`/`layerPostgres`/`layerEmbedded` plus `Ids.layer`).
 */
export const ApiLive = Layer.mergeAll(
  EstimatesLive,
  ChargesLive,
  RefundsLive,
  DisputesLive,
  FeeConfigsLive,
  RegionsLive,
  RulesetsLive,
  EventsLive,
  WebhookEndpointsLive,
  KeysLive,
  ProcessorConfigsLive,
  KeylessRoutesLive,
  ReplayedFailures.layer
)

/**
 * How long a client may take (milliseconds): to send its headers, and its whole request.
 * A slow-drip client (one byte now and then) is cut off with a 408 when either runs out
 * instead of holding a connection for node's defaults (60 s, 5 min); node checks them every
 * `checkIntervalMs`.
 */
export interface Timeouts {
  readonly headersMs: number
  readonly requestMs: number
  readonly checkIntervalMs: number
}

export const defaultTimeouts: Timeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  checkIntervalMs: 1_000
}

/** Serves the API on `port`; exposes the HttpServer (its address) for callers and tests. */
export const layer = (options: {
  readonly port: number
  readonly host?: string
  readonly timeouts?: Timeouts
}) =>
  Layer.scoped(
    HttpServer.HttpServer,
    Effect.flatMap(Edge.make, (edge) =>
      NodeServer.make(
        () => createServerWith(options.timeouts ?? defaultTimeouts),
        { port: options.port, ...(options.host === undefined ? {} : { host: options.host }) },
        NodeListener.make(edge)
      )
    )
  ).pipe(Layer.provide(ApiLive), Layer.provide(Layer.setTracerEnabled(false)))

const createServerWith = (timeouts: Timeouts) =>
  createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: timeouts.checkIntervalMs
  })

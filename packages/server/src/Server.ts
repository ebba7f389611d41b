/**
 * The HTTP server: the whole `/v1` API and the public docs
 * (`/v1/openapi.json`, `/docs`, answered by the edge) behind the edge middleware, on node:http
 * at `port` (0 = ephemeral; http/NodeServer.ts, with the fast lane in front). Effect's
 * tracing is off for the whole server: nothing exports its spans, and creating them (the
 * HTTP server's, @effect/sql's for every statement) costs time on every request.
 */
import { createServer } from "node:http"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { AuthorizationLive } from "./access/AuthorizationLive.js"
import { ChargesLive } from "./charges/ChargesLive.js"
import { DisputesLive } from "./disputes/DisputesLive.js"
import { EstimateHandler, EstimateHandlerLive, EstimatesLive } from "./estimates/EstimatesLive.js"
import { EventsLive } from "./events/EventsLive.js"
import { FeeConfigsLive } from "./feeConfigs/FeeConfigsLive.js"
import { EdgeLive } from "./http/Edge.js"
import * as FastLane from "./http/FastLane.js"
import { KeylessRoutes } from "./http/KeylessRoute.js"
import * as NodeServer from "./http/NodeServer.js"
import { KeysLive } from "./keys/KeysLive.js"
import { ProcessorConfigsLive } from "./processorConfigs/ProcessorConfigsLive.js"
import * as ProcessorWebhookRoute from "./processorWebhooks/ProcessorWebhookRoute.js"
import { RefundsLive } from "./refunds/RefundsLive.js"
import { RegionsLive } from "./regions/RegionsLive.js"
import { RulesetsLive } from "./rulesets/RulesetsLive.js"
import { ServerApi } from "./ServerApi.js"
import { WebhookEndpointsLive } from "./webhookEndpoints/WebhookEndpointsLive.js"

/**
 * The routes the edge hands a request before its key check: the processors' webhooks. Given
 * to the edge here, where the server is put together, so that http/ names no resource.
 */
const KeylessRoutesLive = Layer.effect(
  KeylessRoutes,
  Effect.map(ProcessorWebhookRoute.make, (route) => [route])
)

/** The fast lane for `POST /v1/estimates`, answering with the router's estimate handler. */
export const fastLane = Effect.flatMap(EstimateHandler, FastLane.make)

/**
 * The API with its handlers and middlewares. Needs: `KeyResolver`, a `RateLimiter`,
 * `ComplianceRules`, `PaymentProcessors`, `EdgeConfig`, and the whole store from
 * @levy/storage (`Storage.layerMemory`/`layerPostgres`/`layerEmbedded` plus `Ids.layer`).
 */
export const ApiLive = HttpApiBuilder.api(ServerApi).pipe(
  Layer.provide([
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
    AuthorizationLive,
    EdgeLive
  ]),
  Layer.provide([EstimateHandlerLive, KeylessRoutesLive])
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
  /** Whether POST /v1/estimates takes the fast lane (http/FastLane.ts); default true. */
  readonly fastLane?: boolean
}) =>
  HttpApiBuilder.serve().pipe(
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(ApiLive),
    Layer.provideMerge(
      Layer.scoped(
        HttpServer.HttpServer,
        Effect.flatMap(
          options.fastLane === false ? Effect.succeed(FastLane.closed) : fastLane,
          (lane) =>
            NodeServer.make(
              () => createServerWith(options.timeouts ?? defaultTimeouts),
              { port: options.port, ...(options.host === undefined ? {} : { host: options.host }) },
              lane
            )
        )
      ).pipe(Layer.provide(EstimateHandlerLive))
    ),
    Layer.provideMerge(NodeHttpServer.layerContext),
    Layer.provide(Layer.setTracerEnabled(false))
  )

const createServerWith = (timeouts: Timeouts) =>
  createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: timeouts.checkIntervalMs
  })

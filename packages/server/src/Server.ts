/**
 * The HTTP server: the served API (regions for now) behind the edge middleware, with
 * NodeHttpServer on `port` (0 = ephemeral) and Effect's per-request tracing disabled.
 */
import { createServer } from "node:http"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Layer } from "effect"
import { AuthorizationLive } from "./AuthorizationLive.js"
import { EdgeLive } from "./http/Edge.js"
import { RegionsLive } from "./regions/RegionsLive.js"
import { ServerApi } from "./ServerApi.js"

/** The API with its handlers and middlewares; needs keys, a rate limiter and the rules. */
export const ApiLive = HttpApiBuilder.api(ServerApi).pipe(
  Layer.provide([RegionsLive, AuthorizationLive, EdgeLive])
)

/** Serves the API on `port`; exposes the HttpServer (its address) for callers and tests. */
export const layer = (options: { readonly port: number; readonly host?: string }) =>
  HttpApiBuilder.serve().pipe(
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(ApiLive),
    Layer.provideMerge(
      NodeHttpServer.layer(createServer, {
        port: options.port,
        ...(options.host === undefined ? {} : { host: options.host })
      })
    )
  )

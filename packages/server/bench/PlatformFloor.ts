/**
 * The floor of the platform under Levy's edge (http.bench.ts): one HttpApi endpoint,
 * `POST /v1/estimates`, whose payload schema has the estimate request's four fields and
 * whose handler returns the payload, served by @effect/platform's HttpApiBuilder on
 * node:http, tracing off as in `Server.layer`, and nothing else: no edge, no key, no engine.
 * What Levy's one edge could reach if its own work cost nothing.
 */
import { createServer } from "node:http"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"

const Payload = Schema.Struct({
  amount: Schema.Int,
  currency: Schema.String,
  region: Schema.String,
  cardType: Schema.String
})

const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("estimates").add(
    HttpApiEndpoint.post("create", "/v1/estimates").setPayload(Payload).addSuccess(Payload)
  )
)

const Estimates = HttpApiBuilder.group(Api, "estimates", (handlers) =>
  handlers.handle("create", ({ payload }) => Effect.succeed(payload))
)

/** Serves the floor on an ephemeral loopback port. */
export const serve = async (): Promise<{ port: number; close: () => Promise<void> }> => {
  const layer = HttpApiBuilder.serve().pipe(
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide(Estimates))),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(Layer.setTracerEnabled(false))
  )
  const runtime = ManagedRuntime.make(layer)
  const address = (await runtime.runPromise(HttpServer.HttpServer)).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { port: address.port, close: () => runtime.dispose() }
}

/**
 * Effect's HttpServer on a node:http server, as `NodeHttpServer.make` builds it (listen,
 * address, close on release) but with the fast lane (FastLane.ts) in front of the platform's
 * request handler. No WebSocket upgrades: the API has none.
 */
import type { Server } from "node:http"
import type { ListenOptions } from "node:net"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect } from "effect"
import type { FastLane } from "./FastLane.js"

/** Listens with `evaluate()`'s server; its requests go through `lane`, then to the app served. */
export const make = (evaluate: () => Server, listen: ListenOptions, lane: FastLane) =>
  Effect.gen(function* () {
    const server = yield* Effect.acquireRelease(Effect.sync(evaluate), (server) =>
      Effect.async<void>((resume) => {
        if (!server.listening) return resume(Effect.void)
        server.close((error) => resume(error === undefined ? Effect.void : Effect.die(error)))
      })
    )
    yield* Effect.async<void, HttpServerError.ServeError>((resume) => {
      const onError = (cause: Error) =>
        resume(Effect.fail(new HttpServerError.ServeError({ cause })))
      server.on("error", onError)
      server.listen(listen, () => {
        server.off("error", onError)
        resume(Effect.void)
      })
    })
    const address = server.address()
    return HttpServer.make({
      address:
        typeof address === "string" || address === null
          ? { _tag: "UnixAddress", path: String(address) }
          : {
              _tag: "TcpAddress",
              hostname: address.address === "::" ? "0.0.0.0" : address.address,
              port: address.port
            },
      serve: (app, middleware) =>
        Effect.gen(function* () {
          const handler = yield* middleware === undefined
            ? NodeHttpServer.makeHandler(app)
            : NodeHttpServer.makeHandler(app, middleware)
          const listener = lane.before(handler)
          yield* Effect.addFinalizer(() => Effect.sync(() => server.off("request", listener)))
          server.on("request", listener)
        })
    })
  })

/**
 * The node:http server the edge answers on: listening (on `listen`), closed on release, and
 * its address given as Effect's `HttpServer` service, which callers read it from. The edge
 * is the server's only request listener; the service's `serve` is not for use.
 */
import type { Server } from "node:http"
import type { ListenOptions } from "node:net"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import { Effect } from "effect"
import type { Listener } from "./NodeListener.js"

/** Listens with `evaluate()`'s server, every request to `listener`. */
export const make = (evaluate: () => Server, listen: ListenOptions, listener: Listener) =>
  Effect.gen(function* () {
    const server = yield* Effect.acquireRelease(Effect.sync(evaluate), (server) =>
      Effect.async<void>((resume) => {
        if (!server.listening) return resume(Effect.void)
        server.close((error) => resume(error === undefined ? Effect.void : Effect.die(error)))
      })
    )
    server.on("request", listener)
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
      serve: () =>
        Effect.dieMessage("Levy's edge answers this server's requests; it serves no other app.")
    })
  })

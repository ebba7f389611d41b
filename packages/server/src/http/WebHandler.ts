/**
 * The edge as a web-standard handler, `(Request) => Promise<Response>`, for frameworks built
 * on fetch (Mount.ts). The body is read within the limit first (EdgeRequest.fromWeb); an
 * aborted request interrupts its fiber.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Runtime } from "effect"
import type { Edge } from "./Edge.js"
import * as EdgeRequest from "./EdgeRequest.js"

/** The handler answering with `edge`. */
export const make = (edge: Edge) => {
  const run = Runtime.runPromise(edge.runtime)
  return (request: Request): Promise<Response> =>
    run(
      EdgeRequest.fromWeb(request, edge.maxBodyBytes).pipe(
        Effect.flatMap(edge.answer),
        Effect.map(({ response, headers }) =>
          HttpServerResponse.toWeb(HttpServerResponse.setHeaders(response, headers))
        )
      ),
      { signal: request.signal }
    )
}

/**
 * The edge as a node:http request listener: the body read within the limit
 * (EdgeRequest.fromNode), the edge's answer written back. A client that goes away before its
 * answer interrupts the request's fiber, as the platform's server does.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http"
import { Effect, Exit, Runtime } from "effect"
import type { Answer, Edge } from "./Edge.js"
import * as EdgeRequest from "./EdgeRequest.js"

/** A node:http request listener. */
export type Listener = (request: IncomingMessage, response: ServerResponse) => void

/** Writes `answer` to node's `response`; the edge's answers carry no body but bytes. */
export const write = (
  { response: answer, headers: added }: Answer,
  response: ServerResponse
): void => {
  const headers: OutgoingHttpHeaders = { ...answer.headers, ...added }
  const body = answer.body
  switch (body._tag) {
    case "Empty":
      response.writeHead(answer.status, headers).end()
      return
    case "Uint8Array":
      headers["content-type"] = body.contentType
      headers["content-length"] = String(body.contentLength)
      response.writeHead(answer.status, headers).end(body.body)
      return
    default:
      throw new Error(`the edge answered with a ${body._tag} body, which it never makes`)
  }
}

/** The listener answering with `edge`. */
export const make = (edge: Edge): Listener => {
  const run = Runtime.runCallback(edge.runtime)
  return (incoming, response) =>
    EdgeRequest.fromNode(incoming, edge.maxBodyBytes, (request) => {
      const cancel = run(edge.answer(request), {
        onExit: (exit) => {
          // Nothing thrown here may reach node's event loop: it would end the process.
          try {
            if (Exit.isSuccess(exit)) return write(exit.value, response)
            response.destroy()
          } catch (error) {
            run(Effect.logError("response not written", error))
            response.destroy()
          }
        }
      })
      response.once("close", () => {
        if (!response.writableFinished) cancel()
      })
    })
}

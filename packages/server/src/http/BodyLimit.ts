/**
 * A streamed body (no Content-Length) is only found too large while it is read. The platform
 * then destroys the request stream, which resets the connection before the 413 is written;
 * instead the rest of the body is discarded as it arrives (never buffered) and the
 * connection is closed once the 413 has gone out.
 */
import type { IncomingMessage } from "node:http"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"

/** Makes an oversized streamed body end in a 413 instead of a reset connection. */
export const discardOverflow = (request: HttpServerRequest.HttpServerRequest): void => {
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  incoming.destroy = function (this: IncomingMessage) {
    this.removeAllListeners("data")
    this.resume()
    return this
  }
}

/** A 413 also closes the connection: the client may still be sending the body. */
export const closeAfter413 = (
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse =>
  response.status === 413 ? HttpServerResponse.setHeader(response, "connection", "close") : response

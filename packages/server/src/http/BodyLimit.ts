/**
 * A 413 closes the connection: the client may still be sending the body, which the edge
 * drains without keeping (EdgeRequest.ts), and nothing after it on that connection can be
 * told apart from the rest of the body.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"

/** `response`, closing the connection when it is a 413. */
export const closeAfter413 = (
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse =>
  response.status === 413 ? HttpServerResponse.setHeader(response, "connection", "close") : response

/**
 * The body limit's answer: a 413 in the error shape, for the edge and for the keyless routes
 * alike. A 413 closes the connection: the client may still be sending the body, which the edge
 * drains without keeping (EdgeRequest.ts), and nothing after it on that connection can be
 * told apart from the rest of the body.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { ApiError } from "@levy/api"

/** The 413 for a body over `max` bytes. */
export const tooLarge = (max: number) =>
  new ApiError.PayloadTooLargeError({ message: `Request bodies may be at most ${max} bytes.` })

/** `response`, closing the connection when it is a 413. */
export const closeAfter413 = (
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse =>
  response.status === 413 ? HttpServerResponse.setHeader(response, "connection", "close") : response

/**
 * A request body read as JSON with the semantics of the platform's `request.json` on Node
 * (the body limit checked while reading — given here rather than as `MaxBodySize` in
 * context; `""` is `null`; a body over the limit or not JSON fails with the same
 * `RequestError` the platform gives, which the edge turns into 413 / 400), in one `Effect.async`. The platform's reader runs a fiber of its own, a
 * cached effect and an acquire/use/release per request: a quarter of the cost of a small
 * POST. When the body stream was already read (someone used `request.text`), or the request
 * is not Node's, this defers to `request.json`, whose cache holds the text.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerError from "@effect/platform/HttpServerError"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Effect, Option } from "effect"
import * as JsonDepth from "./JsonDepth.js"

/** The platform's failure for a body it could not read (`onError` of its Node request). */
const readError = (request: HttpServerRequest.HttpServerRequest, cause: unknown) =>
  new HttpServerError.RequestError({ request, reason: "Decode", cause })

/** The body parsed as JSON (`null` for an empty one); more than `maxBytes` bytes (if > 0) fails. */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<unknown, HttpServerError.RequestError> => {
  const incoming = NodeHttpServerRequest.toIncomingMessage(request) as
    | ReturnType<typeof NodeHttpServerRequest.toIncomingMessage>
    | undefined
  // Already read (or, for an empty body, already ended without a byte: readableDidRead stays
  // false then, and waiting for an "end" that has passed would hang the request).
  if (
    incoming === undefined ||
    typeof incoming.on !== "function" ||
    incoming.readableDidRead ||
    incoming.readableEnded
  ) {
    return Effect.zipRight(JsonDepth.check(request), request.json).pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, Option.some(FileSystem.Size(maxBytes)))
    )
  }
  return Effect.async<unknown, HttpServerError.RequestError>((resume) => {
    let text = ""
    let bytes = 0
    let done = false
    // As the platform's reader: the stream is destroyed once read (or abandoned).
    const finish = () => {
      done = true
      if (!incoming.closed) incoming.destroy()
    }
    incoming.setEncoding("utf8")
    incoming.once("error", (error) => {
      if (done) return
      finish()
      resume(Effect.fail(readError(request, error)))
    })
    incoming.once("end", () => {
      if (done) return
      finish()
      if (JsonDepth.exceeds(text)) return resume(Effect.fail(JsonDepth.tooDeep(request)))
      try {
        resume(Effect.succeed(text === "" ? null : JSON.parse(text)))
      } catch (error) {
        resume(Effect.fail(readError(request, error)))
      }
    })
    incoming.on("data", (chunk: string) => {
      if (done) return
      text += chunk
      bytes += Buffer.byteLength(chunk)
      if (maxBytes > 0 && bytes > maxBytes) {
        finish()
        resume(Effect.fail(readError(request, new Error("maxBytes exceeded"))))
      }
    })
    return Effect.sync(() => {
      if (!done) finish()
    })
  })
}

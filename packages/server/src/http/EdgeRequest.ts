/**
 * A request as the edge sees it, whatever carried it (node:http in `levy serve` and the
 * mounted listener, a web `Request` in the mounted `fetch`): method, target, headers, the
 * client's address, and the body already read. The body is read before the edge runs,
 * within the body limit: a declared Content-Length over the limit is not read at all, a
 * streamed body stops being kept once it passes the limit (the rest is drained, never
 * buffered, and the edge answers 413).
 */
import type { IncomingMessage } from "node:http"
import { Effect } from "effect"

export type Body =
  | { readonly _tag: "Text"; readonly text: string }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Unreadable" }

export interface EdgeRequest {
  readonly method: string
  readonly url: string
  /** Lower-case names; a repeated header as node joins it. */
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly remoteAddress: string | undefined
  readonly body: Body
}

const EMPTY: Body = { _tag: "Text", text: "" }
const TOO_LARGE: Body = { _tag: "TooLarge" }
const UNREADABLE: Body = { _tag: "Unreadable" }

/** Whether a declared Content-Length is over `max` (so the body is not read). */
const declaredTooLarge = (length: string | null | undefined, max: number) =>
  length !== undefined && length !== null && Number(length) > max

/**
 * Reads a node request's body, then calls `ready` once with the request. A client that goes
 * away mid-body gets no call: there is nobody to answer.
 */
export const fromNode = (
  request: IncomingMessage,
  maxBodyBytes: number,
  ready: (request: EdgeRequest) => void
): void => {
  const headers = request.headers as Readonly<Record<string, string | undefined>>
  const make = (body: Body): EdgeRequest => ({
    method: request.method ?? "GET",
    url: request.url ?? "/",
    headers,
    remoteAddress: request.socket.remoteAddress,
    body
  })
  const length = headers["content-length"]
  const streamed = headers["transfer-encoding"] !== undefined
  if (declaredTooLarge(length, maxBodyBytes)) {
    request.resume()
    ready(make(TOO_LARGE))
    return
  }
  if (!streamed && (length === undefined || length === "0")) {
    request.resume()
    ready(make(EMPTY))
    return
  }
  const chunks: Array<Buffer> = []
  let size = 0
  let done = false
  const finish = (body: Body) => {
    if (done) return
    done = true
    ready(make(body))
  }
  request.on("data", (chunk: Buffer) => {
    size += chunk.length
    if (size <= maxBodyBytes) return void chunks.push(chunk)
    // Drained from here on: the 413 goes out now, and the connection closes after it.
    request.removeAllListeners("data")
    request.resume()
    chunks.length = 0
    finish(TOO_LARGE)
  })
  request.once("end", () =>
    finish(
      chunks.length === 1
        ? { _tag: "Text", text: (chunks[0] as Buffer).toString("utf8") }
        : { _tag: "Text", text: Buffer.concat(chunks).toString("utf8") }
    )
  )
  request.once("error", () => {
    done = true
  })
}

/** A web request with its body read, within `maxBodyBytes`. */
export const fromWeb = (
  request: Request,
  maxBodyBytes: number,
  remoteAddress?: string
): Effect.Effect<EdgeRequest> =>
  Effect.map(readWeb(request, maxBodyBytes), (body) => {
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    const url = new URL(request.url)
    return {
      method: request.method,
      url: `${url.pathname}${url.search}`,
      headers,
      remoteAddress,
      body
    }
  })

const readWeb = (request: Request, max: number): Effect.Effect<Body> => {
  if (request.body === null) return Effect.succeed(EMPTY)
  if (declaredTooLarge(request.headers.get("content-length"), max)) return Effect.succeed(TOO_LARGE)
  const body = request.body
  return Effect.promise(async (): Promise<Body> => {
    const reader = body.getReader()
    const chunks: Array<Uint8Array> = []
    let size = 0
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        size += value.byteLength
        if (size > max) {
          await reader.cancel()
          return TOO_LARGE
        }
        chunks.push(value)
      }
    } catch {
      return UNREADABLE
    }
    return { _tag: "Text", text: Buffer.concat(chunks).toString("utf8") }
  })
}

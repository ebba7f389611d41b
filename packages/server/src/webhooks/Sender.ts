/**
 * One webhook POST over node:http(s), to an address the SSRF guard already approved: the
 * connection goes to that address (a pinned `lookup`), never to whatever the name resolves
 * to a moment later, while the Host header, TLS SNI and certificate check keep the URL's
 * name. Redirects are never followed (node:http does not), the whole exchange has a
 * deadline, and at most `maxResponseBytes` of the response are read.
 */
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { Effect } from "effect"
import type { Address } from "../webhookEndpoints/UrlGuard.js"

export interface SendRequest {
  readonly url: URL
  /** Where to connect: one of the addresses the URL's host resolved to. */
  readonly address: Address
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeoutMs: number
  readonly maxResponseBytes: number
  readonly livemode: boolean
}

/** The receiver's answer (any status), or why there was none. */
export type SendResult =
  | { readonly _tag: "Response"; readonly statusCode: number; readonly retryAfter: string | null }
  | { readonly _tag: "NoResponse"; readonly error: string }

/** Connects to `address` whatever the name: the guard's answer is the one used. */
const pinned =
  (address: Address): LookupFunction =>
  (_host, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }])
    else callback(null, address.address, address.family)
  }

// Keep-alive pools, one per mode and scheme: a socket opened for a test-mode delivery
// (which may reach loopback) is never reused for a live one.
const agents = {
  test: {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 })
  },
  live: {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 })
  }
}

/**
 * Why a connection failed, in words that name no address, port or internal detail: the
 * stored error is shown to the endpoint's owner, and a system message (`connect
 * ECONNREFUSED 10.0.0.5:5432`) would map the server's network for them.
 */
const failureOf = (error: NodeJS.ErrnoException): string => {
  const code = error.code ?? ""
  if (code === "ECONNREFUSED") return "connection refused"
  if (code === "ECONNRESET" || code === "EPIPE") return "connection reset"
  if (code === "ETIMEDOUT") return "connection timed out"
  if (["EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"].includes(code))
    return "host unreachable"
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL"))
    return "TLS handshake failed"
  return "connection failed"
}

const post = (r: SendRequest): Effect.Effect<SendResult> =>
  Effect.async<SendResult>((resume) => {
    const secure = r.url.protocol === "https:"
    const mode = r.livemode ? agents.live : agents.test
    const options: http.RequestOptions = {
      method: "POST",
      headers: { ...r.headers, "content-length": String(Buffer.byteLength(r.body)) },
      agent: secure ? mode.https : mode.http,
      lookup: pinned(r.address)
    }
    let settled = false
    let deadline: ReturnType<typeof setTimeout> | undefined
    const finish = (result: SendResult) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      resume(Effect.succeed(result))
    }
    const request = (secure ? https : http).request(r.url, options, (response) => {
      const retryAfter = response.headers["retry-after"] ?? null
      const answer: SendResult = {
        _tag: "Response",
        statusCode: response.statusCode ?? 0,
        retryAfter
      }
      let read = 0
      response.on("data", (chunk: Buffer) => {
        read += chunk.length
        if (read > r.maxResponseBytes) {
          // Enough: the status decides; the rest is not read.
          response.destroy()
          finish(answer)
        }
      })
      response.on("end", () => finish(answer))
      response.on("error", () => finish(answer))
      response.on("close", () => finish(answer))
    })
    request.on("error", (error) => finish({ _tag: "NoResponse", error: failureOf(error) }))
    request.end(r.body)
    // The deadline as a plain timer, not `Effect.timeout`: that races a second fiber and a
    // sleep against every delivery (docs/performance.md "Webhook delivery").
    deadline = setTimeout(() => {
      finish({ _tag: "NoResponse", error: `timed out after ${r.timeoutMs} ms` })
      request.destroy()
    }, r.timeoutMs)
    // On interruption: drop the connection.
    return Effect.sync(() => {
      settled = true
      clearTimeout(deadline)
      request.destroy()
    })
  })

/** Sends `r`; an answer not complete within the deadline counts as no response. */
export const send = (r: SendRequest): Effect.Effect<SendResult> => post(r)

/**
 * One webhook POST over undici (HTTP/1.1, kept-alive connections), to an address the SSRF
 * guard already approved: the connection goes to that address (a pinned `lookup`), never to
 * whatever the name resolves to a moment later, while the Host header, TLS SNI and
 * certificate check keep the URL's name. Redirects are never followed (a dispatched request
 * never follows one), the whole exchange has one deadline, and at most `maxResponseBytes`
 * of the response are read.
 *
 * undici rather than node:http: node's `ClientRequest` (headers, agent, parser, a stream per
 * response) was over half of the dispatcher's CPU (docs/performance.md "Webhook delivery").
 * The request is dispatched with a bare handler, so no response stream is built either.
 */
import type { LookupFunction } from "node:net"
import { Effect } from "effect"
import { type Dispatcher, Pool } from "undici"
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

/** Connections per pool at most: as many as the dispatcher has deliveries in flight by default. */
const CONNECTIONS = 256
/** Pools kept at most; past it the oldest is closed (its requests in flight finish first). */
const MAX_POOLS = 1_000

// Keep-alive pools, one per mode, origin and approved address: a connection opened for a
// test-mode delivery (which may reach loopback) is never reused for a live one, and one
// opened to an address the guard approved earlier is never used for a delivery whose name
// now resolves elsewhere.
const pools = new Map<string, Pool>()

const poolFor = (r: SendRequest): Pool => {
  const key = `${r.livemode ? "live" : "test"} ${r.url.origin} ${r.address.family}/${r.address.address}`
  const found = pools.get(key)
  if (found !== undefined) return found
  if (pools.size >= MAX_POOLS) {
    const [oldestKey, oldest] = pools.entries().next().value!
    pools.delete(oldestKey)
    oldest.close().catch(() => undefined)
  }
  const pool = new Pool(r.url.origin, {
    connections: CONNECTIONS,
    connect: { lookup: pinned(r.address) }
  })
  pools.set(key, pool)
  return pool
}

/**
 * Why a connection failed, in words that name no address, port or internal detail: the
 * stored error is shown to the endpoint's owner, and a system message (`connect
 * ECONNREFUSED 10.0.0.5:5432`) would map the server's network for them.
 */
const failureOf = (error: Error & { readonly code?: unknown }): string => {
  const code = typeof error.code === "string" ? error.code : ""
  if (code === "ECONNREFUSED") return "connection refused"
  // undici's `UND_ERR_SOCKET`: the receiver closed the connection before answering.
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET")
    return "connection reset"
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return "connection timed out"
  if (["EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"].includes(code))
    return "host unreachable"
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL"))
    return "TLS handshake failed"
  return "connection failed"
}

/** The first value of header `name` (lower case) among undici's raw name/value pairs. */
const headerOf = (raw: ReadonlyArray<Buffer>, name: string): string | null => {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i]!
    if (key.length === name.length && key.toString("latin1").toLowerCase() === name) {
      return raw[i + 1]!.toString("latin1")
    }
  }
  return null
}

/** The request's headers: the caller's, plus Basic credentials when the URL carries them (as node:http sent them). */
const headersOf = (r: SendRequest): Record<string, string> => {
  if (r.url.username === "" && r.url.password === "") return { ...r.headers }
  const credentials = `${decodeURIComponent(r.url.username)}:${decodeURIComponent(r.url.password)}`
  return { ...r.headers, authorization: `Basic ${Buffer.from(credentials).toString("base64")}` }
}

/**
 * Sends `r` and calls `onResult` once with the answer (any status) or why there was none,
 * unless cancelled first. Returns the cancel: it drops the connection, or never sends when the
 * request is still waiting for one. A plain callback, not an effect: the dispatcher runs the
 * attempts of a claimed batch side by side in one fiber (docs/performance.md "Webhook
 * delivery").
 */
export const dispatch = (r: SendRequest, onResult: (result: SendResult) => void): (() => void) => {
  let settled = false
  // Set once the request is on a connection; until then a deadline or cancel is carried
  // out by `onConnect`.
  let abort: ((error?: Error) => void) | undefined
  let statusCode = 0
  let retryAfter: string | null = null
  let read = 0
  const finish = (result: SendResult) => {
    if (settled) return
    settled = true
    clearTimeout(deadline)
    onResult(result)
  }
  const answer = (): SendResult => ({ _tag: "Response", statusCode, retryAfter })
  const handler: Dispatcher.DispatchHandlers = {
    onConnect: (abortRequest) => {
      abort = abortRequest
      // Timed out or cancelled while waiting for a connection: never send.
      if (settled) abortRequest()
    },
    onHeaders: (status, headers) => {
      // 1xx are interim: the final status follows.
      if (status >= 200) {
        statusCode = status
        retryAfter = headerOf(headers, "retry-after")
      }
      return true
    },
    onData: (chunk) => {
      read += chunk.length
      if (read > r.maxResponseBytes) {
        // Enough: the status decides; the rest is not read (aborting drops the connection).
        finish(answer())
        abort?.()
      }
      return true
    },
    onComplete: () => finish(answer()),
    // A status already received stands (the body broke off); else there was no answer.
    onError: (error) =>
      finish(statusCode !== 0 ? answer() : { _tag: "NoResponse", error: failureOf(error) })
  }
  // The deadline as a plain timer, not `Effect.timeout`: that races a second fiber and a
  // sleep against every delivery (docs/performance.md "Webhook delivery").
  const deadline = setTimeout(() => {
    finish({ _tag: "NoResponse", error: `timed out after ${r.timeoutMs} ms` })
    abort?.()
  }, r.timeoutMs)
  poolFor(r).dispatch(
    {
      origin: r.url.origin,
      path: `${r.url.pathname}${r.url.search}`,
      method: "POST",
      headers: headersOf(r),
      body: r.body
    },
    handler
  )
  return () => {
    settled = true
    clearTimeout(deadline)
    abort?.()
  }
}

/** Sends `r`; an answer not complete within the deadline counts as no response. */
export const send = (r: SendRequest): Effect.Effect<SendResult> =>
  Effect.async<SendResult>((resume) => {
    const cancel = dispatch(r, (result) => resume(Effect.succeed(result)))
    // On interruption: drop the connection (or never send, when not yet on one).
    return Effect.sync(cancel)
  })

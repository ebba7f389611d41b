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
import { Effect, Either } from "effect"
import { type Dispatcher, Pool } from "undici"
import { type Address, authorizationOf } from "../webhookEndpoints/UrlGuard.js"

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

/** Where requests go: one URL at one approved address in one mode (`routeOf`). */
export interface Route {
  readonly pool: Pool
  readonly origin: string
  readonly path: string
  /** Basic credentials from the URL, as node:http sent them; null when it has none. */
  readonly authorization: string | null
}

/** One request on a route. */
export interface Message {
  /** Header names and values, alternately (undici's flat form). */
  readonly headers: ReadonlyArray<string>
  readonly body: string
  readonly timeoutMs: number
  readonly maxResponseBytes: number
}

/** The receiver's answer (any status), or why there was none. */
export type SendResult =
  | { readonly _tag: "Response"; readonly statusCode: number; readonly retryAfter: string | null }
  | { readonly _tag: "NoResponse"; readonly error: string }

/** No request made: `why` the URL cannot be sent to. */
export const unsendable = (why: string): Extract<SendResult, { _tag: "NoResponse" }> => ({
  _tag: "NoResponse",
  error: `not sent: ${why}`
})

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

const poolFor = (url: URL, address: Address, livemode: boolean): Pool => {
  const key = `${livemode ? "live" : "test"} ${url.origin} ${address.family}/${address.address}`
  const found = pools.get(key)
  if (found !== undefined) return found
  if (pools.size >= MAX_POOLS) {
    const [oldestKey, oldest] = pools.entries().next().value!
    pools.delete(oldestKey)
    oldest.close().catch(() => undefined)
  }
  const pool = new Pool(url.origin, {
    connections: CONNECTIONS,
    connect: { lookup: pinned(address) }
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

/**
 * The route to `url` at `address`: worked out once for the deliveries a dispatcher sends
 * together to one endpoint, not per request. Left, saying why, when the URL cannot be sent
 * to as it is (credentials that do not decode): the guard refuses such a URL, but one stored
 * before it did must still end its attempt, recorded, rather than throw.
 */
export const routeOf = (
  url: URL,
  address: Address,
  livemode: boolean
): Either.Either<Route, string> => {
  const authorization = authorizationOf(url)
  if (authorization === undefined) {
    return Either.left("the URL's user name or password is not valid percent-encoding")
  }
  return Either.right({
    pool: poolFor(url, address, livemode),
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    authorization
  })
}

/**
 * One request in flight: undici's handler, the deadline and the cancel in one object, its
 * steps methods rather than closures made per request (the dispatcher sends thousands a
 * second: docs/performance.md "Webhook delivery").
 */
class Exchange implements Dispatcher.DispatchHandlers {
  private settled = false
  // Set once the request is on a connection; until then a deadline or cancel is carried
  // out by `onConnect`.
  private abort: ((error?: Error) => void) | undefined = undefined
  private statusCode = 0
  private retryAfter: string | null = null
  private read = 0
  private readonly deadline: ReturnType<typeof setTimeout>

  constructor(
    private readonly message: Message,
    private readonly onResult: (result: SendResult) => void
  ) {
    // The deadline as a plain timer, not `Effect.timeout`: that races a second fiber and a
    // sleep against every delivery (docs/performance.md "Webhook delivery").
    this.deadline = setTimeout(timedOut, message.timeoutMs, this)
  }

  private finish(result: SendResult) {
    if (this.settled) return
    this.settled = true
    clearTimeout(this.deadline)
    this.onResult(result)
  }

  private answer(): SendResult {
    return { _tag: "Response", statusCode: this.statusCode, retryAfter: this.retryAfter }
  }

  /** No complete answer within the deadline. */
  expire() {
    this.finish({ _tag: "NoResponse", error: `timed out after ${this.message.timeoutMs} ms` })
    this.abort?.()
  }

  /** Drops the connection, or never sends when the request is still waiting for one. */
  cancel() {
    this.settled = true
    clearTimeout(this.deadline)
    this.abort?.()
  }

  onConnect(abortRequest: (error?: Error) => void) {
    this.abort = abortRequest
    // Timed out or cancelled while waiting for a connection: never send.
    if (this.settled) abortRequest()
  }

  onHeaders(status: number, headers: Array<Buffer>) {
    // 1xx are interim: the final status follows.
    if (status >= 200) {
      this.statusCode = status
      this.retryAfter = headerOf(headers, "retry-after")
    }
    return true
  }

  onData(chunk: Buffer) {
    this.read += chunk.length
    if (this.read > this.message.maxResponseBytes) {
      // Enough: the status decides; the rest is not read (aborting drops the connection).
      this.finish(this.answer())
      this.abort?.()
    }
    return true
  }

  onComplete() {
    this.finish(this.answer())
  }

  // A status already received stands (the body broke off); else there was no answer.
  onError(error: Error) {
    this.finish(
      this.statusCode !== 0 ? this.answer() : { _tag: "NoResponse", error: failureOf(error) }
    )
  }
}

const timedOut = (exchange: Exchange) => exchange.expire()

/** What a caller may do with a request in flight. */
export interface InFlight {
  /** Drops the connection, or never sends when the request is still waiting for one. */
  readonly cancel: () => void
}

/**
 * Sends `message` on `route` and calls `onResult` once with the answer (any status) or why
 * there was none, unless cancelled first. A plain callback, not an effect: the dispatcher
 * runs the attempts of a claimed batch side by side in one fiber (docs/performance.md
 * "Webhook delivery").
 */
export const dispatch = (
  route: Route,
  message: Message,
  onResult: (result: SendResult) => void
): InFlight => {
  const exchange = new Exchange(message, onResult)
  route.pool.dispatch(
    {
      origin: route.origin,
      path: route.path,
      method: "POST",
      headers:
        route.authorization === null
          ? (message.headers as Array<string>)
          : [...message.headers, "authorization", route.authorization],
      body: message.body
    },
    exchange
  )
  return exchange
}

/** Sends `r`; an answer not complete within the deadline counts as no response. */
export const send = (r: SendRequest): Effect.Effect<SendResult> =>
  Effect.async<SendResult>((resume) => {
    const headers: Array<string> = []
    for (const [name, value] of Object.entries(r.headers)) headers.push(name, value)
    const route = routeOf(r.url, r.address, r.livemode)
    if (Either.isLeft(route)) return resume(Effect.succeed(unsendable(route.left)))
    const inFlight = dispatch(
      route.right,
      { headers, body: r.body, timeoutMs: r.timeoutMs, maxResponseBytes: r.maxResponseBytes },
      (result) => resume(Effect.succeed(result))
    )
    // On interruption: drop the connection (or never send, when not yet on one).
    return Effect.sync(() => inFlight.cancel())
  })

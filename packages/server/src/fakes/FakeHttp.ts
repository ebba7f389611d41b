/**
 * What every fake processor shares: a node:http server on 127.0.0.1 (port 0), each request's
 * body read whole, JSON answers, and the processor's idempotency store (the first answer
 * to a key is replayed; a key reused for a different request is the processor's own error).
 */
import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** One request as a fake sees it. */
export interface FakeRequest {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

/** One answer: a status, a JSON body, extra headers. */
export interface FakeResponse {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/** A listening fake: its base URL and how to stop it. */
export interface Listening {
  readonly url: string
  readonly close: () => Promise<void>
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const send = (res: ServerResponse, answer: FakeResponse) => {
  const text = JSON.stringify(answer.body)
  res.writeHead(answer.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...answer.headers
  })
  res.end(text)
}

/** Serves `handle` on 127.0.0.1 at `port` (0: any free port). */
export const listen = async (
  handle: (request: FakeRequest) => FakeResponse,
  port = 0
): Promise<Listening> => {
  const server = createServer((req, res) => {
    readBody(req).then(
      (body) => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1")
        const request = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body
        }
        let answer: FakeResponse
        try {
          answer = handle(request)
        } catch (error) {
          answer = { status: 500, body: { error: String(error) } }
        }
        send(res, answer)
      },
      () => res.destroy()
    )
  })
  // A port in use fails the start (`levy fake --port N` says so), not the process.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const { port: bound } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** A processor-style id: `prefix` then random letters and digits. */
export const fakeId = (prefix: string, length = 24): string => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
  const bytes = randomBytes(length)
  let id = prefix
  for (const byte of bytes) id += alphabet[byte % alphabet.length]
  return id
}

/** The header `name` of a request as one string, if sent. */
export const header = (request: FakeRequest, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

/** JSON with object keys sorted, so two equal requests compare equal however they were built. */
export const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))
        )
      : v
  )

/** A stored first answer to an idempotency key, with what the request was. */
interface Stored {
  readonly fingerprint: string
  readonly response: FakeResponse
}

/**
 * The idempotency store: `run` executes a request once per key; a retry with the same key
 * gets the stored answer (`replayed`), a retry whose `fingerprint` differs gets `conflict`.
 */
export const idempotencyStore = () => {
  const stored = new Map<string, Stored>()
  return {
    run: (
      key: string | undefined,
      fingerprint: string,
      execute: () => FakeResponse,
      replayed: (response: FakeResponse) => FakeResponse,
      conflict: (key: string) => FakeResponse
    ): FakeResponse => {
      if (key === undefined) return execute()
      const first = stored.get(key)
      if (first !== undefined) {
        return first.fingerprint === fingerprint ? replayed(first.response) : conflict(key)
      }
      const response = execute()
      stored.set(key, { fingerprint, response })
      return response
    },
    /** Forgets every key, as a processor does once its key window has passed. */
    forget: () => stored.clear()
  }
}

/** POSTs a notification to `url`: the status and body Levy answered. */
export const postNotification = async (
  url: string,
  rawBody: string,
  headers: Readonly<Record<string, string>>
): Promise<{ readonly status: number; readonly body: string }> => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: rawBody
  })
  return { status: response.status, body: await response.text() }
}

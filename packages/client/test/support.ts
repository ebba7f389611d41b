/**
 * Servers the client's tests talk to: the real Levy server (from the server's test support),
 * and small raw node:http servers for what the real one will not do on demand: never answer,
 * answer with a fixed status, or forward to the real server and drop the first response.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export {
  KEYS,
  KEYS_WITH_APPROVER,
  LIVE_APPROVER,
  LIVE_SECRET,
  memoryStore,
  PUBLISHABLE,
  SECRET,
  start,
  startWithStore,
  WINDOW
} from "../../server/test/support.js"

/** A raw server on an ephemeral port; `requests` records what it received. */
export interface RawServer {
  readonly url: string
  readonly requests: Array<{ method: string; url: string; headers: IncomingMessage["headers"] }>
  readonly close: () => Promise<void>
}

const listen = async (
  handle: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void
): Promise<RawServer> => {
  const requests: RawServer["requests"] = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers })
      handle(req, res, Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Accepts requests and never answers them. */
export const silent = () => listen(() => undefined)

/** Answers every request with `status` and the API's error body of `type`/`code`. */
export const fixed = (
  status: number,
  error: { type: string; code: string; message: string },
  headers: Record<string, string> = {}
) =>
  listen((_req, res) => {
    res.writeHead(status, {
      "content-type": "application/json",
      "request-id": "req_fixed",
      ...headers
    })
    res.end(JSON.stringify({ error }))
  })

/**
 * Forwards every request to `target`; the first `drop` responses are read from the target
 * (so the server has done the work) and then the connection is destroyed instead of answering:
 * the client sees a network error after the write happened.
 */
export const dropping = (target: string, drop: number) => {
  let dropped = 0
  return listen((req, res, body) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && name !== "host" && name !== "content-length") {
        headers.set(name, value)
      }
    }
    const forward = fetch(`${target}${req.url}`, {
      method: req.method ?? "GET",
      headers,
      ...(body.length === 0 ? {} : { body })
    })
    void forward.then(async (answer) => {
      const text = await answer.text()
      if (dropped < drop) {
        dropped++
        res.destroy()
        return
      }
      const out: Record<string, string> = {}
      answer.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "transfer-encoding" && name !== "connection") {
          out[name] = value
        }
      })
      res.writeHead(answer.status, out)
      res.end(text)
    })
  })
}

/** An address where nothing listens: a port taken and released again. */
export const refusedUrl = async (): Promise<string> => {
  const server = await listen(() => undefined)
  await server.close()
  return server.url
}

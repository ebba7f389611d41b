/**
 * The checkout's backend on node:http: the page and its script (`public/`), what the page
 * quotes for (`GET /config.json`: the order and the publishable key), and `POST /pay`. With
 * Levy in this process its `/v1` API is mounted under `/levy`, so the page calls Levy on its own
 * origin; a Levy elsewhere works as well, since its API answers any origin (docs/server.md
 * "Browsers") and the page's Content-Security-Policy names that origin.
 */
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Levy } from "@levy/client"
import { type External, type InProcess, inProcess } from "./levy.js"
import { defaultOrder, forPage, type Order } from "./order.js"
import { type Answer, pay } from "./pay.js"

export interface Options {
  /** 0 (the default): any free port. */
  readonly port?: number
  readonly host?: string
  readonly order?: Order
  /** A Levy server to use; by default Levy runs in this process under `/levy`. */
  readonly levy?: External
}

export interface Checkout {
  readonly url: string
  /** The Levy the page and the backend call, and the account's test keys. */
  readonly levy: External
  readonly close: () => Promise<void>
}

const LEVY_PREFIX = "/levy"
/** A page sends a card and a quote id; Adyen's encrypted card fields are the largest source. */
const MAX_BODY_BYTES = 64 * 1024

const PUBLIC = new URL("../public/", import.meta.url)
const files: Record<string, { readonly type: string; readonly name: string }> = {
  "/": { type: "text/html; charset=utf-8", name: "index.html" },
  "/checkout.js": { type: "text/javascript; charset=utf-8", name: "checkout.js" },
  "/checkout.css": { type: "text/css; charset=utf-8", name: "checkout.css" }
}

const send = (response: ServerResponse, answer: Answer) => {
  response.writeHead(answer.status, { "content-type": "application/json; charset=utf-8" })
  response.end(JSON.stringify(answer.body))
}

const refusal = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error: { type: "invalid_request_error", code, message, param: null } }
})

/** The request's JSON body, or the refusal of it. */
const readJson = async (request: IncomingMessage): Promise<{ json: unknown } | Answer> => {
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES)
      return refusal(413, "payload_too_large", `the body is over ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk)
  }
  try {
    return { json: JSON.parse(Buffer.concat(chunks).toString("utf8")) }
  } catch {
    return refusal(400, "body_invalid", "the body must be JSON")
  }
}

interface Context {
  readonly order: Order
  readonly local: InProcess | undefined
  /** The Levy the page calls: this origin's `/levy`, or the other server's address. */
  readonly pageLevyUrl: string
  readonly publishableKey: string
  /** The backend's client, with the secret key. */
  readonly levy: Levy
  readonly csp: string
  readonly pages: Record<string, { readonly type: string; readonly body: Buffer }>
}

const handle = async (ctx: Context, request: IncomingMessage, response: ServerResponse) => {
  const path = (request.url ?? "/").split("?")[0] ?? "/"
  if (ctx.local !== undefined && (path === LEVY_PREFIX || path.startsWith(`${LEVY_PREFIX}/`))) {
    request.url = (request.url ?? "").slice(LEVY_PREFIX.length) || "/"
    return ctx.local.mounted.listener(request, response)
  }
  const page = ctx.pages[path]
  if (page !== undefined && request.method === "GET") {
    response.writeHead(200, {
      "content-type": page.type,
      "cache-control": "no-cache",
      "content-security-policy": ctx.csp,
      "x-content-type-options": "nosniff"
    })
    return response.end(page.body)
  }
  if (path === "/config.json" && request.method === "GET") {
    return send(response, {
      status: 200,
      body: {
        publishableKey: ctx.publishableKey,
        levyUrl: ctx.pageLevyUrl,
        order: forPage(ctx.order)
      }
    })
  }
  if (path === "/pay" && request.method === "POST") {
    const body = await readJson(request)
    return send(response, "json" in body ? await pay(ctx.levy, ctx.order, body.json) : body)
  }
  return send(response, refusal(404, "resource_missing", `no ${request.method} ${path} here`))
}

/** Scripts, styles and requests from this origin, and requests to Levy's. */
const policy = (levyUrl: string) =>
  [
    "default-src 'self'",
    `connect-src 'self' ${new URL(levyUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

const readPages = () =>
  Object.fromEntries(
    Object.entries(files).map(([path, file]) => [
      path,
      { type: file.type, body: readFileSync(new URL(file.name, PUBLIC)) }
    ])
  )

/** Starts the backend (and Levy, unless `options.levy` names one). */
export const startCheckout = async (options: Options = {}): Promise<Checkout> => {
  const local = options.levy === undefined ? await inProcess() : undefined
  const server = createServer()
  await new Promise<void>((ready) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", ready)
  )
  const { address, port } = server.address() as AddressInfo
  const url = `http://${address.includes(":") ? `[${address}]` : address}:${port}`
  const levy: External = options.levy ?? {
    url: `${url}${LEVY_PREFIX}`,
    secretKey: local!.secretKey,
    publishableKey: local!.publishableKey
  }
  const ctx: Context = {
    order: options.order ?? defaultOrder,
    local,
    pageLevyUrl: local === undefined ? levy.url : LEVY_PREFIX,
    publishableKey: levy.publishableKey,
    levy: new Levy(levy.secretKey, { baseUrl: levy.url }),
    csp: policy(levy.url),
    pages: readPages()
  }
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    handle(ctx, request, response).catch((error: unknown) => {
      console.error(error)
      if (response.headersSent) return response.destroy()
      send(response, {
        status: 500,
        body: { error: { type: "api_error", code: "internal_error", message: "internal error" } }
      })
    })
  })
  return {
    url,
    levy,
    close: async () => {
      await new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
      await local?.mounted.close()
    }
  }
}

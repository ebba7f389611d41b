/**
 * Webhook test helpers: a real HTTP receiver on 127.0.0.1 that records every request and
 * answers as the test says; an independent signature check (node:crypto, written from the
 * header format `t=<s>,v1=<hex HMAC-SHA256("<t>.<raw body>")>`, never the code under test);
 * a dispatcher run in its own fiber over a server's store; and a bounded wait.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import * as Dispatcher from "@levy/engine/webhookDeliveries/Dispatcher.js"
import { type DispatcherConfig, defaults } from "@levy/engine/webhookDeliveries/DispatcherConfig.js"
import { Wake } from "@levy/engine/webhookDeliveries/Wake.js"
import { LoopbackTargets } from "@levy/engine/webhookEndpoints/LoopbackTargets.js"
import type { Ids, Storage, Tenant, WebhookDelivery } from "@levy/storage"
import { type Context, Effect, Fiber, Layer } from "effect"

/** A request the receiver got. */
export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** Date.now() when it arrived. */
  readonly at: number
}

/** How to answer: a status (and headers), or hang (never answer) until the client gives up. */
export type Answer =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly body?: string }
  | "hang"

export interface Receiver {
  readonly url: string
  readonly received: Array<Received>
  close: () => Promise<void>
}

/** Starts a receiver; `answer` decides each reply (called in arrival order). */
export const receiver = async (
  answer: (request: Received) => Answer = () => ({ status: 200 })
): Promise<Receiver> => {
  const received: Array<Received> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const request: Received = {
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now()
      }
      received.push(request)
      const reply = answer(request)
      if (reply === "hang") return
      res.writeHead(reply.status, reply.headers)
      res.end(reply.body ?? "")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** The header's timestamp and v1 MACs, parsed from the documented format. */
export const parseSignature = (header: string) => {
  const parts = header.split(",").map((p) => p.split("=") as [string, string])
  const t = parts.filter(([k]) => k === "t").map(([, v]) => Number(v))
  const v1 = parts.filter(([k]) => k === "v1").map(([, v]) => v)
  if (t.length !== 1 || v1.length === 0) throw new Error(`bad signature header: ${header}`)
  return { t: t[0]!, v1 }
}

/** Whether some v1 entry is HMAC-SHA256(secret, "<t>.<body>"), computed here independently. */
export const signedWith = (request: Received, secret: string): boolean => {
  const { t, v1 } = parseSignature(String(request.headers["service-signature"]))
  const expected = createHmac("sha256", secret).update(`${t}.${request.body}`).digest()
  return v1.some((hex) => {
    const given = Buffer.from(hex, "hex")
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}

/** The test schedule: every duration in milliseconds rather than minutes. */
export const FAST: DispatcherConfig = {
  ...defaults,
  pollIntervalMs: 50,
  concurrency: 16,
  batchSize: 50,
  timeoutMs: 1_000,
  leaseMs: 5_000,
  retry: { ...defaults.retry, initialDelayMs: 50, maxDelayMs: 200, giveUpAfterMs: 60_000 }
}

/** A dispatcher running over a store's context until `stop` (an interrupt: leases stay). */
export const runDispatcher = (
  context: Context.Context<Storage.Repositories | Ids>,
  config: Partial<DispatcherConfig> = {}
) => {
  const fiber = Effect.runFork(
    Dispatcher.run({ ...FAST, ...config }).pipe(
      Effect.provide(Layer.merge(Wake.layer, Layer.succeedContext(context))),
      // The receivers run on this machine: a development server's setting.
      Effect.provideService(LoopbackTargets, true)
    )
  )
  return { stop: () => Effect.runPromise(Fiber.interrupt(fiber)).then(() => undefined) }
}

/** Delivery `wd_<i>` of event `evt_<i>` to `endpointId`, pending and never attempted. */
export const pendingDelivery = (
  tenant: Tenant.Tenant,
  endpointId: string,
  i: number,
  created = 0
): WebhookDelivery => ({
  id: `wd_${i}`,
  ...tenant,
  endpointId,
  eventId: `evt_${i}`,
  status: "pending",
  attempts: 0,
  attemptsAtQueue: 0,
  nextAttemptAtMs: 0,
  leaseOwner: null,
  leaseExpiresAtMs: null,
  created
})

/** Waits until `check` holds (polling), failing with `what` after `timeoutMs`. */
export const eventually = async (
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000
): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * The webhook endpoint: a node:http server that reads the raw body, verifies the
 * `service-signature` header with the endpoint's signing secret before trusting anything,
 * answers 400 when it is missing or wrong, and 200 once the event is recorded (also for a
 * duplicate, so Levy stops retrying it).
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import { verifyWebhook, WebhookVerificationError } from "@levy/client"
import type { Ledger } from "./Ledger.js"

const rawBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

/** The receiver for `secret` (whsec_…), writing into `ledger`. */
export const createReceiver = (secret: string, ledger: Ledger): Server =>
  createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    }
    if (req.method !== "POST") return reply(405, { error: "POST only" })
    try {
      // the raw bytes: parsing and re-serializing JSON would change what was signed
      const body = await rawBody(req)
      const event = await verifyWebhook(
        body,
        req.headers["service-signature"] as string | undefined,
        secret
      )
      const applied = ledger.apply(event)
      reply(200, { received: true, duplicate: !applied })
    } catch (error) {
      if (error instanceof WebhookVerificationError) return reply(400, { error: error.reason })
      reply(500, { error: "internal" })
    }
  })

/** A webhook receiver on 127.0.0.1 that records every delivery (and always answers 200). */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface Delivery {
  readonly webhookId: string
  readonly eventId: string
  readonly objectId: string
}

export interface Receiver {
  readonly url: string
  readonly received: Array<Delivery>
  close: () => Promise<void>
}

export const receiver = async (): Promise<Receiver> => {
  const received: Array<Delivery> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        id: string
        data: { object: { id: string } }
      }
      received.push({
        webhookId: String(req.headers["webhook-id"]),
        eventId: body.id,
        objectId: body.data.object.id
      })
      res.writeHead(200)
      res.end()
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}

/** Waits until `check` holds, polling; throws with `what` after `timeoutMs`. */
export const eventually = async (
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000
): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

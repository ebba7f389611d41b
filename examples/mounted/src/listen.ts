/** Starts one of the three apps on `port` (0: any free port) at 127.0.0.1 by default. */
import type { AddressInfo } from "node:net"
import { serve } from "@hono/node-server"
import type { MountedLevy } from "@levy/server"
import * as ExpressApp from "./express.js"
import * as FastifyApp from "./fastify.js"
import * as HonoApp from "./hono.js"

export const frameworks = ["express", "fastify", "hono"] as const
export type Framework = (typeof frameworks)[number]

export interface Listening {
  readonly url: string
  readonly close: () => Promise<void>
}

const urlOf = (address: AddressInfo | string | null) => {
  if (address === null || typeof address === "string") throw new Error("expected a TCP address")
  return `http://${address.address}:${address.port}`
}

export const listen = async (
  framework: Framework,
  levy: MountedLevy,
  port = 0,
  host = "127.0.0.1"
): Promise<Listening> => {
  switch (framework) {
    case "express": {
      const server = ExpressApp.app(levy).listen(port, host)
      await new Promise<void>((ready) => server.once("listening", ready))
      return {
        url: urlOf(server.address()),
        close: () => new Promise((done) => server.close(() => done()))
      }
    }
    case "fastify": {
      const app = FastifyApp.app(levy)
      await app.listen({ port, host })
      return { url: urlOf(app.server.address()), close: () => app.close() }
    }
    case "hono": {
      const server = serve({ fetch: HonoApp.app(levy).fetch, port, hostname: host })
      await new Promise<void>((ready) => server.once("listening", ready))
      return {
        url: urlOf(server.address()),
        close: () => new Promise((done) => server.close(() => done()))
      }
    }
  }
}

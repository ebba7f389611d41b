/**
 * What a failed delivery records (issue 16 item 5): the failure in words, never the system's
 * message with the address and port it tried, which an endpoint's owner reads back.
 */
import { createServer, type Socket } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Sender from "../src/webhooks/Sender.js"

/** A port nothing listens on: bound, then closed. */
const closedPort = () =>
  new Promise<number>((done) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => done(port))
    })
  })

describe("Sender", () => {
  it("a refused connection is recorded as 'connection refused', without the address or port", async () => {
    const port = await closedPort()
    const result = await Effect.runPromise(
      Sender.send({
        url: new URL(`http://127.0.0.1:${port}/hook`),
        address: { address: "127.0.0.1", family: 4 },
        headers: {},
        body: "{}",
        timeoutMs: 5_000,
        maxResponseBytes: 1024,
        livemode: false
      })
    )
    expect(result).toStrictEqual({ _tag: "NoResponse", error: "connection refused" })
  })

  it("an answer that does not come within the deadline is 'timed out', and the connection is dropped", async () => {
    // A receiver that reads the request and never answers.
    const sockets: Array<Socket> = []
    const silent = createServer((socket) => {
      sockets.push(socket)
      socket.resume()
    })
    await new Promise<void>((done) => silent.listen(0, "127.0.0.1", done))
    const address = silent.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    const closed = new Promise<void>((done) => {
      silent.on("connection", (socket) => socket.on("close", () => done()))
    })
    try {
      const result = await Effect.runPromise(
        Sender.send({
          url: new URL(`http://127.0.0.1:${port}/hook`),
          address: { address: "127.0.0.1", family: 4 },
          headers: {},
          body: "{}",
          timeoutMs: 100,
          maxResponseBytes: 1024,
          livemode: false
        })
      )
      expect(result).toStrictEqual({ _tag: "NoResponse", error: "timed out after 100 ms" })
      // The sender hung up: the receiver's socket closes without the receiver closing it.
      await closed
    } finally {
      for (const socket of sockets) socket.destroy()
      silent.close()
    }
  })
})

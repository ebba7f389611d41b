/**
 * What a failed delivery records: the failure in words, never the system's
 * message with the address and port it tried, which an endpoint's owner reads back.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse
} from "node:http"
import { createServer, type Socket } from "node:net"
import { createServer as createTlsServer } from "node:tls"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Sender from "../src/webhookDeliveries/Sender.js"

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

/** Where a server listens on loopback. */
const portOf = (server: { address: () => unknown }) => {
  const address = server.address()
  return typeof address === "object" && address !== null && "port" in address
    ? Number(address.port)
    : 0
}

/** An HTTP receiver on loopback answering with `answer`; what it saw, and how many connections. */
const receiver = async (answer: (req: IncomingMessage, res: ServerResponse) => void) => {
  const seen: Array<{ host: string | undefined; url: string | undefined; body: string }> = []
  let connections = 0
  const server = createHttpServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString()
    })
    req.on("end", () => {
      seen.push({ host: req.headers.host, url: req.url, body })
      answer(req, res)
    })
  })
  server.on("connection", () => {
    connections++
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  return {
    port: portOf(server),
    seen,
    connections: () => connections,
    close: () => {
      server.closeAllConnections()
      server.close()
    }
  }
}

/** A POST of `body` to `url`, connecting to 127.0.0.1 whatever the URL's host. */
const toLoopback = (url: string, overrides: Partial<Sender.SendRequest> = {}) =>
  Effect.runPromise(
    Sender.send({
      url: new URL(url),
      address: { address: "127.0.0.1", family: 4 },
      headers: { "content-type": "application/json" },
      body: '{"id":"evt_1"}',
      timeoutMs: 5_000,
      maxResponseBytes: 1024,
      livemode: false,
      ...overrides
    })
  )

/** A self-signed certificate for `receiver.invalid` (valid until 2126), which no client trusts. */
const SELF_SIGNED = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgZEHFRpNb9mqt3KDi
gCLmzNOEeJKpxNnRkPKLH0SIR+qhRANCAAS3kv2DCLmKnN8/OxsCMVo4s8hjzft6
4hzNJjNiL0xl93IMZ+dOWyhNVUMphk+B4PlsAB3eZXGLmRXG2VxGYXiY
-----END PRIVATE KEY-----`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBqjCCAVCgAwIBAgIUKaxp0Sf3CDlYC2aRVK5pV2mZR+EwCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQcmVjZWl2ZXIuaW52YWxpZDAgFw0yNjExMjQyMTQ3NTBaGA8y
MTI2MTAzMTIxNDc1MFowGzEZMBcGA1UEAwwQcmVjZWl2ZXIuaW52YWxpZDBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABLeS/YMIuYqc3z87GwIxWjizyGPN+3riHM0m
M2IvTGX3cgxn505bKE1VQymGT4Hg+WwAHd5lcYuZFcbZXEZheJijcDBuMB0GA1Ud
DgQWBBQlwG9xMMXLxDgAtRJzU/xSrNWq7DAfBgNVHSMEGDAWgBQlwG9xMMXLxDgA
tRJzU/xSrNWq7DAPBgNVHRMBAf8EBTADAQH/MBsGA1UdEQQUMBKCEHJlY2VpdmVy
LmludmFsaWQwCgYIKoZIzj0EAwIDSAAwRQIgZUmeGXpSNGW1ixrTOmny9johxKku
pVHNA5jdQV77gjkCIQDtjijLJjkikwsvnMBtSKkB1cR6YjSWBaYGuJVh9dKQ6w==
-----END CERTIFICATE-----`
}

describe("Sender", () => {
  it("connects to the approved address while the Host header keeps the URL's name", async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end())
    try {
      // `receiver.invalid` resolves nowhere: only the pinned address can be reached.
      const result = await toLoopback(`http://receiver.invalid:${r.port}/hook?x=1`)
      expect(result).toStrictEqual({ _tag: "Response", statusCode: 204, retryAfter: null })
      expect(r.seen).toStrictEqual([
        { host: `receiver.invalid:${r.port}`, url: "/hook?x=1", body: '{"id":"evt_1"}' }
      ])
    } finally {
      r.close()
    }
  })

  it("credentials in the URL are sent as Basic authorization, the caller's headers with them", async () => {
    const seen: Array<{
      authorization?: string | undefined
      signature?: string | string[] | undefined
    }> = []
    const r = await receiver((req, res) => {
      seen.push({ authorization: req.headers.authorization, signature: req.headers["x-sig"] })
      res.writeHead(200).end()
    })
    try {
      const result = await toLoopback(`http://us%20er:p%40ss@creds.invalid:${r.port}/hook`, {
        headers: { "x-sig": "t=1,v1=ab" }
      })
      expect(result).toStrictEqual({ _tag: "Response", statusCode: 200, retryAfter: null })
      expect(seen).toStrictEqual([
        {
          authorization: `Basic ${Buffer.from("us er:p@ss").toString("base64")}`,
          signature: "t=1,v1=ab"
        }
      ])
    } finally {
      r.close()
    }
  })

  it("credentials that do not decode: no request, and an answer saying why (no throw)", async () => {
    // The second security review, item 8: decodeURIComponent threw inside the sender.
    const r = await receiver((_req, res) => res.writeHead(200).end())
    try {
      const result = await toLoopback(`http://%zz@creds.invalid:${r.port}/hook`)
      expect(result).toStrictEqual({
        _tag: "NoResponse",
        error: "not sent: the URL's user name or password is not valid percent-encoding"
      })
      expect(r.seen).toStrictEqual([])
    } finally {
      r.close()
    }
  })

  it("a redirect is answered, not followed; Retry-After is read", async () => {
    const r = await receiver((req, res) => {
      if (req.url === "/hook") res.writeHead(307, { location: "/elsewhere", "retry-after": "7" })
      else res.writeHead(200)
      res.end()
    })
    try {
      const result = await toLoopback(`http://127.0.0.1:${r.port}/hook`)
      expect(result).toStrictEqual({ _tag: "Response", statusCode: 307, retryAfter: "7" })
      expect(r.seen.map((s) => s.url)).toStrictEqual(["/hook"])
    } finally {
      r.close()
    }
  })

  it("a response longer than maxResponseBytes is cut off: its status stands", async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(503)
      // Never ends on its own: only the sender's cut-off finishes the exchange in time.
      res.write("x".repeat(64 * 1024))
    })
    try {
      const result = await toLoopback(`http://127.0.0.1:${r.port}/hook`, {
        maxResponseBytes: 1024,
        timeoutMs: 60_000
      })
      expect(result).toStrictEqual({ _tag: "Response", statusCode: 503, retryAfter: null })
    } finally {
      r.close()
    }
  })

  it("test-mode and live-mode deliveries never share a connection", async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end())
    try {
      // A host of its own, so no earlier test's pool is in play.
      const url = `http://modes.invalid:${r.port}/hook`
      for (const livemode of [false, false, true, true]) {
        const result = await toLoopback(url, { livemode })
        expect(result).toStrictEqual({ _tag: "Response", statusCode: 200, retryAfter: null })
        // The connection is back in its pool once undici is done with it, just after the answer.
        await new Promise((done) => setImmediate(done))
      }
      // One kept-alive connection per mode.
      expect(r.connections()).toBe(2)
    } finally {
      r.close()
    }
  })

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

  it("over TLS the URL's name is sent as SNI and the certificate is checked against it", async () => {
    const names: Array<string> = []
    const server = createTlsServer({
      ...SELF_SIGNED,
      SNICallback: (name, done) => {
        names.push(name)
        done(null)
      }
    })
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
    try {
      const result = await toLoopback(`https://receiver.invalid:${portOf(server)}/hook`)
      // Pinned to 127.0.0.1, yet SNI names the URL's host; the self-signed certificate fails.
      expect(result).toStrictEqual({ _tag: "NoResponse", error: "TLS handshake failed" })
      expect(names).toStrictEqual(["receiver.invalid"])
    } finally {
      server.close()
    }
  })
})

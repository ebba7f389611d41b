/** Raw TCP clients for what fetch cannot do: oversized bodies, slow drips, idle connections. */
import { connect, type Socket } from "node:net"

export const open = (port: number): Promise<Socket> =>
  new Promise((done, fail) => {
    const socket = connect(port, "127.0.0.1", () => done(socket))
    socket.once("error", fail)
  })

/** The status line's code of what the server sent, if anything. */
export const statusOf = (received: string): number | undefined => {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(received)
  return m ? Number(m[1]) : undefined
}

/**
 * Sends a request whose `Content-Length` says `bytes`, in 64 KiB chunks, as fast as the
 * server reads: stops when an answer arrives or the socket closes. Returns the status and
 * how many body bytes went out.
 */
export const oversized = async (port: number, path: string, key: string, bytes: number) => {
  const socket = await open(port)
  let received = ""
  let ended = false
  socket.on("data", (c: Buffer) => {
    received += c.toString("latin1")
  })
  const closed = new Promise<void>((done) => {
    socket.on("close", () => {
      ended = true
      done()
    })
    socket.on("error", () => {
      ended = true
    })
  })
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${bytes}\r\n\r\n`
  )
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  let sent = 0
  // A server that trusts Content-Length answers before the body: give it a moment, so its
  // answer is not lost to a reset while we are still writing.
  for (let i = 0; i < 50 && received === "" && !ended; i++) {
    await new Promise((r) => setTimeout(r, 20))
  }
  while (sent < bytes && received === "" && !ended) {
    const n = Math.min(chunk.length, bytes - sent)
    const flushed = socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))
    sent += n
    if (!flushed) {
      // Wait for the server to read on, or to answer (then it stopped reading).
      await new Promise<void>((done) => {
        const poll = setInterval(() => {
          if (received !== "" || ended) {
            clearInterval(poll)
            done()
          }
        }, 20)
        socket.once("drain", () => {
          clearInterval(poll)
          done()
        })
      })
    }
  }
  await Promise.race([closed, new Promise((r) => setTimeout(r, 2_000))])
  socket.destroy()
  return { status: statusOf(received), sent }
}

/**
 * A request whose headers come one byte every `everyMs`, longer than any server timeout
 * should allow: resolves when the server ends the connection (with what it answered), or
 * with `finished: true` if the whole request got through.
 */
export const slowDrip = async (port: number, everyMs: number, bytes: number) => {
  const socket = await open(port)
  let received = ""
  let closed = false
  socket.on("data", (c: Buffer) => {
    received += c.toString("latin1")
  })
  socket.on("close", () => {
    closed = true
  })
  socket.on("error", () => {
    closed = true
  })
  socket.write("GET /v1/regions HTTP/1.1\r\nHost: 127.0.0.1\r\n")
  let sent = 0
  while (!closed && received === "" && sent < bytes) {
    socket.write("X")
    sent++
    await new Promise((r) => setTimeout(r, everyMs))
  }
  socket.destroy()
  return { finished: sent >= bytes, status: statusOf(received), dripped: sent }
}

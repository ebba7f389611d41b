/**
 * `levy listen` end to end: a server in this process, a receiver on loopback that checks
 * the signature with its own node:crypto HMAC (written from the header format, not with
 * the signing code), and `levy listen` as a child process between them. Events that existed
 * before it started are not forwarded unless `--since` asks for them.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { levy, type Proc, waitFor } from "./levyProcess.js"
import { call, LIVE_SECRET, memoryStore, SECRET, startWithStore } from "./support.js"

interface Received {
  readonly headers: IncomingHttpHeaders
  readonly raw: string
  readonly verified: boolean
}

/** Whether `header` (`t=…,v1=…[,v1=…]`) holds an HMAC-SHA256 of "t.raw" under `secret`. */
const verify = (header: string | undefined, raw: string, secret: string): boolean => {
  if (header === undefined) return false
  const parts = header.split(",").map((p) => p.split("=", 2) as [string, string])
  const t = parts.find(([k]) => k === "t")?.[1]
  if (t === undefined || !/^\d+$/.test(t)) return false
  const expected = createHmac("sha256", secret).update(`${t}.${raw}`).digest()
  return parts.some(
    ([k, v]) =>
      k === "v1" && /^[0-9a-f]{64}$/.test(v) && timingSafeEqual(Buffer.from(v, "hex"), expected)
  )
}

/** A receiver that records every delivery and answers 400 to a bad signature, as it should. */
const receiver = async () => {
  const received: Array<Received> = []
  let secret = ""
  const server: Server = createServer((req, res) => {
    let raw = ""
    req.on("data", (chunk: Buffer) => {
      raw += chunk.toString()
    })
    req.on("end", () => {
      const verified = verify(req.headers["service-signature"] as string | undefined, raw, secret)
      received.push({ headers: req.headers, raw, verified })
      res.statusCode = verified ? 200 : 400
      res.end()
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    useSecret: (s: string) => {
      secret = s
    },
    close: () => new Promise<void>((done) => server.close(() => done()))
  }
}

/** Waits (bounded by the test's timeout) until a delivery matches. */
const delivery = async (
  received: ReadonlyArray<Received>,
  match: (event: { id: string; type: string }) => boolean
) => {
  for (;;) {
    const found = received.find((r) => match(JSON.parse(r.raw)))
    if (found) return found
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("levy listen", () => {
  let server: Awaited<ReturnType<typeof startWithStore>>
  let hook: Awaited<ReturnType<typeof receiver>>
  const running: Array<Proc> = []
  let before = ""

  const charge = async (source = "tok_visa") => {
    const reply = await call(server.url, "POST", "/v1/charges", {
      body: { amount: 2500, currency: "usd", source }
    })
    expect(reply.status).toBe(200)
    return (reply.body as { id: string }).id
  }
  const eventsOf = async (chargeId: string) => {
    const reply = await call(server.url, "GET", "/v1/events?limit=100")
    const list = reply.body as { data: Array<{ id: string; data: { object: { id: string } } }> }
    return list.data.filter((e) => e.data.object.id === chargeId).map((e) => e.id)
  }
  const listen = (args: ReadonlyArray<string>) => {
    const proc = levy(["listen", "--forward-to", hook.url, "--api-base", server.url, ...args])
    running.push(proc)
    return proc
  }
  const ready = async (proc: Proc) => {
    const [, secret] = await waitFor(proc, /Ready! Your webhook signing secret is (whsec_dev_\w+)/)
    hook.useSecret(secret ?? "")
    return secret ?? ""
  }

  beforeAll(async () => {
    server = await startWithStore(memoryStore())
    hook = await receiver()
    // An event from before listening starts.
    const [id] = await eventsOf(await charge())
    before = id ?? ""
  }, 60_000)
  afterAll(async () => {
    for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL")
    await hook.close()
    await server.close()
  })

  it("forwards a new charge.succeeded, signed with the session secret; not the older events", async () => {
    const proc = listen(["--api-key", SECRET])
    const secret = await ready(proc)
    expect(secret).toMatch(/^whsec_dev_[0-9A-Za-z]{32}$/)

    const chargeId = await charge()
    const got = await delivery(hook.received, (e) => e.type === "charge.succeeded")
    const event = JSON.parse(got.raw)
    expect(event).toMatchObject({
      object: "event",
      type: "charge.succeeded",
      livemode: false,
      data: { object: { id: chargeId, object: "charge" } }
    })
    expect(got.verified).toBe(true)
    expect(got.headers["content-type"]).toBe("application/json")
    expect(got.headers["webhook-id"]).toBe(event.id)
    // The receiver's check is real: another secret does not verify.
    expect(verify(got.headers["service-signature"] as string, got.raw, `${secret}x`)).toBe(false)
    // Only the event created while listening; the earlier charge's was not replayed.
    expect(hook.received.map((r) => JSON.parse(r.raw).id)).toEqual([event.id])
    await waitFor(proc, new RegExp(`charge\\.succeeded \\[${event.id}\\]\\s+<-- 200`))

    proc.child.kill("SIGTERM")
    await proc.exited
  }, 150_000)

  it("--since replays the history first, oldest first, from LEVY_API_KEY", async () => {
    hook.received.length = 0
    const proc = levy(
      ["listen", "--forward-to", hook.url, "--api-base", server.url, "--since", "0"],
      {
        LEVY_API_KEY: SECRET
      }
    )
    running.push(proc)
    const secret = await ready(proc)
    const first = await delivery(hook.received, (e) => e.id === before)
    // Checked here: the replay may reach the receiver before the test has read the secret.
    expect(verify(first.headers["service-signature"] as string, first.raw, secret)).toBe(true)
    expect(JSON.parse(hook.received[0]?.raw ?? "{}").id).toBe(before)
    proc.child.kill("SIGTERM")
    await proc.exited
  }, 150_000)

  it("refuses a live key before reaching the server, and exits 1 on a key the server refuses", async () => {
    const live = listen(["--api-key", LIVE_SECRET])
    expect(await live.exited).toBe(2)
    expect(live.stderr).toContain("test-mode secret key (sk_dev_…)")
    const unknown = listen(["--api-key", "sk_dev_service_unknown0000"])
    expect(await unknown.exited).toBe(1)
    expect(unknown.stderr).toMatch(/answered 401/)
    expect(unknown.stdout).not.toContain("Ready!")
  }, 150_000)
})

/**
 * Several dispatchers on one PostgreSQL database, as several server processes would run:
 * two at once never deliver one attempt twice; a dispatcher stopped mid-delivery (its
 * fiber interrupted, or a real `levy serve` killed with SIGKILL) leaves leases that lapse,
 * and the deliveries are then made by the one that carries on.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import {
  AccountRepository,
  EventRepository,
  Ids,
  SecretBox,
  Storage,
  Testing,
  WebhookDeliveryRepository,
  WebhookEndpointRepository
} from "@levy/storage"
import { Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pathFor } from "../../../scripts/levyBinary.js"
import { call } from "./support.js"
import {
  type Answer,
  eventually,
  type Received,
  type Receiver,
  receiver,
  runDispatcher,
  signedWith
} from "./WebhooksSupport.js"

const ROOT = resolve(import.meta.dirname, "../../..")
const BINARY = pathFor("server")
const SECRET = "whsec_dev_cluster"

const scope = Effect.runSync(Scope.make())
const keyDir = mkdtempSync(join(tmpdir(), "levy-wh-cluster-"))
let url = ""
let hooks: Receiver
let answer: (r: Received) => Answer = () => ({ status: 200 })

const database = () =>
  Effect.runPromise(Scope.extend(Testing.throwawayDatabase("levy_wh"), scope)).then((d) => d.url)

beforeAll(async () => {
  url = await database()
  hooks = await receiver((r) => answer(r))
}, 60_000)
afterAll(async () => {
  await hooks.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(keyDir, { recursive: true, force: true })
})

/** A store on the shared database with its own connection pool: one "process". */
const process_ = () =>
  ManagedRuntime.make(
    Storage.layerPostgres({ url, maxConnections: 5 }).pipe(
      Layer.provide(SecretBox.layerConfig(join(keyDir, "secret.key"))),
      Layer.provideMerge(Ids.layer),
      Layer.orDie
    )
  )

const webhookIdsAt = (path: string) =>
  hooks.received.filter((r) => r.path === path).map((r) => String(r.headers["webhook-id"]))

/** An account with one endpoint at `path`, and `n` events: the ids of the events. */
const setUp = (runtime: ReturnType<typeof process_>, path: string, n: number) =>
  runtime.runPromise(
    Effect.gen(function* () {
      const accounts = yield* AccountRepository
      const endpoints = yield* WebhookEndpointRepository
      const events = yield* EventRepository
      const ids = yield* Ids
      const accountId = yield* ids.make("acct")
      yield* accounts.createAccount({ id: accountId, name: path, created: 0 })
      yield* endpoints.create({
        id: yield* ids.make("we"),
        accountId,
        livemode: false,
        url: `${hooks.url}${path}`,
        enabledEvents: ["*"],
        status: "enabled",
        description: null,
        created: 0,
        secret: SECRET
      })
      const made: Array<string> = []
      for (let i = 0; i < n; i++) {
        const id = yield* ids.make("evt")
        yield* events.insert({
          id,
          accountId,
          livemode: false,
          type: "charge.succeeded",
          data: { object: { id: `ch_${i}` } },
          request: null,
          created: Math.floor(Date.now() / 1000)
        })
        made.push(id)
      }
      return { accountId, events: made }
    }).pipe(Effect.orDie)
  )

const deliveriesOf = (runtime: ReturnType<typeof process_>, accountId: string) =>
  runtime.runPromise(
    Effect.flatMap(WebhookDeliveryRepository, (repo) =>
      repo.list({ accountId, livemode: false }, { limit: 100 })
    ).pipe(
      Effect.map((page) => page.data),
      Effect.orDie
    )
  )

describe("webhook dispatchers sharing one PostgreSQL", () => {
  it("two dispatchers running at once deliver every event exactly once", async () => {
    const a = process_()
    const b = process_()
    const contextA = await a.runtime().then((r) => r.context)
    const contextB = await b.runtime().then((r) => r.context)
    const first = runDispatcher(contextA, { leaseMs: 30_000, batchSize: 10 })
    const second = runDispatcher(contextB, { leaseMs: 30_000, batchSize: 10 })
    try {
      const { accountId, events } = await setUp(a, "/pair", 100)
      await eventually("every event at /pair", () => new Set(webhookIdsAt("/pair")).size === 100)
      await eventually("every delivery recorded", async () =>
        (await deliveriesOf(a, accountId)).every((d) => d.status === "succeeded")
      )
      // Exactly one request per event: no attempt was made twice.
      expect(webhookIdsAt("/pair").sort()).toEqual([...events].sort())
      const deliveries = await deliveriesOf(b, accountId)
      expect(deliveries).toHaveLength(100)
      expect(deliveries.every((d) => d.attempts === 1)).toBe(true)
    } finally {
      await first.stop()
      await second.stop()
      await a.dispose()
      await b.dispose()
    }
  })

  it("a dispatcher stopped mid-delivery: its leases lapse and another delivers everything", async () => {
    const a = process_()
    const b = process_()
    let hanging = true
    answer = () => (hanging ? "hang" : { status: 200 })
    const leaseMs = 1_500
    const first = runDispatcher(await a.runtime().then((r) => r.context), {
      leaseMs,
      timeoutMs: 1_000
    })
    try {
      const { accountId, events } = await setUp(a, "/crash", 10)
      await eventually(
        "deliveries in flight at the first dispatcher",
        () => webhookIdsAt("/crash").length >= 5
      )
      // Interrupted with requests in flight: no attempt recorded, the leases stay held.
      await first.stop()
      const held = (await deliveriesOf(a, accountId)).filter((d) => d.leaseOwner !== null)
      expect(held.length).toBeGreaterThan(0)
      hanging = false
      const answered = hooks.received.length
      const second = runDispatcher(await b.runtime().then((r) => r.context), { leaseMs })
      try {
        await eventually("every delivery succeeded", async () => {
          const deliveries = await deliveriesOf(b, accountId)
          return deliveries.length === 10 && deliveries.every((d) => d.status === "succeeded")
        })
        const after = hooks.received.slice(answered).filter((r) => r.path === "/crash")
        expect(new Set(after.map((r) => String(r.headers["webhook-id"])))).toEqual(new Set(events))
        expect(after.every((r) => signedWith(r, SECRET))).toBe(true)
      } finally {
        await second.stop()
      }
    } finally {
      answer = () => ({ status: 200 })
      await a.dispose()
      await b.dispose()
    }
  })
})

interface Proc {
  readonly child: ChildProcess
  stdout: string
  stderr: string
  readonly exited: Promise<unknown>
}

describe("levy serve killed with SIGKILL while deliveries are pending", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "levy-wh-serve-"))
  const running: Array<Proc> = []
  // An empty database of its own, so `serve` creates (and prints) the development account.
  let serveUrl = ""
  beforeAll(async () => {
    serveUrl = await database()
  }, 60_000)
  afterAll(() => {
    for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL")
    rmSync(dataDir, { recursive: true, force: true })
  })

  const serve = (): Proc => {
    const child = spawn(
      process.execPath,
      [
        BINARY,
        "serve",
        "--port",
        "0",
        "--store",
        "postgres",
        "--data-dir",
        dataDir,
        // The development account, and a receiver on this machine.
        "--dev"
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: serveUrl,
          PORT: "",
          REDIS_URL: "",
          LEVY_WEBHOOK_POLL_MS: "50",
          LEVY_WEBHOOK_LEASE_MS: "2000",
          LEVY_WEBHOOK_TIMEOUT_MS: "1000",
          LEVY_WEBHOOK_RETRY_INITIAL_MS: "50",
          LEVY_WEBHOOK_RETRY_MAX_MS: "200"
        },
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    const proc: Proc = {
      child,
      stdout: "",
      stderr: "",
      exited: new Promise((done) => child.on("exit", done))
    }
    child.stdout?.on("data", (chunk: Buffer) => {
      proc.stdout += chunk.toString()
    })
    // Kept to explain a server that never comes up.
    child.stderr?.on("data", (chunk: Buffer) => {
      proc.stderr += chunk.toString()
    })
    running.push(proc)
    return proc
  }

  // A liveness bound, not a speed check: under a full parallel suite on two cores a start
  // (tsx, migrations, the dev account) has taken over 30 s.
  const listening = async (proc: Proc) => {
    let base = ""
    await eventually(
      "the server to listen",
      () => {
        const match = /Levy is listening on http:\/\/[^\s/]+:(\d+)/.exec(proc.stdout)
        if (match) base = `http://127.0.0.1:${match[1]}`
        return match !== null
      },
      90_000
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nstdout:\n${proc.stdout}\nstderr:\n${proc.stderr}`)
    })
    return base
  }

  it("the restarted server delivers them, signed", async () => {
    let hanging = true
    answer = () => (hanging ? "hang" : { status: 200 })
    try {
      const first = serve()
      const base = await listening(first)
      const key = /sk_dev_service_[0-9A-Za-z]{32}/.exec(first.stdout)?.[0]
      expect(key).toBeDefined()
      const endpoint = await call(base, "POST", "/v1/webhook-endpoints", {
        key: key!,
        body: { url: `${hooks.url}/killed`, enabledEvents: ["charge.succeeded"] }
      })
      expect(endpoint.status).toBe(200)
      const secret = (endpoint.body as { secret: string }).secret
      const charges: Array<string> = []
      for (let i = 0; i < 5; i++) {
        const reply = await call(base, "POST", "/v1/charges", {
          key: key!,
          body: { amount: 1000 + i, currency: "usd", source: "tok_visa" }
        })
        expect(reply.status).toBe(200)
        charges.push((reply.body as { id: string }).id)
      }
      const chargesAt = () =>
        new Set(
          hooks.received
            .filter((r) => r.path === "/killed")
            .map((r) => (JSON.parse(r.body) as { data: { object: { id: string } } }).data.object.id)
        )
      await eventually("deliveries in flight", () => chargesAt().size >= 1)
      first.child.kill("SIGKILL")
      await first.exited
      hanging = false
      const answered = hooks.received.length

      const second = serve()
      const base2 = await listening(second)
      await eventually("every charge delivered after the restart", () => {
        const after = hooks.received.slice(answered).filter((r) => r.path === "/killed")
        const ids = new Set(
          after.map(
            (r) => (JSON.parse(r.body) as { data: { object: { id: string } } }).data.object.id
          )
        )
        return charges.every((c) => ids.has(c))
      })
      const after = hooks.received.slice(answered).filter((r) => r.path === "/killed")
      expect(after.every((r) => signedWith(r, secret))).toBe(true)
      const deliveries = await call(
        base2,
        "GET",
        `/v1/webhook-endpoints/${(endpoint.body as { id: string }).id}/deliveries`,
        { key: key! }
      )
      expect((deliveries.body as { data: Array<unknown> }).data).toHaveLength(5)
      second.child.kill("SIGTERM")
      await second.exited
    } finally {
      answer = () => ({ status: 200 })
    }
  }, 240_000)
})

/**
 * Webhook dispatch on PostgreSQL (a throwaway database on the local server), to a bare
 * `node:http` receiver on loopback in a child process (so it does not share the
 * dispatcher's event loop) that answers 200 and reports when each event arrived.
 *
 * - Throughput: `BURST` events written first, then one dispatcher (production defaults:
 *   64 in flight, batches of 100) fans them out and delivers them; deliveriesPerSec is
 *   events / seconds from start to the last arrival (fan-out, claim, sign, POST, record).
 * - Lag: with the dispatcher idle and polling every 200 ms (the default; no in-process wake,
 *   as for an event written by another process), events are written at a steady 100/s for
 *   `LAG_S` seconds; lag is arrival time minus the writer's commit time, p50/p99.
 *
 * Writes bench-results/webhooks.json. Targets (issue 5): ≥ 2,000 deliveries/s, p99 < 1 s.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import {
  AccountRepository,
  EventRepository,
  Ids,
  SecretBox,
  Storage,
  Testing,
  WebhookEndpointRepository
} from "@levy/storage"
import { Effect, Exit, Fiber, Layer, ManagedRuntime, Scope } from "effect"
import { report } from "../../../scripts/benchmark.js"
import * as Dispatcher from "../src/webhooks/Dispatcher.js"
import { defaults } from "../src/webhooks/DispatcherConfig.js"
import { Wake } from "../src/webhooks/Wake.js"

const RECEIVER = "LEVY_BENCH_WEBHOOK_RECEIVER"
const BURST = Number(process.env.LEVY_BENCH_WEBHOOK_BURST ?? 20_000)
const LAG_RATE = 100
const LAG_S = 10
const config = {
  ...defaults,
  concurrency: Number(process.env.LEVY_BENCH_WEBHOOK_CONCURRENCY ?? defaults.concurrency),
  batchSize: Number(process.env.LEVY_BENCH_WEBHOOK_BATCH ?? defaults.batchSize)
}

/** The receiver process: 200 to everything; one line `<webhook-id> <ms>` per arrival on stdout. */
const runReceiver = () => {
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      process.stdout.write(`${req.headers["webhook-id"]} ${Date.now()}\n`)
      res.writeHead(200)
      res.end()
    })
  })
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`port ${(server.address() as AddressInfo).port}\n`)
  })
}

interface Receiver {
  readonly url: string
  readonly arrivals: Map<string, number>
  readonly child: ChildProcess
}

const startReceiver = () =>
  new Promise<Receiver>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
      env: { ...process.env, [RECEIVER]: "1" },
      stdio: ["ignore", "pipe", "inherit"]
    })
    const arrivals = new Map<string, number>()
    let buffered = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString()
      const lines = buffered.split("\n")
      buffered = lines.pop()!
      for (const line of lines) {
        const [a, b] = line.split(" ")
        if (a === "port") resolve({ url: `http://127.0.0.1:${b}/hook`, arrivals, child })
        else if (!arrivals.has(a!)) arrivals.set(a!, Number(b))
      }
    })
  })

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const waitFor = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 5))
}

const main = async () => {
  const scope = Effect.runSync(Scope.make())
  const { url } = await Effect.runPromise(
    Scope.extend(Testing.throwawayDatabase("levy_bench_wh"), scope)
  )
  const receiver = await startReceiver()
  const runtime = ManagedRuntime.make(
    Storage.layerPostgres({ url, maxConnections: 20 }).pipe(
      Layer.provide(SecretBox.layerRandom),
      Layer.provideMerge(Ids.layer),
      Layer.provideMerge(Wake.layer),
      Layer.orDie
    )
  )
  try {
    const accountId = "acct_bench"
    const tenant = { accountId, livemode: false }
    await runtime.runPromise(
      Effect.gen(function* () {
        yield* (yield* AccountRepository).createAccount({
          id: accountId,
          name: "bench",
          created: 0
        })
        yield* (yield* WebhookEndpointRepository).create({
          id: "we_bench",
          ...tenant,
          url: receiver.url,
          enabledEvents: ["*"],
          status: "enabled",
          description: null,
          created: 0,
          secret: "whsec_dev_bench"
        })
      }).pipe(Effect.orDie)
    )
    const insert = (id: string) =>
      Effect.flatMap(EventRepository, (events) =>
        events.insert({
          id,
          ...tenant,
          type: "charge.succeeded",
          data: { object: { id: `ch_${id}`, amount: 1000 } },
          request: null,
          created: Math.floor(Date.now() / 1000)
        })
      ).pipe(Effect.orDie)

    // Throughput: a backlog of BURST events, then the dispatcher.
    await runtime.runPromise(
      Effect.forEach(
        Array.from({ length: BURST }, (_, i) => `evt_burst${i}`),
        insert,
        { concurrency: 16, discard: true }
      )
    )
    const started = Date.now()
    const fiber = runtime.runFork(Dispatcher.run(config))
    await waitFor(() => receiver.arrivals.size >= BURST)
    const last = Math.max(...receiver.arrivals.values())
    const deliveriesPerSec = BURST / ((last - started) / 1000)

    // Lag: steady writes while the dispatcher polls.
    const committed = new Map<string, number>()
    const total = LAG_RATE * LAG_S
    const t0 = Date.now()
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / LAG_RATE
      const wait = due - Date.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      const id = `evt_lag${i}`
      void runtime.runPromise(insert(id)).then(() => committed.set(id, Date.now()))
    }
    await waitFor(
      () =>
        committed.size === total && [...committed.keys()].every((id) => receiver.arrivals.has(id))
    )
    const lags = [...committed]
      .map(([id, at]) => receiver.arrivals.get(id)! - at)
      .sort((a, b) => a - b)
    await runtime.runPromise(Fiber.interrupt(fiber))

    report("webhooks", {
      deliveriesPerSec,
      burstEvents: BURST,
      lagP50Ms: percentile(lags, 50),
      lagP99Ms: percentile(lags, 99),
      lagMaxMs: lags[lags.length - 1]!,
      lagEventsPerSec: LAG_RATE,
      pollIntervalMs: config.pollIntervalMs,
      concurrency: config.concurrency
    })
  } finally {
    receiver.child.kill()
    await runtime.dispose()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

if (process.env[RECEIVER] === "1") runReceiver()
else await main()

/**
 * Webhook dispatch on PostgreSQL (a throwaway database on the local server), to a bare
 * `node:http` receiver on loopback in a child process (so it does not share the
 * dispatcher's event loop) that answers 200 and reports when each event arrived.
 *
 * - Throughput: `BURST` events written first, then one dispatcher (production defaults,
 *   `DispatcherConfig.defaults`) fans them out and delivers them; deliveriesPerSec is
 *   events / seconds from start to the last arrival (fan-out, claim, sign, POST, record).
 * - Lag: events written at a steady 100/s for `LAG_S` seconds; lag is the arrival time at the
 *   receiver minus the writer's commit time (when its insert returned), p50/p99. Twice: woken
 *   (the writer signals `Wake` after its commit, as every write in a `levy serve` process
 *   does: `DispatcherLayer`), the headline figure; and polled (no wake, as for an event
 *   written by another process: the dispatcher finds it at its next 200 ms poll).
 *
 * `LEVY_BENCH_WEBHOOK_PROFILE=<dir>` writes a CPU profile of the dispatcher's process during
 * the throughput phase (the receiver is another process) to `<dir>/webhooks.cpuprofile`.
 *
 * Writes bench-results/webhooks.json. Targets: ≥ 3,000 deliveries/s, p99 < 250 ms.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { Session } from "node:inspector/promises"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import * as Dispatcher from "@levy/engine/webhookDeliveries/Dispatcher.js"
import { defaults } from "@levy/engine/webhookDeliveries/DispatcherConfig.js"
import { Wake } from "@levy/engine/webhookDeliveries/Wake.js"
import { LoopbackTargets } from "@levy/engine/webhookEndpoints/LoopbackTargets.js"
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

const FAILURES = `SELECT 'attempt', error, count(*) FROM webhook_delivery_attempts
  WHERE error IS NOT NULL GROUP BY error
  UNION ALL SELECT 'delivery', status || ' attempts=' || attempts || ' leased=' || (lease_owner IS NOT NULL)
    || ' due_in_ms=' || (next_attempt_at_ms - (extract(epoch from now()) * 1000)::bigint), count(*)
  FROM webhook_deliveries WHERE status <> 'succeeded' GROUP BY 2`

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/**
 * Waits until `check` holds; fails when `progress` (a count) stalls for 30 s, so a run whose
 * deliveries all fail (a refused URL, say) ends with a message rather than hanging.
 */
const waitFor = async (what: string, check: () => boolean, progress: () => number) => {
  let last = progress()
  let lastMoved = Date.now()
  while (!check()) {
    await new Promise((r) => setTimeout(r, 5))
    const now = progress()
    if (now !== last) {
      last = now
      lastMoved = Date.now()
    } else if (Date.now() - lastMoved > 30_000) {
      throw new Error(`${what}: no progress for 30 s (${now} so far)`)
    }
  }
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
      // The receiver is on loopback: allowed in test mode, as on a development server.
      Layer.provideMerge(Layer.succeed(LoopbackTargets, true)),
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
    const profileDir = process.env.LEVY_BENCH_WEBHOOK_PROFILE
    const session = profileDir === undefined ? undefined : new Session()
    if (session !== undefined) {
      session.connect()
      await session.post("Profiler.enable")
      await session.post("Profiler.start")
    }
    const started = Date.now()
    const cpuBefore = process.cpuUsage()
    const fiber = runtime.runFork(Dispatcher.run(config))
    await waitFor(
      "burst",
      () => receiver.arrivals.size >= BURST,
      () => receiver.arrivals.size
    ).catch((error: Error) => {
      // What the attempts that did not succeed were told, to say why the run stalled (psql
      // where installed: a diagnostic only).
      let failures = ""
      try {
        failures = execFileSync("psql", [url, "-Atc", FAILURES], { encoding: "utf8" })
      } catch {}
      throw new Error(`${error.message}; what did not succeed (kind|what|count):\n${failures}`)
    })
    const cpu = process.cpuUsage(cpuBefore)
    const last = Math.max(...receiver.arrivals.values())
    const deliveriesPerSec = BURST / ((last - started) / 1000)
    // The dispatcher's process CPU per delivery: steadier than the rate on a shared machine.
    const cpuPerDeliveryUs = (cpu.user + cpu.system) / BURST
    if (session !== undefined) {
      const { profile } = await session.post("Profiler.stop")
      writeFileSync(`${profileDir}/webhooks.cpuprofile`, JSON.stringify(profile))
      session.disconnect()
    }

    // Lag: steady writes while the dispatcher idles, each write woken or not.
    const wake = await runtime.runPromise(Wake)
    const lagRun = async (name: string, woken: boolean) => {
      const committed = new Map<string, number>()
      const total = LAG_RATE * LAG_S
      const t0 = Date.now()
      for (let i = 0; i < total; i++) {
        const due = t0 + (i * 1000) / LAG_RATE
        const wait = due - Date.now()
        if (wait > 0) await new Promise((r) => setTimeout(r, wait))
        const id = `evt_${name}${i}`
        void runtime
          .runPromise(woken ? Effect.zipLeft(insert(id), wake.signal) : insert(id))
          .then(() => committed.set(id, Date.now()))
      }
      await waitFor(
        name,
        () =>
          committed.size === total &&
          [...committed.keys()].every((id) => receiver.arrivals.has(id)),
        () => receiver.arrivals.size
      )
      return [...committed].map(([id, at]) => receiver.arrivals.get(id)! - at).sort((a, b) => a - b)
    }
    const lags = await lagRun("woken", true)
    const polled = await lagRun("polled", false)
    await runtime.runPromise(Fiber.interrupt(fiber))

    report("webhooks", {
      deliveriesPerSec,
      cpuPerDeliveryUs,
      burstEvents: BURST,
      lagP50Ms: percentile(lags, 50),
      lagP99Ms: percentile(lags, 99),
      lagMaxMs: lags[lags.length - 1]!,
      polledLagP50Ms: percentile(polled, 50),
      polledLagP99Ms: percentile(polled, 99),
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

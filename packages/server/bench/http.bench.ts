/**
 * POST /v1/estimates per second over loopback HTTP, through the full server (edge: request id,
 * rate limit on with a high limit, Levy-Version, content checks; auth with an in-memory key;
 * validation; fee + compliance; headers) on the memory store, against a bare `node:http`
 * server implementing the same endpoint (parse JSON, `Estimate.estimate`, respond) in the same run.
 *
 * The server under test runs in a child process of this file (pinned to CPU 0 when `taskset`
 * exists) and the load generator, autocannon with 50 connections, in another (CPU 1).
 * Each server gets a short warm-up, then one 10 s measurement; bare and full alternate over
 * two rounds and each figure is the median. Any non-2xx answer or socket error fails the run.
 * `*Cpu` is the server process's CPU time over the measurement per second of it (1 = one core
 * saturated, from /proc, Linux only): below ~0.9 the load generator, not the server, was the
 * limit, and the `*PerSec` figure is a floor of what the server can do. `*CpuUsPerRequest`
 * is server CPU microseconds per answered request (median over rounds): on a shared machine
 * it moves far less than the rates, which follow whatever else runs on the two cores.
 * Then POST /v1/charges with a fresh Idempotency-Key each, on PostgreSQL (a throwaway
 * database on the local server, dropped afterwards), the same way: `chargesPerSec`, with the
 * server's and PostgreSQL's CPU microseconds per charge (the backends serving the server's
 * throwaway database, found in `pg_stat_activity`, from /proc: other databases do not count),
 * against `bareChargesPerSec`: node:http and `pg` running the same statements by hand
 * (BareCharges.ts). `serverRssMb` is Levy's resident set at the end of the charges load.
 * The `*ToBare` figures are ratios in this run.
 * `estimatesWithSource*` are estimates for a card (`source`: a test card the simulator describes
 * in-process, docs/quotes.md), against the plain estimates of the same run.
 * Set LEVY_BENCH_HTTP_PROFILE to a directory to run the servers with `--cpu-prof` there;
 * LEVY_BENCH_HTTP_PARTS=estimates (or charges) runs one half only. `platformFloor*` is
 * @effect/platform's HttpApiBuilder alone under the same load (PlatformFloor.ts): what an edge
 * built on it could reach at best.
 */

// First: Levy's start-up heap setting, in Levy's servers (levyHeapGrowth.ts).
import "./levyHeapGrowth.js"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { createServer } from "node:http"
import { createRequire } from "node:module"
import type { AddressInfo } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as HttpServer from "@effect/platform/HttpServer"
import { Estimate as EstimateWire } from "@levy/api"
import { ComplianceRules, Estimate, FeeSchedule, Ruleset } from "@levy/core"
import { PaymentProcessors } from "@levy/engine/processors/PaymentProcessors.js"
import { AccountRepository, Ids, SecretBox, Storage, Testing } from "@levy/storage"
import { Context, Duration, Effect, Layer, ManagedRuntime } from "effect"
import { median, report } from "../../../scripts/benchmark.js"
import * as LevyBinary from "../../../scripts/levyBinary.js"
import * as KeyResolver from "../src/access/KeyResolver.js"
import { defaults, EdgeConfig } from "../src/http/EdgeConfig.js"
import * as RateLimitStore from "../src/http/RateLimitStore.js"
import * as Server from "../src/Server.js"
import * as BareCharges from "./BareCharges.js"
import * as PlatformFloor from "./PlatformFloor.js"

const MODE = "LEVY_BENCH_HTTP_SERVER"
const SECRET = "sk_dev_service_bench0001"
const CONNECTIONS = 50
const WARMUP_S = 3
const MEASURE_S = 10
const ROUNDS = 2
const BODY = JSON.stringify({
  amount: 10_000,
  currency: "usd",
  region: "US-NY",
  cardType: "credit"
})
/** An estimate for the shopper's card (docs/quotes.md): the simulator describes it in-process, so
 * this is the source path's own cost without a processor's round trip. */
const SOURCE_BODY = JSON.stringify({
  amount: 10_000,
  currency: "usd",
  region: "US-NY",
  source: "tok_visa"
})
const CHARGE_BODY = JSON.stringify({ amount: 10_000, currency: "usd", region: "US-NY" })

/** What the load generator sends to each server: charges carry a fresh Idempotency-Key each. */
const TARGETS: Readonly<
  Record<string, { readonly path: string; readonly body: string; readonly unique: boolean }>
> = {
  bare: { path: "/v1/estimates", body: BODY, unique: false },
  full: { path: "/v1/estimates", body: BODY, unique: false },
  fullSource: { path: "/v1/estimates", body: SOURCE_BODY, unique: false },
  floor: { path: "/v1/estimates", body: BODY, unique: false },
  charges: { path: "/v1/charges", body: CHARGE_BODY, unique: true },
  bareCharges: { path: "/v1/charges", body: CHARGE_BODY, unique: true }
}

/** The throwaway database this child serves from, told to the parent for its CPU figure. */
let databaseName: string | undefined

/** The database's URL, for the bare charges server (which reads no Effect context). */
class DatabaseUrl extends Context.Tag("bench/DatabaseUrl")<DatabaseUrl, string>() {}

/**
 * A fresh PostgreSQL store in a throwaway database (dropped on close), migrated, holding the
 * bench account; its URL too.
 */
const postgresStore = Layer.unwrapScoped(
  Effect.map(Testing.throwawayDatabase("levy_bench"), ({ name, url }) => {
    databaseName = name
    return Storage.layerPostgres({ url, maxConnections: 20 }).pipe(
      Layer.merge(Layer.succeed(DatabaseUrl, url))
    )
  })
).pipe(
  Layer.provide(SecretBox.layerRandom),
  Layer.provideMerge(Ids.layer),
  Layer.tap((context) =>
    Context.get(context, AccountRepository).createAccount({
      id: "acct_bench",
      name: "bench",
      created: 0
    })
  ),
  Layer.orDie
)

/** The bare charges server (BareCharges.ts) over a migrated throwaway database. */
const serveBareCharges = async () => {
  const runtime = ManagedRuntime.make(postgresStore)
  const url = await runtime.runPromise(DatabaseUrl)
  const served = await BareCharges.serve(url, "acct_bench", SECRET)
  return {
    port: served.port,
    close: () => served.close().finally(() => runtime.dispose())
  }
}

const memoryStore = Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))

/** The full stack on an ephemeral loopback port over `store`; `close` releases the store. */
const serveFull = async (
  store: Layer.Layer<Storage.Repositories | Ids>
): Promise<{ readonly port: number; readonly close: () => Promise<void> }> => {
  const high = 1_000_000_000
  const layer = Server.layer({ port: 0, host: "127.0.0.1" }).pipe(
    Layer.provide([
      KeyResolver.layerMemory([{ secret: SECRET, accountId: "acct_bench", keyId: "key_bench" }]),
      RateLimitStore.layerMemory,
      ComplianceRules.Live,
      PaymentProcessors.layerTestOnly,
      Layer.succeed(EdgeConfig, {
        ...defaults,
        rateLimits: {
          test: high,
          live: high,
          anonymous: high,
          feeConfigWrites: high,
          window: Duration.minutes(1)
        }
      }),
      store
    ])
  )
  const runtime = ManagedRuntime.make(layer)
  const address = (await runtime.runPromise(HttpServer.HttpServer)).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { port: address.port, close: () => runtime.dispose() }
}

/** The same endpoint on bare node:http: parse the JSON body, estimate, answer. */
const serveBare = (): Promise<number> => {
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      let status = 200
      let body: string
      try {
        const input = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        const result = Estimate.estimate(FeeSchedule.DEFAULT, Ruleset.DEFAULT, input)
        if (result._tag === "Right") body = JSON.stringify(EstimateWire.fromEngine(result.right))
        else {
          status = 400
          body = JSON.stringify({ error: { type: "invalid_request_error", code: "fee" } })
        }
      } catch {
        status = 400
        body = JSON.stringify({ error: { type: "invalid_request_error", code: "body_invalid" } })
      }
      res.writeHead(status, { "content-type": "application/json" }).end(body)
    })
  })
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
  )
}

const serving = process.env[MODE]
if (serving !== undefined) {
  // In the server child: listen, tell the parent the port, run until killed (then drop the
  // throwaway database, if any).
  const served =
    serving === "bare"
      ? { port: await serveBare(), close: () => Promise.resolve() }
      : serving === "bareCharges"
        ? await serveBareCharges()
        : serving === "floor"
          ? await PlatformFloor.serve()
          : await serveFull(serving === "charges" ? postgresStore : memoryStore)
  console.log(`port ${served.port}${databaseName === undefined ? "" : ` database ${databaseName}`}`)
  process.on("SIGTERM", () => void served.close().finally(() => process.exit(0)))
} else {
  const here = fileURLToPath(import.meta.url)
  const runner = join(dirname(here), "autocannonRun.ts")
  const pin = existsSync("/usr/bin/taskset")
  const profile = process.env.LEVY_BENCH_HTTP_PROFILE
  // Every server runs from one esbuild bundle of this file, as a built Levy runs: not under
  // tsx, whose loader thread, transformed sources and `keepNames` wrappers are part of the
  // process (its resident set and its CPU) and of no deployment.
  const bundled = await LevyBinary.bundle(
    here,
    join(dirname(here), "..", "..", "..", "node_modules", ".cache", "levy-bench", "http.mjs")
  )

  const launch = (cpu: number, args: Array<string>, env?: NodeJS.ProcessEnv): ChildProcess =>
    pin
      ? spawn("taskset", ["-c", String(cpu), process.execPath, ...args], { env })
      : spawn(process.execPath, args, { env })

  const startServer = (
    mode: string
  ): Promise<{ child: ChildProcess; port: number; database?: string }> =>
    new Promise((resolve, reject) => {
      const prof = profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`]
      const child = launch(0, [...prof, bundled], { ...process.env, [MODE]: mode })
      let out = ""
      child.stderr?.pipe(process.stderr)
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const match = /port (\d+)( database (\w+))?\n/.exec(out)
        if (match) {
          resolve({
            child,
            port: Number(match[1]),
            ...(match[3] === undefined ? {} : { database: match[3] })
          })
        }
      })
      child.on("exit", (code) => reject(new Error(`${mode} server exited (${code})`)))
    })

  interface Load {
    readonly perSec: number
    readonly p99Ms: number
    readonly cpu?: number
    readonly cpuUsPerRequest?: number
    /** PostgreSQL's CPU microseconds per answered request (charges only). */
    readonly postgresUsPerRequest?: number
    /** The server's resident set at the end of the measurement, MB (Linux). */
    readonly rssMb?: number
  }

  const ticksPerSec = (() => {
    try {
      return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
    } catch {
      return 100
    }
  })()
  /** User + system CPU seconds of a process so far, from /proc; undefined elsewhere. */
  const cpuSeconds = (pid: number | undefined): number | undefined => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      return (Number(fields[11]) + Number(fields[12])) / ticksPerSec
    } catch {
      return undefined
    }
  }

  /** The resident set of a process now, MB, from /proc; undefined elsewhere. */
  const residentMb = (pid: number | undefined): number | undefined => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
      return match === null ? undefined : Number(match[1]) / 1024
    } catch {
      return undefined
    }
  }

  /** The part of `pg` used here (the package ships no types). */
  interface PgClientLike {
    connect(): Promise<void>
    query(text: string, values: Array<unknown>): Promise<{ rows: Array<{ pid: number }> }>
    end(): Promise<void>
  }
  const { Client } = createRequire(import.meta.url)("pg") as {
    Client: new (options: { connectionString: string }) => PgClientLike
  }

  /**
   * CPU seconds so far of each PostgreSQL backend serving `database` (from `pg_stat_activity`
   * and /proc, Linux): the charges' own share, whatever else the machine's server runs.
   */
  const postgresCpuByBackend = async (database: string): Promise<Map<number, number>> => {
    const client = new Client({ connectionString: `${Testing.PG_SERVER}/postgres` })
    await client.connect()
    try {
      const { rows } = await client.query("SELECT pid FROM pg_stat_activity WHERE datname = $1", [
        database
      ])
      return new Map(rows.map((r) => [Number(r.pid), cpuSeconds(Number(r.pid)) ?? 0]))
    } finally {
      await client.end()
    }
  }

  const load = (mode: string, port: number, seconds: number): Promise<Load> =>
    new Promise((resolve, reject) => {
      const target = TARGETS[mode]
      if (target === undefined) return reject(new Error(`no target for ${mode}`))
      const child = launch(1, [
        "--import",
        "tsx",
        runner,
        JSON.stringify({
          url: `http://127.0.0.1:${port}${target.path}`,
          connections: CONNECTIONS,
          duration: seconds,
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${SECRET}`,
            ...(target.unique ? { "idempotency-key": "bench-[<id>]" } : {})
          },
          body: target.body,
          idReplacement: target.unique
        })
      ])
      let out = ""
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString()
      })
      child.on("exit", (code) => {
        if (code !== 0) return reject(new Error(`autocannon exited (${code})`))
        const r = JSON.parse(out) as {
          requests: { average: number }
          latency: { p99: number }
          non2xx: number
          errors: number
          timeouts: number
        }
        if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
          return reject(
            new Error(`${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts on :${port}`)
          )
        }
        resolve({ perSec: r.requests.average, p99Ms: r.latency.p99 })
      })
    })

  const measure = async (mode: string): Promise<Load> => {
    const { child, port, database } = await startServer(mode)
    try {
      await load(mode, port, WARMUP_S)
      const cpuBefore = cpuSeconds(child.pid)
      const pgBefore = database === undefined ? undefined : await postgresCpuByBackend(database)
      const started = performance.now()
      const result = await load(mode, port, MEASURE_S)
      const cpuAfter = cpuSeconds(child.pid)
      const rssMb = residentMb(child.pid)
      const pgAfter = database === undefined ? undefined : await postgresCpuByBackend(database)
      let pgUsed = 0
      for (const [pid, seconds] of pgAfter ?? []) pgUsed += seconds - (pgBefore?.get(pid) ?? 0)
      const postgresUs =
        pgBefore === undefined || pgAfter === undefined
          ? undefined
          : (pgUsed / (result.perSec * MEASURE_S)) * 1_000_000
      const cpu =
        cpuBefore === undefined || cpuAfter === undefined
          ? undefined
          : (cpuAfter - cpuBefore) / ((performance.now() - started) / 1000)
      console.log(
        `  ${mode}: ${Math.round(result.perSec)}/s, p99 ${result.p99Ms} ms, server CPU ${cpu?.toFixed(2) ?? "?"}${cpu === undefined ? "" : `, ${Math.round((cpu / result.perSec) * 1_000_000)} µs/request`}${postgresUs === undefined ? "" : `, PostgreSQL ${Math.round(postgresUs)} µs/request`}${rssMb === undefined ? "" : `, RSS ${Math.round(rssMb)} MB`}`
      )
      return {
        ...result,
        ...(cpu === undefined ? {} : { cpu, cpuUsPerRequest: (cpu / result.perSec) * 1_000_000 }),
        ...(postgresUs === undefined ? {} : { postgresUsPerRequest: postgresUs }),
        ...(rssMb === undefined ? {} : { rssMb })
      }
    } finally {
      child.removeAllListeners("exit")
      await new Promise((resolve) => {
        child.on("exit", resolve)
        child.kill("SIGTERM")
      })
    }
  }

  // LEVY_BENCH_HTTP_PARTS=estimates or =charges runs one half only (while working on it).
  const parts = process.env.LEVY_BENCH_HTTP_PARTS ?? "estimates,charges"
  const bare: Array<Load> = []
  const full: Array<Load> = []
  const withSource: Array<Load> = []
  const floor: Array<Load> = []
  const bareCharges: Array<Load> = []
  const charges: Array<Load> = []
  for (let round = 0; round < ROUNDS; round++) {
    if (parts.includes("estimates")) {
      bare.push(await measure("bare"))
      full.push(await measure("full"))
      withSource.push(await measure("fullSource"))
      floor.push(await measure("floor"))
    }
    // Charges on PostgreSQL: the whole write path (claim the key, read the fee configuration,
    // write the charge pending, simulate, settle with its event and the stored response),
    // through Levy and through the bare baseline doing the same statements (BareCharges.ts).
    if (parts.includes("charges")) {
      bareCharges.push(await measure("bareCharges"))
      charges.push(await measure("charges"))
    }
  }
  const medianOf = (
    loads: Array<Load>,
    of: (load: Load) => number | undefined
  ): number | undefined => {
    const values = loads.flatMap((r) => {
      const value = of(r)
      return value === undefined ? [] : [value]
    })
    return values.length === 0 ? undefined : median(values)
  }
  /** The figures of one kind of request, named `<name>PerSec`, `<name>CpuUsPerRequest`… */
  const figures = (name: string, loads: Array<Load>): Record<string, number> => {
    if (loads.length === 0) return {}
    const entries: Array<[string, number | undefined]> = [
      [`${name}PerSec`, medianOf(loads, (r) => r.perSec)],
      [`${name}P99Ms`, medianOf(loads, (r) => r.p99Ms)],
      [`${name}Cpu`, medianOf(loads, (r) => r.cpu)],
      [`${name}CpuUsPerRequest`, medianOf(loads, (r) => r.cpuUsPerRequest)],
      [`${name}PostgresUsPerRequest`, medianOf(loads, (r) => r.postgresUsPerRequest)]
    ]
    return Object.fromEntries(entries.filter((e): e is [string, number] => e[1] !== undefined))
  }
  const out: Record<string, number> = {
    ...figures("estimates", full),
    ...figures("estimatesWithSource", withSource),
    ...figures("bareNode", bare),
    ...figures("platformFloor", floor),
    ...figures("charges", charges),
    ...figures("bareCharges", bareCharges)
  }
  const ratio = (name: string, a: string, b: string) => {
    const x = out[a]
    const y = out[b]
    if (x !== undefined && y !== undefined && y !== 0) out[name] = x / y
  }
  ratio("estimatesToBare", "estimatesPerSec", "bareNodePerSec")
  ratio("estimatesCpuToBare", "estimatesCpuUsPerRequest", "bareNodeCpuUsPerRequest")
  ratio("platformFloorToBare", "platformFloorPerSec", "bareNodePerSec")
  ratio("estimatesWithSourceToEstimates", "estimatesWithSourcePerSec", "estimatesPerSec")
  ratio(
    "estimatesWithSourceCpuToEstimates",
    "estimatesWithSourceCpuUsPerRequest",
    "estimatesCpuUsPerRequest"
  )
  ratio("chargesToBare", "chargesPerSec", "bareChargesPerSec")
  ratio("chargesCpuToBare", "chargesCpuUsPerRequest", "bareChargesCpuUsPerRequest")
  ratio("chargesPostgresToBare", "chargesPostgresUsPerRequest", "bareChargesPostgresUsPerRequest")
  const rss = medianOf(charges, (r) => r.rssMb)
  if (rss !== undefined) out.serverRssMb = rss
  report("http", out)
}

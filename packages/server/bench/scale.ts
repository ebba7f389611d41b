/**
 * `pnpm bench:scale`: one `levy serve` process against two, on one PostgreSQL and one Redis
 * (rate limits shared through `REDIS_URL`), for `POST /v1/estimates` and `POST /v1/charges`
 * (a fresh Idempotency-Key each). Needs PostgreSQL at DATABASE_SERVER (default
 * postgres://postgres@127.0.0.1:5432) and Redis at REDIS_URL (default redis://127.0.0.1:6379).
 *
 * A throwaway database is migrated and given an account with `levy migrate` and
 * `levy accounts create`, as an operator would; the servers are plain `levy serve --store
 * postgres` processes, unpinned (the operating system spreads them over the cores). The load
 * is always two autocannon processes of 25 connections each, both on the one server or one
 * on each of the two, so only the number of servers changes. Each figure: 3 s warm-up, then
 * 10 s measured; `*Cpu` is all servers' CPU seconds per second, `*CpuUsPerRequest` their
 * CPU per answered request. Writes bench-results/scale.json.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { report } from "../../../scripts/benchmark.js"

const here = dirname(fileURLToPath(import.meta.url))
const main = join(here, "..", "src", "main.ts")
const runner = join(here, "autocannonRun.ts")
const SERVER = process.env.DATABASE_SERVER ?? "postgres://postgres@127.0.0.1:5432"
const REDIS = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
const WARMUP_S = 3
const MEASURE_S = 10
const ESTIMATE = JSON.stringify({
  amount: 10_000,
  currency: "usd",
  region: "US-NY",
  cardType: "credit"
})
const CHARGE = JSON.stringify({ amount: 10_000, currency: "usd", region: "US-NY" })

const database = `levy_scale_${Date.now().toString(36)}`
const url = `${SERVER}/${database}`
const psql = (sql: string) =>
  execFileSync("psql", [`${SERVER}/postgres`, "-qAtc", sql], { encoding: "utf8" })

const env = {
  ...process.env,
  DATABASE_URL: url,
  REDIS_URL: REDIS,
  LEVY_DEV: "false",
  LEVY_RATE_LIMIT_TEST: "1000000000",
  LEVY_RATE_LIMIT_LIVE: "1000000000",
  LEVY_RATE_LIMIT_ANONYMOUS: "1000000000",
  LEVY_SECRET_KEY: Buffer.alloc(32, 7).toString("base64")
}
const levy = (args: Array<string>) =>
  execFileSync(process.execPath, ["--import", "tsx", main, ...args], { env, encoding: "utf8" })

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

const ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
const cpuSeconds = (pid: number | undefined): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / ticks
}

/** Starts `levy serve` on a free port; resolves once it answers. */
const serve = async (): Promise<{ child: ChildProcess; port: number }> => {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    ["--import", "tsx", main, "serve", "--store", "postgres", "--host", "127.0.0.1"],
    { env: { ...env, PORT: String(port) }, stdio: ["ignore", "ignore", "inherit"] }
  )
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 100))
    try {
      await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)
      return { child, port }
    } catch {
      // Not listening yet.
    }
  }
  throw new Error("levy serve did not start")
}

/** One autocannon process; resolves with requests per second (fails on any non-2xx). */
const load = (
  port: number,
  path: string,
  body: string,
  secret: string,
  seconds: number
): Promise<number> =>
  new Promise((resolve, reject) => {
    const charges = path === "/v1/charges"
    const child = spawn(process.execPath, [
      "--import",
      "tsx",
      runner,
      JSON.stringify({
        url: `http://127.0.0.1:${port}${path}`,
        connections: 25,
        duration: seconds,
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${secret}`,
          ...(charges ? { "idempotency-key": `scale-${port}-[<id>]` } : {})
        },
        body,
        idReplacement: charges
      })
    ])
    let out = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.on("exit", () => {
      const r = JSON.parse(out) as { requests: { average: number }; non2xx: number; errors: number }
      if (r.non2xx > 0 || r.errors > 0) reject(new Error(`${r.non2xx} non-2xx, ${r.errors} errors`))
      else resolve(r.requests.average)
    })
  })

/** Requests per second and CPU per request of `servers` under two load generators. */
const measure = async (
  servers: Array<{ child: ChildProcess; port: number }>,
  path: string,
  body: string,
  secret: string
) => {
  const ports = [servers[0]!.port, servers[servers.length - 1]!.port]
  await Promise.all(ports.map((p) => load(p, path, body, secret, WARMUP_S)))
  const before = servers.map((s) => cpuSeconds(s.child.pid))
  const started = performance.now()
  const rates = await Promise.all(ports.map((p) => load(p, path, body, secret, MEASURE_S)))
  const elapsed = (performance.now() - started) / 1000
  const cpu = servers.reduce((sum, s, i) => sum + cpuSeconds(s.child.pid) - before[i]!, 0)
  const perSec = rates.reduce((a, b) => a + b, 0)
  return { perSec, cpu: cpu / elapsed, cpuUsPerRequest: (cpu / (perSec * elapsed)) * 1e6 }
}

psql(`CREATE DATABASE ${database}`)
const running: Array<ChildProcess> = []
try {
  levy(["migrate", "--store", "postgres"])
  const created = JSON.parse(
    levy(["accounts", "create", "--store", "postgres", "--json", "--name", "scale"])
  ) as { keys: { secretDev: string } }
  const secret = created.keys.secretDev
  const figures: Record<string, number> = {}
  for (const count of [1, 2]) {
    const servers = await Promise.all(Array.from({ length: count }, serve))
    running.push(...servers.map((s) => s.child))
    for (const [name, path, body] of [
      ["estimates", "/v1/estimates", ESTIMATE],
      ["charges", "/v1/charges", CHARGE]
    ] as const) {
      const m = await measure(servers, path, body, secret)
      console.log(
        `  ${count} × levy serve, ${name}: ${Math.round(m.perSec)}/s, CPU ${m.cpu.toFixed(2)}, ${Math.round(m.cpuUsPerRequest)} µs/request`
      )
      figures[`${name}PerSec${count}`] = m.perSec
      figures[`${name}Cpu${count}`] = m.cpu
      figures[`${name}CpuUsPerRequest${count}`] = m.cpuUsPerRequest
    }
    for (const s of servers) s.child.kill("SIGTERM")
    await Promise.all(servers.map((s) => new Promise((r) => s.child.once("exit", r))))
  }
  figures.estimatesTwoToOne = figures.estimatesPerSec2! / figures.estimatesPerSec1!
  figures.chargesTwoToOne = figures.chargesPerSec2! / figures.chargesPerSec1!
  report("scale", figures)
} finally {
  for (const child of running) if (child.exitCode === null) child.kill("SIGTERM")
  psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
}

/**
 * `pnpm bench:soak` (scenario 6, not in CI): `levy serve --store postgres` on a throwaway
 * database for LEVY_SOAK_MINUTES (default 5) at a steady LEVY_SOAK_RPS (default 50) of
 * charges, refunds and listings mixed. Prints RSS at start and end and p50/p99 latency per
 * minute, and writes them to bench-results/soak.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { throwaway } from "../test/support/Database.js"
import { send } from "../test/support/Http.js"
import { chargeBody } from "../test/support/Load.js"
import { rssOf } from "../test/support/Rss.js"
import { devKeys, serve } from "../test/support/Serve.js"

const minutes = Number(process.env.LEVY_SOAK_MINUTES ?? 5)
const rps = Number(process.env.LEVY_SOAK_RPS ?? 50)
const MiB = 1024 * 1024

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const db = await throwaway("levy_soak")
const dataDir = mkdtempSync(join(tmpdir(), "levy-soak-"))
const server = await serve({ databaseUrl: db.url, dataDir })
try {
  const key = devKeys(dataDir).keys.secretDev
  const charges: Array<string> = []
  let i = 0
  let errors = 0
  /** One request of the mix: 50 % charges, 20 % refunds, 30 % listings. */
  const one = async () => {
    const n = i++
    const pick = n % 10
    if (pick < 5 || charges.length === 0) {
      const k = `soak-${n}`
      const o = await send(server.url, "POST", "/v1/charges", {
        key,
        body: chargeBody(k, 1000 + (n % 5000)),
        headers: { "idempotency-key": k }
      })
      if (o.kind === "answer" && o.status === 200) charges.push((o.body as { id: string }).id)
      return o
    }
    if (pick < 7) {
      const charge = charges.shift()!
      return send(server.url, "POST", "/v1/refunds", { key, body: { charge, amount: 100 } })
    }
    return send(server.url, "GET", "/v1/charges?limit=20", { key })
  }
  const rssStart = rssOf(server.child.pid!)
  const perMinute: Array<{
    minute: number
    requests: number
    p50: number
    p99: number
    rssMiB: number
  }> = []
  for (let m = 1; m <= minutes; m++) {
    const latencies: Array<number> = []
    const pending: Array<Promise<void>> = []
    const end = Date.now() + 60_000
    while (Date.now() < end) {
      const started = performance.now()
      pending.push(
        one().then((o) => {
          latencies.push(performance.now() - started)
          if (o.kind !== "answer" || o.status >= 500) errors++
        })
      )
      await new Promise((r) => setTimeout(r, 1000 / rps))
    }
    await Promise.all(pending)
    latencies.sort((x, y) => x - y)
    const row = {
      minute: m,
      requests: latencies.length,
      p50: Math.round(percentile(latencies, 50) * 10) / 10,
      p99: Math.round(percentile(latencies, 99) * 10) / 10,
      rssMiB: Math.round(rssOf(server.child.pid!) / MiB)
    }
    perMinute.push(row)
    console.log(
      `minute ${m}: ${row.requests} requests, p50 ${row.p50} ms, p99 ${row.p99} ms, RSS ${row.rssMiB} MiB`
    )
  }
  const result = {
    minutes,
    rps,
    rssStartMiB: Math.round(rssStart / MiB),
    rssEndMiB: Math.round(rssOf(server.child.pid!) / MiB),
    errors,
    perMinute
  }
  console.log(`RSS ${result.rssStartMiB} → ${result.rssEndMiB} MiB, ${errors} errors`)
  mkdirSync("bench-results", { recursive: true })
  writeFileSync("bench-results/soak.json", `${JSON.stringify(result, null, 2)}\n`)
} finally {
  await server.kill()
  await db.drop()
  rmSync(dataDir, { recursive: true, force: true })
}

/**
 * Scenario 2, database outage: PostgreSQL itself is restarted (`pg_ctlcluster … restart`)
 * while a client creates charges. During the outage every answer is a 503 `api_error` in the
 * error shape or a success, none hangs past the client's bound, the server stays up;
 * afterwards it serves again without being touched, nothing acknowledged is lost and no key
 * made two charges.
 * Runs alone (the reliability project runs after every other project, one file at a time).
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type Database, throwaway } from "./support/Database.js"
import { record } from "./support/Figures.js"
import { isErrorShape } from "./support/Http.js"
import { type Attempt, createOnce, pool } from "./support/Load.js"
import { eventually } from "./support/Receiver.js"
import { devKeys, type Serving, serve } from "./support/Serve.js"

const REQUESTS = 400
const CONCURRENCY = 6

let db: Database
let server: Serving
const dataDir = mkdtempSync(join(tmpdir(), "levy-outage-"))

beforeAll(async () => {
  db = await throwaway("levy_rel_outage")
  server = await serve({ databaseUrl: db.url, dataDir })
})
afterAll(async () => {
  await server?.kill()
  await db?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** Restarts the local PostgreSQL cluster (version directory under /etc/postgresql). */
const restartPostgres = async () => {
  const version = readdirSync("/etc/postgresql")[0]!
  // Asynchronous: the load keeps running while PostgreSQL is down.
  await promisify(execFile)(
    "pg_ctlcluster",
    ["--skip-systemctl-redirect", version, "main", "restart"],
    { timeout: 60_000 }
  )
}

it("PostgreSQL restarted mid-load: 503s in the error shape, no hang, no crash, recovery, nothing lost", async () => {
  const secret = devKeys(dataDir).keys.secretDev
  const attempts: Array<Attempt> = Array.from({ length: REQUESTS }, (_, i) => ({
    key: `outage-${i}`,
    amount: 2000 + i,
    chargeId: undefined,
    last: undefined
  }))
  let sent = 0
  const unexpected: Array<unknown> = []
  let unavailable = 0
  const tally = async (a: Attempt) => {
    sent++
    const o = await createOnce(server.url, secret, a)
    if (o.kind === "answer" && o.status === 200) return
    if (o.kind === "answer" && o.status === 503 && isErrorShape(o.body)) {
      if ((o.body as { error: { type: string } }).error.type === "api_error") {
        unavailable++
        return
      }
    }
    // The key may still be claimed by a request the outage cut short: a 409 says "retry".
    if (o.kind === "answer" && o.status === 409 && isErrorShape(o.body)) return
    unexpected.push(o)
  }
  const acknowledged = () => attempts.filter((a) => a.chargeId !== undefined).length
  // A paced load (a few hundred requests over a few seconds), so the outage falls inside it.
  const load = pool(attempts, CONCURRENCY, async (a) => {
    await tally(a)
    await new Promise((r) => setTimeout(r, 40))
  })
  await eventually("some charges before the outage", () => acknowledged() >= 50)
  await restartPostgres()
  await load
  // The fault was seen: some requests met the outage.
  expect(unavailable).toBeGreaterThan(0)
  expect(server.child.exitCode).toBeNull()

  // It recovers by itself: a new request succeeds without anyone touching the server.
  // (A fresh key each try: a try cut short by the outage would hold its key.)
  const probes: Array<Attempt> = []
  await eventually("a charge after the outage", async () => {
    const probe: Attempt = {
      key: `outage-probe-${probes.length}`,
      amount: 5000,
      chargeId: undefined,
      last: undefined
    }
    probes.push(probe)
    await tally(probe)
    return probe.chargeId !== undefined
  })
  // Every unacknowledged request once more with its key. A key whose request the outage cut
  // short stays claimed until the claim's lease lapses (409, see docs/reliability.md).
  let stillClaimed = 0
  await pool(attempts, CONCURRENCY, async (a) => {
    if (a.chargeId !== undefined) return
    await tally(a)
    if (a.last?.kind === "answer" && a.last.status === 409) stillClaimed++
  })
  expect(unexpected).toEqual([])
  expect(server.child.exitCode).toBeNull()

  const byKey = await db.query<{ k: string; n: string; id: string }>(
    `SELECT metadata->>'idempotency_key' AS k, count(*) AS n, min(id) AS id FROM charges GROUP BY 1`
  )
  const duplicates = byKey.filter((r) => Number(r.n) > 1).length
  expect(duplicates).toBe(0)
  const stored = new Map(byKey.map((r) => [r.k, r.id]))
  // Every acknowledged charge is there, under its key; no key made two.
  const acked = [...attempts, ...probes].filter((a) => a.chargeId !== undefined)
  const lost = acked.filter((a) => stored.get(a.key) !== a.chargeId).length
  expect(lost).toBe(0)
  record({
    scenario: "2. PostgreSQL restarted mid-load",
    requestsSent: sent,
    faultsInjected: "1 pg_ctlcluster restart",
    acknowledgedWrites: acked.length,
    writesFound: byKey.length,
    duplicates,
    serverErrors: unexpected.length,
    undeliveredEvents: 0,
    notes: `${unavailable} answers 503 api_error during the outage (expected), 0 other 5xx, 0 hangs; ${stillClaimed} keys still claimed (409) right after recovery`
  })
}, 150_000)

/**
 * Scenario 3, two `levy serve` processes on one PostgreSQL and one Redis: the rate limit is
 * exact across both (limit + 1 requests → exactly one 429), 50 concurrent creates with one
 * Idempotency-Key split across both make exactly one charge, and with no crash each webhook
 * event is delivered exactly once although both dispatchers run.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { count, type Database, throwaway } from "./support/Database.js"
import { record } from "./support/Figures.js"
import { type Outcome, send } from "./support/Http.js"
import { chargeBody } from "./support/Load.js"
import { eventually, type Receiver, receiver } from "./support/Receiver.js"
import { type DevKeys, devKeys, type Serving, serve } from "./support/Serve.js"

// Per key and window; the other scenario parts use another key (its own count) well below it.
const LIMIT = 200
const WINDOW_MS = 600_000
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379"

let db: Database
let hooks: Receiver
let a: Serving
let b: Serving
let keys: DevKeys
const dataDir = mkdtempSync(join(tmpdir(), "levy-cluster-"))
let sent = 0
let serverErrors = 0

const tally = (o: Outcome) => {
  sent++
  if (o.kind === "answer" && o.status >= 500) serverErrors++
  return o
}
const statusOf = (o: Outcome) => (o.kind === "answer" ? o.status : -1)

beforeAll(async () => {
  db = await throwaway("levy_rel_cluster")
  hooks = await receiver()
  const env = {
    REDIS_URL,
    LEVY_RATE_LIMIT_TEST: String(LIMIT),
    LEVY_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS)
  }
  // One after the other: the first creates the development account on the empty database.
  a = await serve({ databaseUrl: db.url, dataDir, env })
  b = await serve({ databaseUrl: db.url, dataDir, env })
  keys = devKeys(dataDir)
})
afterAll(async () => {
  await a?.kill()
  await b?.kill()
  await hooks?.close()
  await db?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

it("the rate limit holds across both processes: limit + 1 requests, exactly one 429", async () => {
  // A fixed window could roll over mid-burst: start well inside one.
  while (Date.now() % WINDOW_MS > WINDOW_MS - 10_000) await new Promise((r) => setTimeout(r, 500))
  const statuses: Array<number> = []
  for (let i = 0; i <= LIMIT; i++) {
    const server = i % 2 === 0 ? a : b
    statuses.push(
      statusOf(
        tally(await send(server.url, "GET", "/v1/regions", { key: keys.keys.publishableDev }))
      )
    )
  }
  expect(statuses.filter((s) => s === 429)).toHaveLength(1)
  expect(statuses.at(-1)).toBe(429)
})

it("50 concurrent creates with one Idempotency-Key across both: exactly one charge", async () => {
  const key = "cluster-one-key"
  const outcomes = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      send(i % 2 === 0 ? a.url : b.url, "POST", "/v1/charges", {
        key: keys.keys.secretDev,
        body: chargeBody(key, 4242),
        headers: { "idempotency-key": key }
      }).then(tally)
    )
  )
  const ok = outcomes.filter((o) => statusOf(o) === 200)
  // The others are 409 (the key is in use by the request that runs).
  expect(outcomes.filter((o) => ![200, 409].includes(statusOf(o)))).toEqual([])
  expect(ok.length).toBeGreaterThan(0)
  const ids = new Set(ok.map((o) => (o.kind === "answer" ? (o.body as { id: string }).id : "")))
  expect(ids.size).toBe(1)
  const rows = await count(
    db,
    `SELECT id FROM charges WHERE metadata->>'idempotency_key' = '${key}'`
  )
  expect(rows).toBe(1)
})

it("with both dispatchers running, each webhook event is delivered exactly once", async () => {
  const endpoint = tally(
    await send(a.url, "POST", "/v1/webhook-endpoints", {
      key: keys.keys.secretDev,
      body: { url: `${hooks.url}/cluster`, enabledEvents: ["*"] }
    })
  )
  expect(endpoint).toMatchObject({ status: 200 })
  const N = 60
  const made = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      send(i % 2 === 0 ? a.url : b.url, "POST", "/v1/charges", {
        key: keys.keys.secretDev,
        body: chargeBody(`cluster-${i}`, 1000 + i),
        headers: { "idempotency-key": `cluster-${i}` }
      }).then(tally)
    )
  )
  expect(made.every((o) => statusOf(o) === 200)).toBe(true)
  const chargeIds = new Set(
    made.map((o) => (o.kind === "answer" ? (o.body as { id: string }).id : ""))
  )
  // The events of these charges (the charge made before the endpoint existed has none to deliver).
  const events = (
    await db.query<{ id: string; object: string }>(
      "SELECT id, data->'object'->>'id' AS object FROM events"
    )
  ).filter((e) => chargeIds.has(e.object))
  expect(new Set(events.map((e) => e.object)).size).toBe(N)
  // Wait until every delivery is recorded as finished, so no second attempt is still to come,
  // and these events each have theirs: an earlier test's event fanned out to the new endpoint
  // is a delivery too, so counting every delivery could stop the wait before these all exist.
  const ours = events.map((e) => `'${e.id}'`).join(", ")
  await eventually("every delivery succeeded", async () => {
    const open = await count(db, "SELECT id FROM webhook_deliveries WHERE status <> 'succeeded'")
    const queued = await count(
      db,
      `SELECT DISTINCT event_id FROM webhook_deliveries WHERE event_id IN (${ours})`
    )
    return open === 0 && queued === events.length
  })
  const perEvent = new Map<string, number>()
  for (const d of hooks.received) perEvent.set(d.eventId, (perEvent.get(d.eventId) ?? 0) + 1)
  const undelivered = events.filter((e) => !perEvent.has(e.id)).length
  const twice = [...perEvent.values()].filter((n) => n > 1).length
  expect(undelivered).toBe(0)
  expect(twice).toBe(0)
  expect(serverErrors).toBe(0)
  const charges = await count(db, "SELECT id FROM charges")
  record({
    scenario: "3. two processes, one PostgreSQL, one Redis",
    requestsSent: sent,
    faultsInjected: "none (concurrency: 50 racing creates on one key across 2 processes)",
    acknowledgedWrites: N + 1,
    writesFound: charges,
    duplicates: twice + (charges - (N + 1)),
    serverErrors,
    undeliveredEvents: undelivered,
    notes: `rate limit ${LIMIT}/window exact across both: 1 × 429 of ${LIMIT + 1}; ${events.length} events each delivered once`
  })
})

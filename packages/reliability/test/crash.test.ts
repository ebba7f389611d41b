/**
 * Scenario 1, crash under load: `levy serve --store postgres` is killed with SIGKILL while a
 * client creates charges with Idempotency-Keys, then restarted; the client retries every
 * request it did not see acknowledged, with its key. Afterwards, from the database: each
 * acknowledged charge exists once, no key made two charges, every charge has its event, and
 * every event reaches the webhook receiver.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { count, type Database, throwaway } from "./support/Database.js"
import { record } from "./support/Figures.js"
import { send } from "./support/Http.js"
import { type Attempt, createOnce, pool } from "./support/Load.js"
import { eventually, type Receiver, receiver } from "./support/Receiver.js"
import { devKeys, type Serving, serve } from "./support/Serve.js"

const REQUESTS = 300
const KILL_AFTER = 100
const CONCURRENCY = 8

let db: Database
let hooks: Receiver
const dataDir = mkdtempSync(join(tmpdir(), "levy-crash-"))
const servers: Array<Serving> = []

beforeAll(async () => {
  db = await throwaway("levy_rel_crash")
  hooks = await receiver()
})
afterAll(async () => {
  for (const s of servers) await s.kill()
  await hooks?.close()
  await db?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

it("SIGKILL mid-load: acknowledged charges exist once, retried keys charge once, events all delivered", async () => {
  const first = await serve({ databaseUrl: db.url, dataDir })
  servers.push(first)
  const secret = devKeys(dataDir).keys.secretDev
  const endpoint = await send(first.url, "POST", "/v1/webhook-endpoints", {
    key: secret,
    body: { url: `${hooks.url}/crash`, enabledEvents: ["*"] }
  })
  expect(endpoint.kind === "answer" && endpoint.status).toBe(200)

  const attempts: Array<Attempt> = Array.from({ length: REQUESTS }, (_, i) => ({
    key: `crash-${i}`,
    amount: 1000 + i,
    chargeId: undefined,
    last: undefined
  }))
  let sent = 0
  let serverErrors = 0
  const acknowledged = () => attempts.filter((a) => a.chargeId !== undefined).length
  const tally = async (a: Attempt, base: string) => {
    sent++
    const outcome = await createOnce(base, secret, a)
    if (outcome.kind === "answer" && outcome.status >= 500 && outcome.status !== 503) serverErrors++
  }
  // The kill lands while requests are in flight: the load keeps going until the process is gone.
  const load = pool(attempts, CONCURRENCY, (a) => tally(a, first.url))
  await eventually("charges acknowledged before the kill", () => acknowledged() >= KILL_AFTER)
  await first.kill()
  await load
  const ackedBeforeCrash = new Map(
    attempts.filter((a) => a.chargeId !== undefined).map((a) => [a.key, a.chargeId!])
  )
  expect(ackedBeforeCrash.size).toBeLessThan(REQUESTS)

  const second = await serve({ databaseUrl: db.url, dataDir })
  servers.push(second)
  // Every request goes again with its key: unacknowledged ones until they are acknowledged
  // (a claim the killed process held answers 409 until its lease lapses), acknowledged ones
  // once, which must replay the same charge.
  const replayed = new Map<string, string>()
  await pool(attempts, CONCURRENCY, async (a) => {
    const before = a.chargeId
    for (let i = 0; ; i++) {
      a.chargeId = undefined
      await tally(a, second.url)
      if (a.chargeId !== undefined) break
      if (i > 200) throw new Error(`${a.key} never acknowledged: ${JSON.stringify(a.last)}`)
      await new Promise((r) => setTimeout(r, 500))
    }
    if (before !== undefined) replayed.set(a.key, a.chargeId!)
  })
  for (const [key, id] of ackedBeforeCrash) expect(replayed.get(key), key).toBe(id)

  // From the database: one charge per key, each acknowledged id exactly once.
  const byKey = await db.query<{ k: string; n: string; id: string }>(
    `SELECT metadata->>'idempotency_key' AS k, count(*) AS n, min(id) AS id
       FROM charges GROUP BY 1`
  )
  const duplicates = byKey.filter((r) => Number(r.n) > 1)
  expect(duplicates).toEqual([])
  expect(byKey).toHaveLength(REQUESTS)
  const stored = new Map(byKey.map((r) => [r.k, r.id]))
  for (const a of attempts) expect(stored.get(a.key), a.key).toBe(a.chargeId)

  // Every charge has its event, and every event reaches the receiver.
  const withoutEvent = await count(
    db,
    `SELECT c.id FROM charges c WHERE NOT EXISTS
       (SELECT 1 FROM events e WHERE e.data->'object'->>'id' = c.id)`
  )
  expect(withoutEvent).toBe(0)
  const events = await db.query<{ id: string }>("SELECT id FROM events")
  const undelivered = () => {
    const got = new Set(hooks.received.map((d) => d.eventId))
    return events.filter((e) => !got.has(e.id)).length
  }
  await eventually("every event at the receiver", () => undelivered() === 0, 60_000)
  expect(serverErrors).toBe(0)

  record({
    scenario: "1. crash under load (SIGKILL, restart, retry)",
    requestsSent: sent,
    faultsInjected: "1 SIGKILL of levy serve mid-load",
    acknowledgedWrites: attempts.length,
    writesFound: byKey.length,
    duplicates: duplicates.length,
    serverErrors,
    undeliveredEvents: undelivered(),
    notes: `${ackedBeforeCrash.size} acknowledged before the kill; ${events.length} events`
  })
}, 150_000)

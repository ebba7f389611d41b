/**
 * Scenario 5, isolation and secrets against a real `levy serve` on PostgreSQL: every endpoint
 * tried with another account's ids and with the other mode's key answers 404 (and lists show
 * nothing of the other account); publishable keys on secret endpoints get 403; no API key
 * or webhook secret is in the database in plain text (every text column of every table
 * scanned); webhook targets inside our own network are refused.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { LevyApi } from "@levy/api"
import { afterAll, beforeAll, expect, it } from "vitest"
import { count, type Database, throwaway } from "./support/Database.js"
import { endpoints, fill } from "./support/Endpoints.js"
import { record } from "./support/Figures.js"
import { type Outcome, send } from "./support/Http.js"
import { type DevKeys, devKeys, type Serving, serve } from "./support/Serve.js"

const ROOT = resolve(import.meta.dirname, "../../..")

let db: Database
let server: Serving
let a: DevKeys
let b: DevKeys
const dataDir = mkdtempSync(join(tmpdir(), "levy-isolation-"))
const ids: Record<string, string> = {}
const secrets: Array<string> = []
let sent = 0
let serverErrors = 0

const call = async (...args: Parameters<typeof send>): Promise<Outcome> => {
  sent++
  const o = await send(...args)
  if (o.kind === "answer" && o.status >= 500) serverErrors++
  return o
}
const ok = async (...args: Parameters<typeof send>) => {
  const o = await call(...args)
  if (o.kind !== "answer" || o.status !== 200)
    throw new Error(`${args[1]} ${args[2]}: ${JSON.stringify(o)}`)
  return o.body as { id: string; secret?: string; data?: Array<{ id: string }> }
}
const statusOf = (o: Outcome) => (o.kind === "answer" ? o.status : -1)

beforeAll(async () => {
  db = await throwaway("levy_rel_isolation")
  server = await serve({ databaseUrl: db.url, dataDir })
  a = devKeys(dataDir)
  // Another account on the same store, made by the CLI.
  const out = execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "packages/server/src/main.ts",
      "accounts",
      "create",
      "--json",
      "--store",
      "postgres"
    ].concat(["--data-dir", mkdtempSync(join(tmpdir(), "levy-isolation-b-"))]),
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url }, encoding: "utf8" }
  )
  b = JSON.parse(out.slice(out.indexOf("{"))) as DevKeys
  secrets.push(...Object.values(a.keys), ...Object.values(b.keys))

  // Account A's objects in test mode, one of each kind an id path names.
  const key = a.keys.secretDev
  const charge = await ok(server.url, "POST", "/v1/charges", {
    key,
    body: { amount: 5000, currency: "usd", source: "tok_visa" }
  })
  ids.charges = charge.id
  await ok(server.url, "POST", "/v1/charges", {
    key,
    body: { amount: 6000, currency: "usd", source: "tok_chargeDispute" }
  })
  ids.refunds = (
    await ok(server.url, "POST", "/v1/refunds", { key, body: { charge: charge.id, amount: 1000 } })
  ).id
  ids.disputes = (await ok(server.url, "GET", "/v1/disputes", { key })).data![0]!.id
  const endpoint = await ok(server.url, "POST", "/v1/webhook-endpoints", {
    key,
    body: { url: "http://127.0.0.1:9/hooks", enabledEvents: ["*"] }
  })
  ids["webhook-endpoints"] = endpoint.id
  secrets.push(endpoint.secret!)
  ids.events = (await ok(server.url, "GET", "/v1/events", { key })).data![0]!.id
})
afterAll(async () => {
  await server?.kill()
  await db?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** The resource a path is about: `/v1/<resource>/…`. */
const resourceOf = (path: string) => path.split("/")[2]!

/** A body each write endpoint accepts from its owner, so only the account or mode differs. */
const BODY: Record<string, unknown> = {
  "POST /v1/webhook-endpoints/:id": { description: "changed" },
  "POST /v1/refunds": { charge: "", amount: 100 }
}

let tried = 0

it("another account's ids, and the other mode's key, find nothing: 404 (lists show none of them)", async () => {
  const mine = new Set(Object.values(ids))
  for (const e of endpoints()) {
    if (resourceOf(e.path) === "regions" || e.path === "/v1/estimates") continue
    const body =
      e.path === "/v1/refunds" && e.method === "POST"
        ? { charge: ids.charges, amount: 100 }
        : (BODY[`${e.method} ${e.path}`] ?? (e.method === "POST" ? {} : undefined))
    for (const key of [b.keys.secretDev, a.keys.secretProd]) {
      if (e.params.length > 0 || (e.method === "POST" && e.path === "/v1/refunds")) {
        const path = fill(e, () => ids[resourceOf(e.path)]!)
        const reply = await call(server.url, e.method, path, {
          key,
          ...(body === undefined ? {} : { body })
        })
        tried++
        expect(statusOf(reply), `${e.method} ${path}`).toBe(404)
      } else if (e.method === "GET") {
        const reply = await call(server.url, "GET", e.path, { key })
        tried++
        expect(statusOf(reply), e.path).toBe(200)
        const text = JSON.stringify(reply.kind === "answer" ? reply.body : "")
        expect(
          [...mine].filter((id) => text.includes(id)),
          e.path
        ).toEqual([])
      }
    }
  }
  // The owner still sees everything (the 404s above are about who asks, not what exists).
  const own = await call(server.url, "GET", `/v1/charges/${ids.charges}`, { key: a.keys.secretDev })
  expect(statusOf(own)).toBe(200)
})

it("publishable keys on secret endpoints: 403", async () => {
  for (const e of endpoints()) {
    const path = fill(e, (p) => (p === "code" ? "US-NY" : (ids[resourceOf(e.path)] ?? "x")))
    if (LevyApi.allowsPublishableKey(e.method, new URL(path, "http://x").pathname)) continue
    const reply = await call(server.url, e.method, path, {
      key: a.keys.publishableDev,
      ...(e.method === "POST" ? { body: {} } : {})
    })
    tried++
    expect(statusOf(reply), `${e.method} ${path}`).toBe(403)
  }
})

it("no API key or webhook secret is stored in plain text in any column", async () => {
  expect(secrets.length).toBe(9)
  const columns = await db.query<{ t: string; c: string }>(
    `SELECT table_name AS t, column_name AS c FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'bytea')`
  )
  expect(columns.length).toBeGreaterThan(10)
  // A distinctive part of a value (its random tail), found as text, JSON or bytes.
  const columnsHolding = async (value: string) => {
    const tail = value.slice(-24)
    const hits: Array<string> = []
    for (const { t, c } of columns) {
      const n = await count(
        db,
        `SELECT 1 FROM "${t}" WHERE encode(convert_to("${c}"::text, 'UTF8'), 'escape') LIKE '%${tail}%'`
      )
      if (n > 0) hits.push(`${t}.${c}`)
    }
    return hits
  }
  // The scan finds what is there: a charge id is stored in plain text.
  expect(await columnsHolding(ids.charges!)).toContain("charges.id")
  for (const secret of secrets) expect(await columnsHolding(secret)).toEqual([])
})

it("webhook targets inside our own network are refused (and nothing is stored)", async () => {
  const before = await count(db, "SELECT id FROM webhook_endpoints")
  const live = [
    "http://example.com/hooks",
    "https://127.0.0.1/hooks",
    "https://localhost/hooks",
    "https://169.254.169.254/latest/meta-data",
    "https://10.0.0.1/hooks",
    "https://192.168.1.1/hooks",
    "https://100.64.0.1/hooks",
    "https://0.0.0.0/hooks",
    "https://[::1]/hooks",
    "https://[::ffff:127.0.0.1]/hooks",
    "https://[fd00::1]/hooks",
    "https://2130706433/hooks"
  ]
  const test = [
    "http://169.254.169.254/latest/meta-data",
    "http://10.0.0.1/hooks",
    "http://[fe80::1]/hooks"
  ]
  const refused = async (key: string, url: string) => {
    const reply = await call(server.url, "POST", "/v1/webhook-endpoints", {
      key,
      body: { url, enabledEvents: ["*"] }
    })
    tried++
    return statusOf(reply) === 400
  }
  for (const url of live) expect(await refused(a.keys.secretProd, url), url).toBe(true)
  for (const url of test) expect(await refused(a.keys.secretDev, url), url).toBe(true)
  expect(await count(db, "SELECT id FROM webhook_endpoints")).toBe(before)
  expect(serverErrors).toBe(0)
  record({
    scenario: "5. isolation and secrets",
    requestsSent: sent,
    faultsInjected: `${tried} cross-account / cross-mode / publishable / SSRF attempts`,
    acknowledgedWrites: 4,
    writesFound: 4,
    duplicates: 0,
    serverErrors,
    undeliveredEvents: 0,
    notes:
      "every cross-account and cross-mode id → 404; publishable on secret endpoints → 403; 9 secrets, 0 found in plain text"
  })
})

/**
 * Scenario 5, isolation and secrets against a real `levy serve` on PostgreSQL: every endpoint
 * tried with another account's ids and with the other mode's key answers 404 (and lists show
 * nothing of the other account); publishable keys on secret endpoints get 403; no API key
 * or webhook secret is in the database in plain text (every text column of every table
 * scanned, stored idempotent responses included) nor in the server's output; webhook targets
 * inside our own network are refused (loopback too: the server is not run for development);
 * a publishable key replaying a secret key's Idempotency-Key gets 403; one live key cannot
 * apply a gross_up raise nor approve it, nor replace the live processor (held, its credentials
 * sealed while held and scanned for with the other secrets); text with NUL is a 400.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { LevyApi } from "@levy/api"
import { afterAll, beforeAll, expect, it } from "vitest"
import { pathFor } from "../../../scripts/levyBinary.js"
import { type FakeStripe, startFakeStripe } from "../../server/src/fakes/FakeStripe.js"
import { count, type Database, throwaway } from "./support/Database.js"
import { endpoints, fill } from "./support/Endpoints.js"
import { record } from "./support/Figures.js"
import { type Outcome, send } from "./support/Http.js"
import { type DevKeys, type Serving, serve } from "./support/Serve.js"

const ROOT = resolve(import.meta.dirname, "../../..")
/**
 * A global unicast address, a target any mode accepts: example.com's (IANA's host for examples).
 * Documentation ranges such as TEST-NET-3 are refused since the second review (docs/webhooks.md).
 */
const ENDPOINT_URL = "http://93.184.215.14/hooks"
/** A Stripe account's live key at the local fake: what one live key asks to connect. */
const STRIPE_KEY = "sk_live_isolationFake0123456789abcdef"

let db: Database
let fake: FakeStripe
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

/** An account made by `levy accounts create --json` on the scenario's database. */
const createAccount = (): DevKeys => {
  const out = execFileSync(
    process.execPath,
    [pathFor("reliability"), "accounts", "create", "--json", "--store", "postgres"].concat([
      "--data-dir",
      mkdtempSync(join(tmpdir(), "levy-isolation-acct-"))
    ]),
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url }, encoding: "utf8" }
  )
  return JSON.parse(out.slice(out.indexOf("{"))) as DevKeys
}

beforeAll(async () => {
  db = await throwaway("levy_rel_isolation")
  // As in production: PostgreSQL, not run for development (no account made and printed by
  // the server, no loopback webhook targets).
  fake = await startFakeStripe({ secretKey: STRIPE_KEY })
  server = await serve({
    databaseUrl: db.url,
    dataDir,
    dev: false,
    env: { LEVY_STRIPE_API_BASE_URL: fake.url }
  })
  a = createAccount()
  // Another account on the same store.
  b = createAccount()
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
  // With an Idempotency-Key: its stored response (which holds the signing secret) is scanned too.
  const endpoint = await ok(server.url, "POST", "/v1/webhook-endpoints", {
    key,
    body: { url: ENDPOINT_URL, enabledEvents: ["*"] },
    headers: { "idempotency-key": "isolation-endpoint" }
  })
  ids["webhook-endpoints"] = endpoint.id
  secrets.push(endpoint.secret!)
  ids.events = (await ok(server.url, "GET", "/v1/events", { key })).data![0]!.id
  // Account B's live processor asked for by one key: held, its credentials sealed while held.
  await ok(server.url, "POST", "/v1/processor-config", {
    key: b.keys.secretProd,
    body: { processor: "stripe", credentials: { secretKey: STRIPE_KEY } }
  })
  secrets.push(STRIPE_KEY)
})
afterAll(async () => {
  await server?.kill()
  await fake?.close()
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

/** GET paths of one object per account and mode rather than a list. */
const SINGLETONS = new Set(["/v1/processor-config", "/v1/processor-config/pending"])

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
        // A singleton (the processor configuration) this account and mode never made is a 404.
        expect(statusOf(reply), e.path).toBe(SINGLETONS.has(e.path) ? 404 : 200)
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
  expect(secrets.length).toBe(10)
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
  // NAT64 and 6to4 forms of internal IPv4, special-purpose, reserved, multicast, broadcast.
  const special = [
    "https://[64:ff9b::a00:1]/hooks",
    "https://[2002:7f00:1::1]/hooks",
    "https://192.0.0.8/hooks",
    "https://198.18.0.1/hooks",
    "https://240.0.0.1/hooks",
    "https://224.0.0.1/hooks",
    "https://255.255.255.255/hooks"
  ]
  live.push(...special)
  const test = [
    "http://169.254.169.254/latest/meta-data",
    "http://10.0.0.1/hooks",
    "http://[fe80::1]/hooks",
    // A server not run for development: a test key may not make it probe its own ports.
    "http://127.0.0.1:5432/hooks",
    "http://localhost:6379/hooks",
    "http://[::1]:22/hooks",
    ...special.map((u) => u.replace("https:", "http:"))
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
})

it("a publishable key replaying a secret key's Idempotency-Key and body gets a 403, not the stored response", async () => {
  const reply = await call(server.url, "POST", "/v1/webhook-endpoints", {
    key: a.keys.publishableDev,
    body: { url: ENDPOINT_URL, enabledEvents: ["*"] },
    headers: { "idempotency-key": "isolation-endpoint" }
  })
  tried++
  expect(statusOf(reply)).toBe(403)
  expect(JSON.stringify(reply)).not.toContain("whsec_")
})

it("one live key cannot apply a fee raise that is not a rate change (gross_up): it waits for a second key", async () => {
  const reply = await call(server.url, "POST", "/v1/fee-configs", {
    key: a.keys.secretProd,
    body: { model: "gross_up" }
  })
  tried++
  expect(statusOf(reply)).toBe(200)
  expect(reply.kind === "answer" && reply.body).toMatchObject({ updated: false, model: "add_on" })
  const held = reply.kind === "answer" ? (reply.body as { pendingChange?: { id: string } }) : {}
  const self = await call(server.url, "POST", "/v1/fee-configs/pending/approve", {
    key: a.keys.secretProd,
    body: { id: held.pendingChange?.id }
  })
  tried++
  expect(statusOf(self)).toBe(403)
})

it("one live key cannot replace the live processor: held, nothing in force, self-approval 403", async () => {
  const key = b.keys.secretProd
  const none = await call(server.url, "GET", "/v1/processor-config", { key })
  tried++
  expect(statusOf(none)).toBe(404)
  const held = await call(server.url, "GET", "/v1/processor-config/pending", { key })
  tried++
  expect(held.kind === "answer" && held.body).toMatchObject({ action: "save", status: "pending" })
  const id = held.kind === "answer" ? (held.body as { id: string }).id : ""
  const self = await call(server.url, "POST", "/v1/processor-config/pending/approve", {
    key,
    body: { id }
  })
  tried++
  expect(statusOf(self)).toBe(403)
  expect(statusOf(await call(server.url, "GET", "/v1/processor-config", { key }))).toBe(404)
})

it("text with NUL is a 400 naming the field, never a 503 from PostgreSQL", async () => {
  const reply = await call(server.url, "POST", "/v1/charges", {
    key: a.keys.secretDev,
    body: { amount: 1000, currency: "usd", metadata: { note: "a\u0000b" } }
  })
  tried++
  expect(statusOf(reply)).toBe(400)
  expect(reply.kind === "answer" && reply.body).toMatchObject({ error: { param: "metadata.note" } })
})

it("no secret key is in the server's output; /docs has a Content-Security-Policy", async () => {
  const output = server.output()
  expect(output).not.toMatch(/sk_(dev|prod)_service_[0-9A-Za-z]{32}/)
  for (const secret of secrets) expect(output).not.toContain(secret)
  const docs = await fetch(`${server.url}/docs`)
  await docs.text()
  expect(docs.headers.get("content-security-policy")).toContain("default-src 'none'")
  expect(serverErrors).toBe(0)
  record({
    scenario: "5. isolation and secrets",
    requestsSent: sent,
    faultsInjected: `${tried} cross-account / cross-mode / publishable / SSRF / replay / fee-raise / NUL attempts`,
    acknowledgedWrites: 4,
    writesFound: 4,
    duplicates: 0,
    serverErrors,
    undeliveredEvents: 0,
    notes:
      "every cross-account and cross-mode id → 404; publishable on secret endpoints and on a secret key's Idempotency-Key → 403; gross_up by one live key held, self-approval 403; a live processor by one key held, self-approval 403; NUL → 400; 10 secrets (a held processor key among them), 0 found in plain text or in the server's output"
  })
})

/**
 * Scenario 7, a crash in the middle of a payment (docs/reliability.md, docs/processors.md "How
 * recovery works"): `levy serve --store postgres` in LIVE mode, Stripe configured through
 * `/v1/processor-config` (approved by the owner with `levy processors approve`) and pointed at
 * the local fake Stripe (`LEVY_STRIPE_API_BASE_URL`),
 * kills itself with SIGKILL right after the fake accepted a payment or a refund and before
 * Levy settled it (`LEVY_TEST_CRASH_AFTER_PROCESSOR=1`). After a restart without the hook, the
 * client's retries with the same Idempotency-Key, or the recovery sweeper alone, finish the
 * job. For every key: exactly one payment (or refund) at the fake, one row, one event, and the
 * answer is that row.
 *
 * Timing: every crash leaves the killed request's idempotency claim (30 s lease) and a pending
 * record (60 s lease, the sweeper's), so all crashes happen first (the sweeper-only case first
 * of all) and one restarted server then polls them all at once: the run takes about one
 * sweeper lease, not one per key.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pathFor } from "../../../scripts/levyBinary.js"
import { type FakeStripe, startFakeStripe } from "../../server/src/fakes/FakeStripe.js"
import { type Database, throwaway } from "./support/Database.js"
import { type Outcome, send } from "./support/Http.js"
import { eventually } from "./support/Receiver.js"
import { devKeys, type Serving, serve } from "./support/Serve.js"

const ROOT = resolve(import.meta.dirname, "../../..")

/** The fake's secret key: a live one, as the adapter refuses a test key in live mode. */
const STRIPE_KEY = "sk_live_levy_crash_fake"
const CHARGE_KEYS = ["crash-charge-0", "crash-charge-1", "crash-charge-2"] as const
const SWEEP_KEY = "crash-charge-sweeper"
const REFUND_KEY = "crash-refund-0"
const REFUND_AMOUNT = 4_000

let db: Database
let fake: FakeStripe
let live: string
let env: Record<string, string>
const dataDir = mkdtempSync(join(tmpdir(), "levy-processor-crash-"))
const servers: Array<Serving> = []
let restarted: Serving

/** A US-NY credit card: Levy's default fee config collects a (capped) fee there. */
const chargeBody = (order: string, amount: number) => ({
  amount,
  currency: "usd",
  source: "pm_card_visa",
  region: "US-NY",
  metadata: { order }
})
const refundBody = (charge: string) => ({ charge, amount: REFUND_AMOUNT })

const post = (base: string, path: string, key: string, body: unknown) =>
  send(base, "POST", path, {
    key: live,
    body,
    headers: { "idempotency-key": key },
    timeoutMs: 20_000
  })

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`

interface Row {
  readonly id: string
  readonly status: string
  readonly processor_reference: string | null
  readonly amount_refunded?: string
  readonly total_amount?: string
  readonly convenience_fee?: string
}

/** What one crashed request left and what recovery made of it: the figures of the table. */
interface Case {
  readonly key: string
  readonly kind: "charge" | "refund"
  readonly path: string
  readonly body: unknown
  /** Set by the crash. */
  died?: { readonly signal: NodeJS.Signals | null; readonly outcome: Outcome }
  /** The first 200 after the restart. */
  answer?: { readonly id: string; readonly replayed: boolean }
  conflicts: number
  /** 503 `api_error` answers (a store outage), which a client retries with its key. */
  unavailable: number
  unexpected: Array<string>
  /** Measured at the end. */
  counts?: Counts
}

interface Counts {
  readonly atFake: number
  readonly postsToFake: number
  readonly rows: number
  readonly status: string
  readonly events: number
  readonly settledBy: string
}

const cases: Array<Case> = [SWEEP_KEY, ...CHARGE_KEYS].map((key, i) => ({
  key,
  kind: "charge",
  path: "/v1/charges",
  body: chargeBody(key, 10_000 + i),
  conflicts: 0,
  unavailable: 0,
  unexpected: []
}))
const caseOf = (key: string) => cases.find((c) => c.key === key)!
let refunded: { chargeId: string; paymentIntent: string }

beforeAll(async () => {
  db = await throwaway("levy_rel_proc_crash")
  fake = await startFakeStripe({ secretKey: STRIPE_KEY })
  env = { LEVY_STRIPE_API_BASE_URL: fake.url }
  // Setup, with no crash hook: Stripe saved for live mode (one read-only call to the fake) and
  // the succeeded live charge the refund case refunds.
  const setup = await serve({ databaseUrl: db.url, dataDir, env })
  servers.push(setup)
  live = devKeys(dataDir).keys.secretProd
  const saved = await send(setup.url, "POST", "/v1/processor-config", {
    key: live,
    body: { processor: "stripe", credentials: { secretKey: STRIPE_KEY } }
  })
  expect(saved).toMatchObject({ kind: "answer", status: 200, body: { applied: false } })
  // A live processor waits for a second key; the owner approves it on the store (the CLI).
  const held = (saved as { body: { pendingChange: { id: string } } }).body.pendingChange.id
  execFileSync(
    process.execPath,
    [pathFor("reliability"), "processors", "approve", held, "--store", "postgres"].concat([
      "--data-dir",
      dataDir
    ]),
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url }, encoding: "utf8" }
  )
  const base = await post(
    setup.url,
    "/v1/charges",
    "crash-refund-base",
    chargeBody("refund", 9_000)
  )
  expect(base).toMatchObject({ kind: "answer", status: 200, body: { status: "succeeded" } })
  const charge = (base as { body: { id: string; convenienceFee: number } }).body
  expect(charge.convenienceFee).toBeGreaterThan(0)
  refunded = { chargeId: charge.id, paymentIntent: fake.payments()[0]!.id }
  cases.push({
    key: REFUND_KEY,
    kind: "refund",
    path: "/v1/refunds",
    body: refundBody(charge.id),
    conflicts: 0,
    unavailable: 0,
    unexpected: []
  })
  await setup.stop()
}, 60_000)

afterAll(async () => {
  for (const s of servers) await s.kill()
  await fake?.close()
  await db?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** The charge rows a client key made, found by the key Levy stored and by the order in metadata. */
const chargeRows = (key: string) =>
  db.query<Row>(
    `SELECT id, status, processor_reference, amount_refunded::text, total_amount::text,
            convenience_fee::text FROM charges
      WHERE livemode AND (idempotency_key = ${literal(key)} OR metadata->>'order' = ${literal(key)})`
  )
const eventCount = (type: string, objectId: string) =>
  db
    .query<{ n: string }>(
      `SELECT count(*) AS n FROM events
        WHERE type = ${literal(type)} AND data->'object'->>'id' = ${literal(objectId)}`
    )
    .then((rows) => Number(rows[0]!.n))
/** PaymentIntents the fake created for an order, and every POST that asked for one. */
const fakePayments = (order: string) => fake.payments().filter((p) => p.metadata.order === order)
const fakePosts = (order: string) =>
  fake
    .requests()
    .filter(
      (r) =>
        r.method === "POST" &&
        r.path === "/v1/payment_intents" &&
        (r.params.metadata as Record<string, string> | undefined)?.order === order
    )

describe("SIGKILL between the processor's answer and Levy's settle (live mode, fake Stripe)", () => {
  it("each request dies with no answer after the fake accepted it; the record is left pending", async () => {
    // One crash-armed server per case, killed by that case's payment only (the hook is armed
    // for its key): on a slow machine an armed server's sweeper may meet an earlier case's
    // pending record, and settles it instead of dying there.
    for (const c of cases) {
      const server = await serve({
        databaseUrl: db.url,
        dataDir,
        env: { ...env, LEVY_TEST_CRASH_AFTER_PROCESSOR: c.key }
      })
      servers.push(server)
      const outcome = await post(server.url, c.path, c.key, c.body)
      await server.exited
      c.died = { signal: server.child.signalCode, outcome }
      expect(c.died.signal, c.key).toBe("SIGKILL")
      expect(outcome.kind, `${c.key}: the client got no answer`).toBe("network")
      if (c.kind === "charge") {
        // The fake took the money; Levy holds a pending charge for it and nothing settled.
        expect(fakePayments(c.key), c.key).toHaveLength(1)
        expect(fakePayments(c.key)[0]!.status).toBe("succeeded")
        const rows = await chargeRows(c.key)
        expect(
          rows.map((r) => r.status),
          c.key
        ).toEqual(["pending"])
        expect(await eventCount("charge.succeeded", rows[0]!.id)).toBe(0)
      } else {
        const payment = fake.payments().find((p) => p.id === refunded.paymentIntent)!
        expect(payment.refunds, c.key).toHaveLength(1)
        const rows = await db.query<Row>(
          `SELECT id, status, processor_reference FROM refunds WHERE charge_id = ${literal(refunded.chargeId)}`
        )
        expect(rows.map((r) => r.status)).toEqual(["pending"])
      }
    }
  }, 240_000)

  it("after a restart, the retried keys answer once: one payment, one record, one event each", async () => {
    restarted = await serve({
      databaseUrl: db.url,
      dataDir,
      env: { ...env, LEVY_RECOVERY_INTERVAL: "1" }
    })
    servers.push(restarted)
    // What follows is recovery only if every request was killed in the window.
    expect(cases.map((c) => c.died?.signal)).toEqual(cases.map(() => "SIGKILL"))
    const retried = cases.filter((c) => c.key !== SWEEP_KEY)
    // Poll each key until it answers: 409 `idempotency_key_in_use` while the dead request's
    // claim holds (30 s); any other answer but a 503 (below) is recorded and fails the test.
    await Promise.all(
      retried.map(async (c) => {
        for (let attempt = 1; ; attempt++) {
          const outcome = await post(restarted.url, c.path, c.key, c.body)
          if (outcome.kind === "answer" && outcome.status === 200) {
            c.answer = {
              id: (outcome.body as { id: string }).id,
              replayed: outcome.headers["idempotent-replayed"] === "true"
            }
            return
          }
          const error =
            outcome.kind === "answer"
              ? (outcome.body as { error?: { type?: string; code?: string } }).error
              : undefined
          if (
            outcome.kind === "answer" &&
            outcome.status === 409 &&
            error?.code === "idempotency_key_in_use"
          )
            c.conflicts++
          // The store unreachable for a moment: the documented answer is a 503 to retry with the key.
          else if (
            outcome.kind === "answer" &&
            outcome.status === 503 &&
            error?.type === "api_error"
          )
            c.unavailable++
          else c.unexpected.push(JSON.stringify(outcome))
          if (attempt > 400) throw new Error(`${c.key} never answered: ${JSON.stringify(outcome)}`)
          await new Promise((r) => setTimeout(r, 250))
        }
      })
    )
    for (const key of CHARGE_KEYS) {
      const c = caseOf(key)
      expect(c.unexpected, key).toEqual([])
      const rows = await chargeRows(key)
      expect(rows, key).toHaveLength(1)
      const [row] = rows
      const payments = fakePayments(key)
      expect(payments, key).toHaveLength(1)
      expect(fakePosts(key), key).toHaveLength(1)
      expect(row).toMatchObject({ id: c.answer!.id, status: "succeeded" })
      expect(row!.processor_reference).toBe(payments[0]!.id)
      expect(payments[0]!.idempotencyKey).toBe(`levy_${row!.id}`)
      // The fake was asked for the total, fee included.
      expect(Number(row!.convenience_fee)).toBeGreaterThan(0)
      expect(payments[0]!.amount).toBe(Number(row!.total_amount))
      expect(await eventCount("charge.succeeded", row!.id), key).toBe(1)
      expect(await eventCount("charge.failed", row!.id), key).toBe(0)
    }
  }, 90_000)

  it("the refund retried after the restart: one refund at the fake, one row, one event, counted once", async () => {
    const c = caseOf(REFUND_KEY)
    expect(c.unexpected).toEqual([])
    const payment = fake.payments().find((p) => p.id === refunded.paymentIntent)!
    expect(payment.refunds).toHaveLength(1)
    const rows = await db.query<Row & { amount: string }>(
      `SELECT id, status, processor_reference, amount::text FROM refunds
        WHERE charge_id = ${literal(refunded.chargeId)}`
    )
    expect(rows).toHaveLength(1)
    const [row] = rows
    expect(row).toMatchObject({ id: c.answer!.id, status: "succeeded" })
    expect(row!.processor_reference).toBe(payment.refunds[0]!.id)
    // What the fake gave back is what the refund says, and the charge counts it once.
    expect(payment.amountRefunded).toBe(Number(row!.amount))
    const [charge] = await db.query<Row>(
      `SELECT id, status, processor_reference, amount_refunded::text FROM charges
        WHERE id = ${literal(refunded.chargeId)}`
    )
    expect(Number(charge!.amount_refunded)).toBe(Number(row!.amount))
    expect(await eventCount("charge.refunded", refunded.chargeId)).toBe(1)
    // Resumed by asking Stripe (List refunds of the PaymentIntent), not by refunding again:
    // the only POST is the one the crash cut short.
    const refundRequests = fake.requests().filter((r) => r.path === "/v1/refunds")
    expect(refundRequests.filter((r) => r.method === "POST")).toHaveLength(1)
    expect(refundRequests.filter((r) => r.method === "GET").length).toBeGreaterThan(0)
  })

  it("the charge nobody retried is settled by the sweeper alone; the late retry replays it", async () => {
    const rowsOf = () => chargeRows(SWEEP_KEY)
    // Its lease (60 s from the crash) lapses, then the sweeper (every 1 s) settles it.
    await eventually(
      "the sweeper settles the pending charge",
      async () => (await rowsOf()).every((r) => r.status !== "pending"),
      80_000
    )
    const rows = await rowsOf()
    expect(rows).toHaveLength(1)
    const [row] = rows
    const payments = fakePayments(SWEEP_KEY)
    expect(payments).toHaveLength(1)
    expect(fakePosts(SWEEP_KEY)).toHaveLength(1)
    expect(row).toMatchObject({ status: "succeeded", processor_reference: payments[0]!.id })
    expect(await eventCount("charge.succeeded", row!.id)).toBe(1)
    // Recovered by a sweeper: the restarted server's, or on a slow machine an armed one's.
    expect(servers.some((s) => s.output().includes("pending charge recovered"))).toBe(true)

    const c = caseOf(SWEEP_KEY)
    const late = await post(restarted.url, c.path, c.key, c.body)
    expect(late).toMatchObject({ kind: "answer", status: 200, body: { id: row!.id } })
    c.answer = {
      id: row!.id,
      replayed: late.kind === "answer" && late.headers["idempotent-replayed"] === "true"
    }
    expect(c.answer.replayed).toBe(true)
    expect(fakePayments(SWEEP_KEY)).toHaveLength(1)
    expect(await chargeRows(SWEEP_KEY)).toHaveLength(1)
  }, 90_000)

  afterAll(async () => {
    await reportCounts()
  })
})

/**
 * Measures every case once more and prints the table docs/reliability.md quotes ("Crash in the
 * middle of a payment"); printed after a failure too, to show what broke.
 */
const reportCounts = async () => {
  if (db === undefined || fake === undefined) return
  const settledBy = (c: Case) =>
    c.answer === undefined
      ? "nobody"
      : c.key === SWEEP_KEY || c.answer.replayed
        ? "sweeper"
        : "retry"
  for (const c of cases) {
    if (c.kind === "charge") {
      const rows = await chargeRows(c.key)
      c.counts = {
        atFake: fakePayments(c.key).length,
        postsToFake: fakePosts(c.key).length,
        rows: rows.length,
        status: rows.map((r) => r.status).join(","),
        events: (await Promise.all(rows.map((r) => eventCount("charge.succeeded", r.id)))).reduce(
          (n, e) => n + e,
          0
        ),
        settledBy: settledBy(c)
      }
    } else {
      const rows = await db.query<Row>(
        `SELECT id, status, processor_reference FROM refunds WHERE charge_id = ${literal(refunded.chargeId)}`
      )
      c.counts = {
        atFake: fake.payments().find((p) => p.id === refunded.paymentIntent)?.refunds.length ?? 0,
        postsToFake: fake.requests().filter((r) => r.method === "POST" && r.path === "/v1/refunds")
          .length,
        rows: rows.length,
        status: rows.map((r) => r.status).join(","),
        events: await eventCount("charge.refunded", refunded.chargeId),
        settledBy: settledBy(c)
      }
    }
  }
  const lines = [
    "| Key | Killed after | Client saw | At the fake | POSTs to the fake | Rows (status) | Events | 409s (503s) before the answer | Settled by | Answer |",
    "| --- | --- | --- | ---: | ---: | --- | ---: | ---: | --- | --- |",
    ...cases.map((c) => {
      const n = c.counts!
      const saw =
        c.died === undefined
          ? "not run"
          : `${c.died.outcome.kind === "network" ? "connection cut" : "an answer"} (${c.died.signal})`
      const answer =
        c.answer === undefined
          ? "none"
          : `the same ${c.kind}${c.answer.replayed ? ", replayed" : ""}`
      return `| ${c.key} | ${c.kind === "charge" ? "PaymentIntent created" : "Refund created"} | ${saw} | ${n.atFake} | ${n.postsToFake} | ${n.rows} (${n.status}) | ${n.events} | ${c.conflicts} (${c.unavailable}) | ${n.settledBy} | ${answer} |`
    })
  ]
  console.log(`\nCrash in the middle of a payment:\n${lines.join("\n")}\n`)
}

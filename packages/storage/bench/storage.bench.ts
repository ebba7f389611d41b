/**
 * Storage throughput and list latency, against the ceiling of the same machine:
 * - chargesPerSec32: charge creations as the server makes them (claim the idempotency key,
 *   then `ChargeRepository.create`: charge + event + stored response), one transaction
 *   each, 32 concurrent writers, PostgreSQL, through the repository layer;
 * - pgbenchPerSec32: pgbench running the same SQL transaction (-c 32, extended protocol
 *   like node-postgres) against a second throwaway database, in rounds alternating with ours;
 * - page1Ms / deepPageMs: a charges list page at the top and 1,000,000 rows deep
 *   (keyset), median latency, after bulk-loading a million rows with INSERT … SELECT
 *   generate_series;
 * - embeddedChargesPerSec: the same transaction on the embedded store (PGlite, one connection).
 * Every database and directory it creates is dropped at the end.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import { median, report } from "../../../scripts/benchmark.js"
import { AccountRepository } from "../src/AccountRepository.js"
import { ChargeRepository, type NewCharge } from "../src/ChargeRepository.js"
import { IdempotencyRepository } from "../src/IdempotencyRepository.js"
import { Ids, random36 } from "../src/Ids.js"
import { SecretBox } from "../src/SecretBox.js"
import * as Storage from "../src/Storage.js"
import type { Tenant } from "../src/Tenant.js"
import { Transactions } from "../src/Transactions.js"

const SERVER = process.env.LEVY_BENCH_PG ?? "postgres://postgres@127.0.0.1:5432"
const WRITERS = 32
const ROUND_MS = 3_000
const ROUNDS = 5
const DEEP = 1_000_000
const T0 = 1_760_000_000
const support = Layer.merge(Ids.layer, SecretBox.layerRandom)

const pgbenchPath = ["/usr/lib/postgresql/15/bin/pgbench"].find(existsSync) ?? "pgbench"

/** Runs SQL on the server's maintenance database. */
const admin = (query: string) =>
  Effect.scoped(
    Effect.flatMap(
      Layer.build(Storage.layerPgClient({ url: `${SERVER}/postgres`, maxConnections: 1 })),
      (ctx) => Context.get(ctx, PgClient.PgClient).unsafe(query)
    )
  )

/** A throwaway database, dropped when the scope closes. */
const database = (prefix: string) =>
  Effect.acquireRelease(
    Effect.sync(() => `${prefix}_${random36(10)}`).pipe(
      Effect.tap((name) => admin(`CREATE DATABASE ${name}`))
    ),
    (name) => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.orDie)
  )

const charge = (tenant: Tenant, id: string, i: number): NewCharge => ({
  id,
  accountId: tenant.accountId,
  livemode: tenant.livemode,
  created: T0 + i,
  amount: 5_000 + (i % 1000),
  convenienceFee: 175,
  totalAmount: 5_175 + (i % 1000),
  currency: "usd",
  status: "succeeded",
  customer: `cus_${i % 100}`,
  description: null,
  metadata: { order: String(i) },
  region: "US-NY",
  cardType: "credit",
  feeBreakdown: { percentage: 145, flatFee: 30, adjustment: 0 },
  compliance: { compliant: true, reasonCode: null, reason: null, rulesetVersion: "2025.1" },
  failureCode: null,
  failureMessage: null,
  details: { source: "tok_visa", billingMode: "direct" }
})

/** One charge creation as the server makes it: claim the key, then write all three together. */
const createCharge = (tenant: Tenant, i: number) =>
  Effect.gen(function* () {
    const tx = yield* Transactions
    const ids = yield* Ids
    const charges = yield* ChargeRepository
    const idempotency = yield* IdempotencyRepository
    const key = yield* ids.make("idk")
    const c = charge(tenant, yield* ids.make("ch"), i)
    const eventId = yield* ids.make("evt")
    yield* tx.run(
      Effect.gen(function* () {
        yield* idempotency.begin(tenant, key, "fingerprint")
        yield* charges.create({
          charge: c,
          event: {
            id: eventId,
            accountId: tenant.accountId,
            livemode: tenant.livemode,
            type: "charge.succeeded",
            data: {
              object: {
                id: c.id,
                amount: c.amount,
                convenienceFee: c.convenienceFee,
                status: c.status
              }
            },
            request: { id: null, idempotencyKey: key },
            created: c.created
          },
          idempotency: {
            key,
            response: { outcome: "succeeded", body: { id: c.id, object: "charge" } }
          }
        })
      })
    )
  })

let counter = 0

/** One timed round of `writers` concurrent loops: transactions per second and this process's CPU per transaction. */
const throughputRound = (tenant: Tenant, writers: number, ms: number) =>
  Effect.gen(function* () {
    const until = performance.now() + ms
    let done = 0
    const started = performance.now()
    const cpu = process.cpuUsage()
    yield* Effect.all(
      Array.from({ length: writers }, () =>
        Effect.gen(function* () {
          while (performance.now() < until) {
            yield* createCharge(tenant, counter++)
            done++
          }
        })
      ),
      { concurrency: "unbounded", discard: true }
    )
    const used = process.cpuUsage(cpu)
    return {
      perSec: done / ((performance.now() - started) / 1000),
      cpuMs: (used.user + used.system) / 1000 / done
    }
  })

const newAccount = Effect.gen(function* () {
  const accounts = yield* AccountRepository
  const id = yield* Effect.flatMap(Ids, (ids) => ids.make("acct"))
  yield* accounts.createAccount({ id, name: "bench", created: T0 })
  return { accountId: id, livemode: false } satisfies Tenant
})

/**
 * The pgbench script: the repository's transaction, statement for statement (the SQL
 * `IdempotencyRepository.begin` and `ChargeRepository.create` send, with the values
 * inlined). JSON keeps a space after each colon: pgbench reads `:name` as a variable.
 */
const PGBENCH_SCRIPT = `\\set n random(1, 1000000000000)
BEGIN;
INSERT INTO idempotency_records (account_id, livemode, key, fingerprint, state, created_ms, expires_at_ms)
  VALUES ('acct_pgbench', false, 'idk_' || :client_id || '_' || :n, 'fingerprint', 'in_progress', 1760000000000, 1760086400000)
  ON CONFLICT (account_id, livemode, key) DO UPDATE
    SET fingerprint = EXCLUDED.fingerprint, state = 'in_progress', response_status = NULL,
        response_body = NULL, created_ms = EXCLUDED.created_ms, expires_at_ms = EXCLUDED.expires_at_ms
    WHERE idempotency_records.expires_at_ms <= 1760000000000
  RETURNING 1;
WITH idem AS (
  UPDATE idempotency_records SET state = 'done', response_status = 200::integer,
    response_body = '{"id": "ch_1", "object": "charge"}'::jsonb
  WHERE account_id = 'acct_pgbench' AND livemode = false AND key = 'idk_' || :client_id || '_' || :n
  RETURNING 1
), charge AS (
  INSERT INTO charges (account_id, id, livemode, created, amount, convenience_fee, total_amount,
    currency, status, customer, description, metadata, region, card_type, fee_breakdown, compliance,
    failure_code, failure_message, details)
  SELECT 'acct_pgbench'::text, ('ch_' || :client_id || '_' || :n)::text, false::boolean, 1760000000::bigint,
    5000::bigint, 175::bigint, 5175::bigint, 'usd'::text, 'succeeded'::text, 'cus_1'::text, NULL::text,
    '{"order": "1"}'::jsonb, 'US-NY'::text, 'credit'::text, '{"percentage": 145, "flatFee": 30, "adjustment": 0}'::jsonb,
    '{"compliant": true, "reasonCode": null, "reason": null, "rulesetVersion": "2025.1"}'::jsonb, NULL::text,
    NULL::text, '{"source": "tok_visa", "billingMode": "direct"}'::jsonb
  FROM idem
  RETURNING 1
)
INSERT INTO events (account_id, id, livemode, type, data, request, created)
SELECT 'acct_pgbench'::text, ('evt_' || :client_id || '_' || :n)::text, false::boolean, 'charge.succeeded'::text,
  '{"object": {"id": "ch_1", "amount": 5000, "convenienceFee": 175, "status": "succeeded"}}'::jsonb,
  '{"id": null, "idempotencyKey": "idk_1"}'::jsonb, 1760000000::bigint
FROM charge
RETURNING 1 AS one;
COMMIT;
`

/** A migrated throwaway database for pgbench, with its account and the script file. */
const pgbenchTarget = Effect.gen(function* () {
  const name = yield* database("levy_bench_pgbench")
  const url = `${SERVER}/${name}`
  yield* Effect.scoped(
    Effect.flatMap(
      Layer.build(Storage.layerPostgres({ url, maxConnections: 1 }).pipe(Layer.provide(support))),
      (ctx) =>
        Effect.provide(
          Effect.flatMap(AccountRepository, (a) =>
            a.createAccount({ id: "acct_pgbench", name: "pgbench", created: T0 })
          ),
          ctx
        )
    )
  )
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "levy-bench-"))),
    (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
  )
  const script = join(dir, "charge.sql")
  writeFileSync(script, PGBENCH_SCRIPT)
  return { url, script }
})

/** pgbench's tps for one round of the script: -c 32, extended protocol (as node-postgres). */
const pgbenchRound = (target: { url: string; script: string }, seconds: number) =>
  Effect.suspend(() => {
    const args = ["-n", "-M", "extended", "-c", String(WRITERS), "-j", "2", "-T", String(seconds)]
    const run = spawnSync(pgbenchPath, [...args, "-f", target.script, target.url], {
      encoding: "utf8"
    })
    const tps = /tps = ([\d.]+)/.exec(run.stdout ?? "")
    return run.status === 0 && tps !== null && !/aborted/.test(run.stderr ?? "")
      ? Effect.succeed(Number(tps[1]))
      : Effect.die(new Error(`pgbench failed: ${run.stderr}\n${run.stdout}`))
  })

/** Median milliseconds of `effect` over `n` runs (after 20 warm-up runs). */
const latency = <A, E, R>(effect: Effect.Effect<A, E, R>, n: number) =>
  Effect.gen(function* () {
    for (let i = 0; i < 20; i++) yield* effect
    const times: Array<number> = []
    for (let i = 0; i < n; i++) {
      const started = performance.now()
      yield* effect
      times.push(performance.now() - started)
    }
    return median(times)
  })

const postgresFigures = Effect.gen(function* () {
  const name = yield* database("levy_bench")
  const store = Storage.layerPostgres({
    url: `${SERVER}/${name}`,
    maxConnections: WRITERS
  }).pipe(Layer.provideMerge(support))
  const runtime = ManagedRuntime.make(store)
  yield* Effect.addFinalizer(() => Effect.promise(() => runtime.dispose()))
  const run = <A, E>(effect: Effect.Effect<A, E, Storage.Repositories | Ids | PgClient.PgClient>) =>
    Effect.promise(() => runtime.runPromise(effect))

  const writer = yield* run(newAccount)
  const target = yield* pgbenchTarget
  // Rounds alternate between the repository and pgbench so that drifts in the machine's
  // load hit both alike; each figure is the median of its rounds, after a warm-up of each.
  // A third series runs the same repository calls with Effect's tracing off (spans are on
  // by default; the server may turn them off), to show what tracing costs here.
  yield* run(throughputRound(writer, WRITERS, 1_000))
  yield* pgbenchRound(target, 1)
  const ours: Array<number> = []
  const untraced: Array<number> = []
  const theirs: Array<number> = []
  const cpuMs: Array<number> = []
  for (let r = 0; r < ROUNDS; r++) {
    const traced = yield* run(throughputRound(writer, WRITERS, ROUND_MS))
    theirs.push(yield* pgbenchRound(target, ROUND_MS / 1000))
    const plain = yield* run(
      Effect.withTracerEnabled(throughputRound(writer, WRITERS, ROUND_MS), false)
    )
    ours.push(traced.perSec)
    cpuMs.push(traced.cpuMs)
    untraced.push(plain.perSec)
    console.log(
      `round ${r + 1}: repository ${traced.perSec.toFixed(0)}/s (${traced.cpuMs.toFixed(3)} ms of node CPU each; ` +
        `untraced ${plain.perSec.toFixed(0)}/s), pgbench ${theirs[r]!.toFixed(0)}/s`
    )
  }

  // A million rows (and a little more) for one tenant, in one INSERT … SELECT.
  const lister = yield* run(newAccount)
  const total = DEEP + 50
  const started = performance.now()
  yield* run(
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      yield* sql`INSERT INTO charges (account_id, id, livemode, created, amount, convenience_fee, total_amount,
          currency, status, customer, metadata, fee_breakdown, details)
        SELECT ${lister.accountId}, 'ch_' || lpad(i::text, 10, '0'), false, ${T0} + i, 5000, 175, 5175, 'usd',
          'succeeded', 'cus_' || (i % 100), '{}', '{"percentage":145,"flatFee":30,"adjustment":0}', '{}'
        FROM generate_series(1, ${total}) AS i`
      yield* sql`ANALYZE charges`
    })
  )
  console.log(`loaded ${total} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  // Newest first, the row 1,000,000 deep is i = total - DEEP + 1; the next page starts below it.
  const cursor = `ch_${String(total - DEEP + 1).padStart(10, "0")}`
  const page1 = Effect.flatMap(ChargeRepository, (c) => c.list(lister, { limit: 10 }))
  const deep = Effect.flatMap(ChargeRepository, (c) =>
    c.list(lister, { limit: 10, startingAfter: cursor })
  )
  const check = yield* run(deep)
  if (
    check.data.length !== 10 ||
    check.data[0]!.id !== `ch_${String(total - DEEP).padStart(10, "0")}`
  ) {
    return yield* Effect.die(
      new Error(`deep page is wrong: ${check.data.map((c) => c.id).join(",")}`)
    )
  }
  const page1Ms = yield* run(latency(page1, 300))
  const deepPageMs = yield* run(latency(deep, 300))
  return {
    chargesPerSec32: median(ours),
    chargesPerSec32Untraced: median(untraced),
    nodeCpuMsPerCharge: median(cpuMs),
    pgbenchPerSec32: median(theirs),
    page1Ms,
    deepPageMs
  }
})

const embeddedFigures = Effect.gen(function* () {
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "levy-bench-embedded-"))),
    (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
  )
  const runtime = ManagedRuntime.make(
    Storage.layerEmbedded({ dataDir: join(dir, "data") }).pipe(Layer.provideMerge(support))
  )
  yield* Effect.addFinalizer(() => Effect.promise(() => runtime.dispose()))
  const round = (ms: number) =>
    Effect.promise(() => runtime.runPromise(throughputRound(tenant, WRITERS, ms)))
  const tenant = yield* Effect.promise(() => runtime.runPromise(newAccount))
  yield* round(1_000)
  const rates: Array<number> = []
  for (let r = 0; r < 3; r++) rates.push((yield* round(2_000)).perSec)
  return median(rates)
})

const main = Effect.gen(function* () {
  const version = execFileSync(pgbenchPath, ["--version"], { encoding: "utf8" }).trim()
  console.log(`${version}; ${WRITERS} writers; rounds of ${ROUND_MS} ms`)
  const pg = yield* Effect.scoped(postgresFigures)
  const embeddedChargesPerSec = yield* Effect.scoped(embeddedFigures)
  report("storage", {
    chargesPerSec32: pg.chargesPerSec32,
    pgbenchPerSec32: pg.pgbenchPerSec32,
    chargesToPgbench: pg.chargesPerSec32 / pg.pgbenchPerSec32,
    chargesPerSec32Untraced: pg.chargesPerSec32Untraced,
    untracedToPgbench: pg.chargesPerSec32Untraced / pg.pgbenchPerSec32,
    nodeCpuMsPerCharge: pg.nodeCpuMsPerCharge,
    page1Ms: pg.page1Ms,
    deepPageMs: pg.deepPageMs,
    deepToPage1: pg.deepPageMs / pg.page1Ms,
    embeddedChargesPerSec
  })
})

const started = performance.now()
await Effect.runPromise(main)
console.log(`storage bench took ${((performance.now() - started) / 1000).toFixed(1)} s`)

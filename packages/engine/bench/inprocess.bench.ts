/**
 * Levy in-process on PostgreSQL (in-process charges ≥ 0.8 of the storage layer's own
 * rate): `LevyService.charges.create` with a fresh idempotency key each, 32 concurrent callers,
 * against the storage layer alone in the same process, on the same throwaway database, in
 * rounds that alternate so drifts in the machine's load hit every series alike:
 *
 * - `inprocess`: the service (input checked, key claimed, the processor and the fee
 *   configuration read, the quote, the charge written pending, the simulator, the settle with
 *   its event and the stored response, the dispatcher woken), as a checkout backend runs it;
 * - `repository`: the same repository calls by hand, with no workflow around them (claim,
 *   processor configuration, charge by key, fee configuration, `beginCharge`, `settleCharge`
 *   with the event and the stored response): what the workflow's statements cost by themselves;
 * - `storageWrite`: storage.bench's transaction (the key claimed and `ChargeRepository.create`
 *   writing charge, event and response in one statement): the "storage layer's charge
 *   write", which does fewer statements than a charge's path.
 *
 * Each series reports charges per second, this process's CPU per charge, the CPU per charge of
 * the PostgreSQL backends serving the bench's database (from /proc), and the statements sent per
 * charge (the dispatcher's fan-out included). The `*To*` figures are ratios in this run.
 * LEVY_BENCH_INPROCESS_TRACE=1 prints the statements of one charge of each series;
 * LEVY_BENCH_INPROCESS_PROFILE=<dir> writes a
 * `--cpu-prof`-style profile of each round there (inspector, this process only).
 */
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { createRequire } from "node:module"
import { join } from "node:path"
import {
  AccountRepository,
  ChargeRepository,
  FeeConfigRepository,
  IdempotencyRepository,
  Ids,
  ProcessorConfigRepository,
  SecretBox,
  Storage,
  type Tenant,
  Testing,
  Transactions
} from "@levy/storage"
import { Effect, Layer, ManagedRuntime } from "effect"
import { median, report } from "../../../scripts/benchmark.js"
import * as LevyService from "../src/inprocess/LevyService.js"

/** The fields every benched charge shares: 100.00 USD in US-NY with a 3 % + 0.30 fee. */
const chargeFields = (status: "pending" | "succeeded") => ({
  amount: 10_000,
  convenienceFee: 330,
  totalAmount: 10_330,
  currency: "usd",
  status,
  customer: null,
  description: null,
  metadata: {},
  region: "US-NY",
  cardType: "credit",
  feeBreakdown: { percentage: 300, flatFee: 30, adjustment: 0 },
  compliance: { compliant: true, reasonCode: null, reason: null, rulesetVersion: "2025.1" },
  failureCode: null,
  failureMessage: null,
  details: { source: "tok_visa", billingMode: "direct" }
})

const WRITERS = 32
const ROUND_MS = 3_000
const ROUNDS = 4
const ACCOUNT = "acct_bench"
const INPUT = { amount: 10_000, currency: "usd", region: "US-NY" } as const

const ticksPerSec = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()

/** User + system CPU seconds of a process so far (Linux), 0 once it is gone. */
const cpuSecondsOf = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSec
  } catch {
    return 0
  }
}

/**
 * The backends serving this bench's database (from `pg_stat_activity`): their CPU is the
 * charges' PostgreSQL CPU, whatever else runs on the machine's server. (WAL flushes happen in
 * the committing backend; the background writer's and checkpointer's share is not counted.)
 */
const backends = async (): Promise<Array<number>> => {
  const rows = await monitor().query(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
  )
  return rows.rows.map((r) => Number((r as { pid: number }).pid))
}

/** The part of `pg` used here (the package ships no types). */
interface PgClientLike {
  connect(): Promise<void>
  query(text: string): Promise<{ rows: Array<unknown> }>
  end(): Promise<void>
}
const pg = createRequire(import.meta.url)("pg") as {
  Client: (new (options: {
    connectionString: string
  }) => PgClientLike) & {
    prototype: { query: (...args: Array<unknown>) => unknown }
  }
}

/** The bench database's URL and a connection of its own that reads `pg_stat_activity`. */
let databaseUrl: string | undefined
let monitorClient: PgClientLike | undefined
const monitor = () => {
  if (monitorClient === undefined) throw new Error("no monitor connection")
  return monitorClient
}

/** Statements sent per series (LEVY_BENCH_INPROCESS_TRACE=1 prints one charge's). */
const statements = { count: 0, trace: undefined as Array<string> | undefined }
{
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: unknown, ...args: Array<unknown>) {
    statements.count++
    const text = args[0]
    statements.trace?.push(
      (typeof text === "string" ? text : String((text as { text?: string })?.text))
        .replace(/\s+/g, " ")
        .slice(0, 110)
    )
    return query.apply(this, args)
  }
}

/** A store on a throwaway database (dropped on close), migrated, with the bench account. */
const store = Layer.unwrapScoped(
  Effect.map(Testing.throwawayDatabase("levy_bench_inprocess"), ({ url }) => {
    databaseUrl = url
    return Storage.layerPostgres({ url, maxConnections: WRITERS })
  })
).pipe(
  Layer.provide(SecretBox.layerRandom),
  Layer.provideMerge(Ids.layer),
  Layer.tap((context) =>
    Effect.flatMap(Effect.provide(AccountRepository, context), (accounts) =>
      accounts.createAccount({ id: ACCOUNT, name: "bench", created: 0 })
    )
  ),
  Layer.orDie
)

const runtime = ManagedRuntime.make(Layer.provideMerge(LevyService.layer, store).pipe(Layer.orDie))

const tenant: Tenant.Tenant = { accountId: ACCOUNT, livemode: false }
let counter = 0
const freshKey = () => `bench-${process.pid}-${counter++}`

/** One charge through the service, under a fresh key. */
const inprocess = Effect.flatMap(LevyService.LevyService, (levy) =>
  levy.charges.create(tenant, INPUT, { idempotencyKey: freshKey() })
)

/** The same repository calls as the service's charge path, by hand, with fixed amounts. */
const repository = Effect.gen(function* () {
  const ids = yield* Ids
  const idempotency = yield* IdempotencyRepository
  const processors = yield* ProcessorConfigRepository
  const charges = yield* ChargeRepository
  const feeConfigs = yield* FeeConfigRepository
  const key = freshKey()
  yield* idempotency.begin(tenant, key, "fingerprint")
  yield* processors.get(tenant)
  yield* charges.findByIdempotencyKey(tenant, key)
  yield* feeConfigs.get(tenant)
  const id = yield* ids.make("ch")
  const pending = yield* charges.beginCharge({
    id,
    accountId: ACCOUNT,
    livemode: false,
    created: Math.floor(Date.now() / 1000),
    ...chargeFields("pending"),
    processor: "simulator",
    processorKey: `levy_${id}`,
    idempotencyKey: key,
    requestFingerprint: "fingerprint",
    processorReference: null,
    recoverAfterMs: Date.now() + 60_000
  })
  const eventId = yield* ids.make("evt")
  yield* charges.settleCharge(
    pending,
    id,
    {
      status: "succeeded",
      processorReference: `sim_${id}`,
      details: { ...pending.details, transactions: [] }
    },
    (settled) => ({
      events: [
        {
          id: eventId,
          accountId: ACCOUNT,
          livemode: false,
          type: "charge.succeeded",
          data: { object: { id: settled.id, status: settled.status } },
          request: { idempotencyKey: key },
          created: settled.created
        }
      ],
      idempotency: {
        key,
        fingerprint: "fingerprint",
        response: { outcome: "succeeded", body: { id: settled.id, object: "charge" } }
      }
    })
  )
})

/** storage.bench's transaction: the key claimed, then charge, event and response in one statement. */
const storageWrite = Effect.gen(function* () {
  const tx = yield* Transactions
  const ids = yield* Ids
  const charges = yield* ChargeRepository
  const idempotency = yield* IdempotencyRepository
  const key = freshKey()
  const id = yield* ids.make("ch")
  const eventId = yield* ids.make("evt")
  const created = Math.floor(Date.now() / 1000)
  yield* tx.run(
    Effect.gen(function* () {
      yield* idempotency.begin(tenant, key, "fingerprint")
      yield* charges.create({
        charge: {
          id,
          accountId: ACCOUNT,
          livemode: false,
          created,
          ...chargeFields("succeeded")
        },
        event: {
          id: eventId,
          accountId: ACCOUNT,
          livemode: false,
          type: "charge.succeeded",
          data: { object: { id, status: "succeeded" } },
          request: { idempotencyKey: key },
          created
        },
        idempotency: { key, response: { outcome: "succeeded", body: { id, object: "charge" } } }
      })
    })
  )
})

const series = { inprocess, repository, storageWrite } as const
type Series = keyof typeof series

interface Round {
  readonly perSec: number
  readonly cpuUs: number
  readonly postgresUs: number
  readonly statements: number
}

/** `WRITERS` loops of `one` for `ms`: charges per second, node and PostgreSQL CPU per charge. */
const round = async (name: Series, ms: number): Promise<Round> => {
  const one = series[name] as Effect.Effect<unknown, unknown, never>
  const until = performance.now() + ms
  let done = 0
  const pids = await backends()
  const pgBefore = new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)]))
  const sent = statements.count
  const cpu = process.cpuUsage()
  const started = performance.now()
  await runtime.runPromise(
    Effect.all(
      Array.from({ length: WRITERS }, () =>
        Effect.gen(function* () {
          while (performance.now() < until) {
            yield* one
            done++
          }
        })
      ),
      { concurrency: "unbounded", discard: true }
    )
  )
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  let pgUsed = 0
  for (const pid of await backends()) {
    pgUsed += cpuSecondsOf(pid) - (pgBefore.get(pid) ?? 0)
  }
  return {
    perSec: done / seconds,
    cpuUs: (used.user + used.system) / done,
    postgresUs: (pgUsed / done) * 1_000_000,
    statements: (statements.count - sent) / done
  }
}

const profileDir = process.env.LEVY_BENCH_INPROCESS_PROFILE
const session = profileDir === undefined ? undefined : new Session()

const started = performance.now()
try {
  await runtime.runPromise(Effect.void)
  monitorClient = new pg.Client({ connectionString: databaseUrl! })
  await monitorClient.connect()
  for (const name of Object.keys(series) as Array<Series>) await round(name, 1_000)
  if (process.env.LEVY_BENCH_INPROCESS_TRACE !== undefined) {
    for (const name of Object.keys(series) as Array<Series>) {
      statements.trace = []
      await runtime.runPromise(series[name] as Effect.Effect<unknown, unknown, never>)
      console.log(`${name}, one charge alone:\n  ${statements.trace.join("\n  ")}`)
      statements.trace = undefined
    }
  }
  const results: Record<Series, Array<Round>> = { inprocess: [], repository: [], storageWrite: [] }
  if (session !== undefined) {
    session.connect()
    await session.post("Profiler.enable")
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of Object.keys(series) as Array<Series>) {
      const profiling = session !== undefined
      if (profiling) await session.post("Profiler.start")
      const result = await round(name, ROUND_MS)
      if (profiling) {
        const { profile } = await session.post("Profiler.stop")
        writeFileSync(join(profileDir!, `${name}-${r}.cpuprofile`), JSON.stringify(profile))
      }
      results[name].push(result)
      console.log(
        `round ${r + 1} ${name}: ${result.perSec.toFixed(0)}/s, ${result.cpuUs.toFixed(0)} µs node CPU, ${result.postgresUs.toFixed(0)} µs PostgreSQL CPU per charge, ${result.statements.toFixed(1)} statements each`
      )
    }
  }
  const figure = (name: Series, of: (r: Round) => number) => median(results[name].map(of))
  const out: Record<string, number> = {}
  for (const name of Object.keys(series) as Array<Series>) {
    out[`${name}PerSec`] = figure(name, (r) => r.perSec)
    out[`${name}CpuUsPerCharge`] = figure(name, (r) => r.cpuUs)
    out[`${name}PostgresUsPerCharge`] = figure(name, (r) => r.postgresUs)
    out[`${name}StatementsPerCharge`] = figure(name, (r) => r.statements)
  }
  out.inprocessToRepository = out.inprocessPerSec! / out.repositoryPerSec!
  out.inprocessToStorageWrite = out.inprocessPerSec! / out.storageWritePerSec!
  out.inprocessCpuToRepository = out.inprocessCpuUsPerCharge! / out.repositoryCpuUsPerCharge!
  out.inprocessPostgresToRepository =
    out.inprocessPostgresUsPerCharge! / out.repositoryPostgresUsPerCharge!
  report("inprocess", out)
} finally {
  session?.disconnect()
  await monitorClient?.end()
  await runtime.dispose()
}
console.log(`in-process bench took ${((performance.now() - started) / 1000).toFixed(1)} s`)

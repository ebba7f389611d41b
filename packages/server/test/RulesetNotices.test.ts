/**
 * Telling accounts before the law changes their fee (docs/design.md §3 "Changes announced"), end
 * to end on the memory store and PostgreSQL: a ban dated within the lead time makes exactly one
 * `ruleset.changed` event per affected account and mode (charged in the region, or listing it),
 * none for an account elsewhere, without regions, or pinned to a release without the ban;
 * delivered to the account's webhook endpoint, signed; listed by the API; never again on the
 * next round, after a restart, or from two processes at once. A ban beyond the lead time waits
 * until it is within it. A release the server moves to is announced to the accounts that follow
 * `latest` and existed before it, and the job runs when the server starts.
 */
import { randomBytes } from "node:crypto"
import { ComplianceRules, Day, Ruleset, type RulesetVersions } from "@levy/core"
import * as LevyService from "@levy/engine/inprocess/LevyService.js"
import * as RulesetNotices from "@levy/engine/rulesets/RulesetNotices.js"
import {
  AccountRepository,
  ChargeRepository,
  EventRepository,
  FeeConfigRepository,
  Ids,
  type NewCharge,
  RulesetNoticeRepository,
  SecretBox,
  Storage,
  Tenant,
  Testing,
  WebhookEndpointRepository
} from "@levy/storage"
import { ConfigProvider, type Context, Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { withBan } from "./BannedRule.js"
import { call, KEYS, STORES, startWithStore } from "./support.js"
import {
  eventually,
  type Receiver,
  receiver,
  runDispatcher,
  signedWith
} from "./WebhooksSupport.js"

const DAY_MS = 86_400_000
/** The tests' today: far from every date the shipped ruleset changes on. */
const NOW = Date.UTC(2040, 0, 10, 12)
const iso = (ms: number) => Day.toIso(Day.fromMillis(ms))
const WHSEC = "whsec_dev_rulesetchanges0001"

type Store = Context.Context<Storage.Repositories | Ids>

/** One round of the job over `store`, deciding with `ruleset`. */
const runJob = (
  store: Store,
  ruleset: Ruleset.Ruleset,
  settings: Partial<RulesetNotices.Settings> = {}
) =>
  Effect.runPromise(
    RulesetNotices.runOnce({ leadDays: 30, now: NOW, ...settings }).pipe(
      Effect.provide(Layer.merge(Layer.succeedContext(store), ComplianceRules.layer(ruleset)))
    )
  )

const chargeIn = (tenant: Tenant.Tenant, id: string, region: string): NewCharge => ({
  id,
  accountId: tenant.accountId,
  livemode: tenant.livemode,
  created: NOW / 1000 - 86_400,
  amount: 10_000,
  convenienceFee: 300,
  totalAmount: 10_300,
  currency: "usd",
  status: "succeeded",
  customer: null,
  description: null,
  metadata: {},
  region,
  cardType: "credit",
  feeBreakdown: { percentage: 290, flatFee: 30, adjustment: -20 },
  compliance: null,
  failureCode: null,
  failureMessage: null,
  details: { source: "tok_visa" }
})

/** The accounts of a test, each in a store of its own kind of place. */
const ACCOUNTS = {
  /** Charged in US-NY in test mode, with an endpoint subscribed to ruleset.changed. */
  charged: "acct_charged",
  /** Lists US-NY in its live configuration. */
  listed: "acct_listed",
  /** Charged in GB only: the ban does not reach it. */
  elsewhere: "acct_elsewhere",
  /** No regions at all. */
  nowhere: "acct_nowhere",
  /** US-NY its default region, pinned to the shipped release, which has no ban. */
  pinned: "acct_pinned"
} as const

/** A test-mode key of the account charged in US-NY, to read its events through the API. */
const CHARGED_KEY = "sk_dev_service_charged0004"
const SERVER_KEYS = [
  ...KEYS,
  { secret: CHARGED_KEY, accountId: ACCOUNTS.charged, keyId: "key_charged" }
]

const setUp = (store: Store, webhookUrl: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const accounts = yield* AccountRepository
      const charges = yield* ChargeRepository
      const configs = yield* FeeConfigRepository
      const endpoints = yield* WebhookEndpointRepository
      for (const id of Object.values(ACCOUNTS)) {
        // The server's helper made those its keys name already.
        yield* accounts
          .createAccount({ id, name: id, created: NOW / 1000 - 365 * 86_400 })
          .pipe(Effect.catchTag("DuplicateRecord", () => Effect.void))
      }
      const test = (id: string) => Tenant.make(id, false)
      yield* charges.insert(chargeIn(test(ACCOUNTS.charged), "ch_ny1", "US-NY"))
      yield* charges.insert(chargeIn(test(ACCOUNTS.charged), "ch_ny2", "US-NY"))
      yield* charges.insert(chargeIn(test(ACCOUNTS.elsewhere), "ch_gb", "GB"))
      yield* configs.initialize(Tenant.make(ACCOUNTS.listed, true), { regionCodes: ["US-NY"] }, 0)
      yield* configs.initialize(
        test(ACCOUNTS.pinned),
        { defaultRegion: "US-NY", rulesetVersion: Ruleset.DEFAULT.version },
        0
      )
      yield* endpoints.create({
        id: "we_rulesets",
        accountId: ACCOUNTS.charged,
        livemode: false,
        url: webhookUrl,
        enabledEvents: ["ruleset.changed"],
        status: "enabled",
        description: null,
        created: 0,
        secret: WHSEC
      })
    }).pipe(Effect.provide(store), Effect.orDie)
  )

/** Every ruleset.changed event of the accounts, as `account/mode`. */
const announced = (store: Store) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const events = yield* EventRepository
      const out: Array<string> = []
      for (const id of [...Object.values(ACCOUNTS), "acct_1"]) {
        for (const livemode of [false, true]) {
          const page = yield* events.list(Tenant.make(id, livemode), {
            limit: 100,
            type: "ruleset.changed"
          })
          for (const _ of page.data) out.push(`${id}/${livemode ? "live" : "test"}`)
        }
      }
      return out.sort()
    }).pipe(Effect.provide(store), Effect.orDie)
  )

const BAN_DATE = iso(NOW + 10 * DAY_MS)

describe.each(STORES)("ruleset changes announced (%s)", (_name, makeStore) => {
  let hooks: Receiver
  beforeAll(async () => {
    hooks = await receiver()
  })
  afterAll(async () => {
    await hooks.close()
  })

  it("a ban within the lead time: one signed event per affected account, ahead of its date, once", async () => {
    const server = await startWithStore(makeStore(), { keys: SERVER_KEYS })
    const store = await server.store.runtime().then((r) => r.context)
    const dispatcher = runDispatcher(store)
    try {
      await setUp(store, `${hooks.url}/rulesets`)
      const ruleset = withBan(BAN_DATE)
      expect(await runJob(store, ruleset)).toBe(2)
      expect(await announced(store)).toEqual([
        `${ACCOUNTS.charged}/test`,
        `${ACCOUNTS.listed}/live`
      ])

      await eventually("the event delivered", () => hooks.received.length === 1)
      const [request] = hooks.received
      expect(signedWith(request!, WHSEC)).toBe(true)
      const event = JSON.parse(request!.body)
      expect(request!.headers["webhook-id"]).toBe(event.id)
      expect(event).toMatchObject({ type: "ruleset.changed", livemode: false })
      expect(event.data.object).toEqual({
        object: "ruleset_change",
        reason: "dated_rule",
        effectiveDate: BAN_DATE,
        rulesetVersion: { before: ruleset.version, after: ruleset.version },
        livemode: false,
        regions: [
          {
            region: "US-NY",
            currency: "usd",
            before: {
              verdict: "capped",
              maxPercentage: 3,
              maxFlatFee: null,
              requiresDisclosure: true
            },
            after: {
              verdict: "prohibited",
              maxPercentage: 0,
              maxFlatFee: null,
              requiresDisclosure: true
            },
            // 2.9 % + 0.30 lowered to the 3 % cap on a credit card; no debit-card surcharge in the US.
            fees: [
              { amount: 1000, cardType: "credit", before: 30, after: 0 },
              { amount: 10000, cardType: "credit", before: 300, after: 0 },
              { amount: 100000, cardType: "credit", before: 2930, after: 0 },
              { amount: 1000, cardType: "debit", before: 0, after: 0 },
              { amount: 10000, cardType: "debit", before: 0, after: 0 },
              { amount: 100000, cardType: "debit", before: 0, after: 0 }
            ]
          }
        ]
      })
      // The API lists it, decoded by the Event schema, and filters by its type.
      const listed = await call(server.url, "GET", "/v1/events?type=ruleset.changed", {
        key: CHARGED_KEY
      })
      expect(listed.status).toBe(200)
      expect(listed.body).toMatchObject({ data: [event] })
      // Next round, and the day before the ban: nothing new.
      expect(await runJob(store, ruleset)).toBe(0)
      expect(await runJob(store, ruleset, { now: NOW + 9 * DAY_MS })).toBe(0)
      expect(await announced(store)).toHaveLength(2)
      // A region the account lists later is announced on its own.
      await Effect.runPromise(
        Effect.flatMap(FeeConfigRepository, (configs) =>
          configs.initialize(Tenant.make(ACCOUNTS.nowhere, false), { regionCodes: ["us-ny"] }, 0)
        ).pipe(Effect.provide(store), Effect.orDie)
      )
      expect(await runJob(store, ruleset)).toBe(1)
      expect(await announced(store)).toContain(`${ACCOUNTS.nowhere}/test`)
      expect(await runJob(store, ruleset)).toBe(0)
    } finally {
      await dispatcher.stop()
      await server.close()
    }
  })

  it("a ban beyond the lead time is announced once it is within it", async () => {
    const server = await startWithStore(makeStore(), { keys: SERVER_KEYS })
    const store = await server.store.runtime().then((r) => r.context)
    try {
      await setUp(store, `${hooks.url}/later`)
      const ruleset = withBan(iso(NOW + 45 * DAY_MS))
      expect(await runJob(store, ruleset)).toBe(0)
      expect(await runJob(store, ruleset, { now: NOW + 14 * DAY_MS })).toBe(0)
      expect(await runJob(store, ruleset, { now: NOW + 15 * DAY_MS })).toBe(2)
      expect(await runJob(store, ruleset, { now: NOW + 45 * DAY_MS })).toBe(0)
      // A shorter lead: only on the day.
      const other = withBan(iso(NOW + 3 * DAY_MS))
      const fresh = await startWithStore(makeStore(), { keys: SERVER_KEYS })
      const freshStore = await fresh.store.runtime().then((r) => r.context)
      try {
        await setUp(freshStore, `${hooks.url}/lead`)
        expect(await runJob(freshStore, other, { leadDays: 0 })).toBe(0)
        expect(await runJob(freshStore, other, { leadDays: 0, now: NOW + 3 * DAY_MS })).toBe(2)
      } finally {
        await fresh.close()
      }
    } finally {
      await server.close()
    }
  })

  it("a release: announced to accounts following latest that existed before it, once", async () => {
    const server = await startWithStore(makeStore(), { keys: SERVER_KEYS })
    const store = await server.store.runtime().then((r) => r.context)
    try {
      await setUp(store, `${hooks.url}/release`)
      // 9.0.0 is the shipped rules; 9.1.0 bans US-NY since before "today".
      const older = Ruleset.make(Ruleset.DEFAULT.rules, "9.0.0")
      const newer = Ruleset.make(withBan(iso(NOW - 100 * DAY_MS)).rules, "9.1.0")
      const release = (ruleset: Ruleset.Ruleset, current: boolean): RulesetVersions.Release => ({
        version: ruleset.version,
        released: null,
        changes: [],
        current,
        note: undefined,
        ruleset: () => ruleset
      })
      const releases = [release(older, false), release(newer, true)]
      // A server ran 9.0.0 first (a new installation: nothing to announce).
      expect(await runJob(store, older, { releases, now: NOW - 2 * DAY_MS })).toBe(0)
      // An account made since: it never had 9.0.0.
      await Effect.runPromise(
        Effect.gen(function* () {
          yield* (yield* AccountRepository).createAccount({
            id: "acct_young",
            name: "young",
            created: NOW / 1000 + 60
          })
          yield* (yield* FeeConfigRepository).initialize(
            Tenant.make("acct_young", false),
            { regionCodes: ["US-NY"] },
            0
          )
        }).pipe(Effect.provide(store), Effect.orDie)
      )
      expect(await runJob(store, newer, { releases })).toBe(2)
      const events = await Effect.runPromise(
        Effect.flatMap(EventRepository, (repo) =>
          repo.list(Tenant.make(ACCOUNTS.charged, false), { limit: 10 })
        ).pipe(Effect.provide(store), Effect.orDie)
      )
      expect(events.data.map((e) => e.data)).toEqual([
        {
          object: expect.objectContaining({
            reason: "release",
            effectiveDate: iso(NOW),
            rulesetVersion: { before: "9.0.0", after: "9.1.0" }
          })
        }
      ])
      expect(await announced(store)).toEqual([
        `${ACCOUNTS.charged}/test`,
        `${ACCOUNTS.listed}/live`
      ])
      // The young account, made after 9.1.0 was first run, is not told of it; nobody twice.
      expect(await runJob(store, newer, { releases, now: NOW + 3_600_000 })).toBe(0)
    } finally {
      await server.close()
    }
  })
})

describe("ruleset changes announced: restarts and two processes on one PostgreSQL", () => {
  const scope = Effect.runSync(Scope.make())
  let url = ""
  beforeAll(async () => {
    url = await Effect.runPromise(
      Scope.extend(Testing.throwawayDatabase("levy_notices"), scope)
    ).then((d) => d.url)
  }, 60_000)
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  /** The key every process seals secrets with (LEVY_SECRET_KEY's role). */
  const key = randomBytes(32)
  /** A store with its own pool: one server process. */
  const process_ = () =>
    ManagedRuntime.make(
      Storage.layerPostgres({ url, maxConnections: 5 }).pipe(
        Layer.provide(SecretBox.layerKey(key)),
        Layer.provideMerge(Ids.layer),
        Layer.orDie
      )
    )

  it("two processes at once announce each change once; a restarted one announces nothing", async () => {
    const ruleset = withBan(BAN_DATE)
    const a = process_()
    const b = process_()
    try {
      const storeA = await a.runtime().then((r) => r.context)
      const storeB = await b.runtime().then((r) => r.context)
      await setUp(storeA, "http://127.0.0.1:9/unused")
      // Many accounts, so that the two rounds meet on some of them.
      const many = Array.from({ length: 60 }, (_, i) => `acct_many${String(i).padStart(2, "0")}`)
      await Effect.runPromise(
        Effect.gen(function* () {
          for (const id of many) {
            yield* (yield* AccountRepository).createAccount({ id, name: id, created: 0 })
            yield* (yield* FeeConfigRepository).initialize(
              Tenant.make(id, false),
              { regionCodes: ["US-NY"] },
              0
            )
          }
        }).pipe(Effect.provide(storeA), Effect.orDie)
      )
      const counts = await Promise.all([runJob(storeA, ruleset), runJob(storeB, ruleset)])
      expect(counts[0]! + counts[1]!).toBe(62)
      expect(await announced(storeB)).toEqual([
        `${ACCOUNTS.charged}/test`,
        `${ACCOUNTS.listed}/live`
      ])
      const events = await Effect.runPromise(
        Effect.forEach(many, (id) =>
          Effect.flatMap(EventRepository, (repo) =>
            repo.list(Tenant.make(id, false), { limit: 10, type: "ruleset.changed" })
          ).pipe(Effect.map((page) => page.data.length))
        ).pipe(Effect.provide(storeB), Effect.orDie)
      )
      expect(events).toEqual(many.map(() => 1))
    } finally {
      await a.dispose()
      await b.dispose()
    }
    // A restart: a new process on the same database.
    const c = process_()
    try {
      const storeC = await c.runtime().then((r) => r.context)
      expect(await runJob(storeC, ruleset)).toBe(0)
      expect(await announced(storeC)).toHaveLength(2)
    } finally {
      await c.dispose()
    }
  }, 60_000)
})

describe("the job in a running server", () => {
  it("runs when the server starts", async () => {
    const store = Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))
    const runtime = ManagedRuntime.make(store)
    const context = await runtime.runtime().then((r) => r.context)
    try {
      await setUp(context, "http://127.0.0.1:9/unused")
      const ruleset = withBan(iso(Date.now() + 10 * DAY_MS))
      const job = ManagedRuntime.make(
        RulesetNotices.layer({ leadDays: 30 }).pipe(
          Layer.provide(Layer.merge(Layer.succeedContext(context), ComplianceRules.layer(ruleset)))
        )
      )
      try {
        await job.runtime()
        await eventually("the start-up round", async () => (await announced(context)).length === 2)
      } finally {
        await job.dispose()
      }
    } finally {
      await runtime.dispose()
    }
  })

  it("Levy's services run it: the release a server runs is recorded as it starts", async () => {
    const store = ManagedRuntime.make(Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer)))
    const context = await store.runtime().then((r) => r.context)
    const seen = () =>
      Effect.runPromise(
        Effect.flatMap(RulesetNoticeRepository, (repo) => repo.releasesSeen("0.0.0-probe", 0)).pipe(
          Effect.provide(context)
        )
      )
    const levy = ManagedRuntime.make(
      LevyService.layer.pipe(Layer.provide(Layer.succeedContext(context)))
    )
    try {
      await levy.runtime()
      await eventually("the start-up round", async () =>
        (await seen()).some((r) => r.version === Ruleset.DEFAULT.version)
      )
    } finally {
      await levy.dispose()
      await store.dispose()
    }
  })

  it("reads its interval and lead time from the environment, and refuses bad values", async () => {
    const build = (env: Record<string, string>) =>
      Effect.runPromiseExit(
        Layer.build(RulesetNotices.layerFromEnv).pipe(
          Effect.scoped,
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
          Effect.provide(Storage.layerMemory.pipe(Layer.provideMerge(Ids.layer))),
          Effect.provide(ComplianceRules.Live)
        )
      )
    expect(Exit.isSuccess(await build({}))).toBe(true)
    expect(
      Exit.isSuccess(
        await build({ LEVY_RULESET_NOTICE_INTERVAL: "60", LEVY_RULESET_NOTICE_LEAD_DAYS: "0" })
      )
    ).toBe(true)
    expect(Exit.isFailure(await build({ LEVY_RULESET_NOTICE_INTERVAL: "0" }))).toBe(true)
    expect(Exit.isFailure(await build({ LEVY_RULESET_NOTICE_LEAD_DAYS: "-1" }))).toBe(true)
    expect(Exit.isFailure(await build({ LEVY_RULESET_NOTICE_LEAD_DAYS: "soon" }))).toBe(true)
  })
})

/**
 * What only the SQL stores (PostgreSQL and embedded) can show: migrations are recorded and
 * not re-applied, secrets and keys never reach a column in plain text, int8 comes back as
 * a number, lists are index range scans, and the embedded store persists in its data dir.
 */
import { existsSync, statSync } from "node:fs"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { ConfigProvider, Deferred, Effect, Either, Fiber, Layer } from "effect"
import { AccountRepository } from "../src/AccountRepository.js"
import { ChargeRepository } from "../src/ChargeRepository.js"
import { EventRepository } from "../src/EventRepository.js"
import { IdempotencyRepository } from "../src/IdempotencyRepository.js"
import { Ids } from "../src/Ids.js"
import * as Migrations from "../src/Migrations.js"
import { ProcessorConfigRepository } from "../src/ProcessorConfigRepository.js"
import { SecretBox } from "../src/SecretBox.js"
import * as Storage from "../src/Storage.js"
import { WebhookDeliveryRepository } from "../src/WebhookDeliveryRepository.js"
import { WebhookEndpointRepository } from "../src/WebhookEndpointRepository.js"
import { freshTenants } from "./processorNotifications.js"
import { embedded, postgres, stores, temporaryDirectory } from "./stores.js"

const sqlStores = [
  { name: "postgres", layer: postgres, skip: stores[1].skip },
  { name: "embedded", layer: embedded, skip: false }
]

for (const store of sqlStores) {
  if (store.skip) {
    describe.skip(`sql store: ${store.name} (PostgreSQL unreachable)`, () => {})
    continue
  }
  layer(store.layer, { excludeTestServices: true, timeout: 60_000 })(
    `sql store: ${store.name}`,
    (it) => {
      it.effect("migrations are recorded and re-running applies nothing", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          const applied = yield* sql<{ migration_id: number; name: string }>`
          SELECT migration_id, name FROM ${sql(Migrations.TABLE)} ORDER BY migration_id`
          // Every migration of the record, by its number, each once.
          const expected = Object.keys(Migrations.migrations).map((key) => [
            Number(key.slice(0, 4)),
            key.slice(5)
          ])
          expect(expected.length).toBeGreaterThanOrEqual(8)
          expect(applied.map((m) => [m.migration_id, m.name])).toEqual(expected)
          expect(yield* Migrations.migrate).toEqual([])
        })
      )

      it.effect("secrets and keys are never stored in plain text; int8 reads as a number", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          const accounts = yield* AccountRepository
          const endpoints = yield* WebhookEndpointRepository
          yield* accounts.createAccount({ id: "acct_sql", name: "sql", created: 1 })
          const secret = "whsec_dev_0123456789abcdefghijklmnop"
          yield* endpoints.create({
            id: "we_sql",
            accountId: "acct_sql",
            livemode: false,
            url: "http://localhost/hook",
            enabledEvents: ["*"],
            status: "enabled",
            description: null,
            created: 1,
            secret
          })
          const key = "sk_dev_service_0123456789abcdefghijklmnop"
          yield* accounts.createKey({
            id: "key_sql",
            accountId: "acct_sql",
            livemode: false,
            kind: "secret",
            secret: key,
            created: 1
          })
          const dump = JSON.stringify([
            yield* sql`SELECT * FROM webhook_endpoints`,
            yield* sql`SELECT * FROM api_keys`
          ])
          expect(dump).not.toContain(secret)
          expect(dump).not.toContain(key)
          const [row] = yield* sql<{
            secret_ciphertext: string
          }>`SELECT secret_ciphertext FROM webhook_endpoints`
          expect(row!.secret_ciphertext).toMatch(/^v1\./)
          expect(
            yield* endpoints.secret({ accountId: "acct_sql", livemode: false }, "we_sql")
          ).toBe(secret)
          const [n] = yield* sql<{ big: unknown; count: unknown }>`
          SELECT 9007199254740991::int8 AS big, count(*) AS count FROM api_keys`
          expect(n).toEqual({ big: 9007199254740991, count: 1 })
        })
      )

      it.effect(
        "a record stored as an HTTP answer by an earlier version replays as its outcome",
        () =>
          Effect.gen(function* () {
            const sql = yield* PgClient.PgClient
            const idempotency = yield* IdempotencyRepository
            const tenant = { accountId: "acct_legacy", livemode: false }
            const now = Date.now()
            const legacy = (key: string, status: number, body: unknown) =>
              sql`INSERT INTO idempotency_records (account_id, livemode, key, fingerprint, state,
                response_status, response_body, created_ms, expires_at_ms)
              VALUES (${tenant.accountId}, false, ${key}, 'fp', 'done', ${status},
                ${JSON.stringify(body)}::jsonb, ${now}, ${now + 60_000})`
            yield* legacy("ok", 200, { id: "ch_1", object: "charge" })
            yield* legacy("declined", 402, {
              error: { type: "card_error", code: "card_declined", message: "Declined." }
            })
            yield* legacy("refused", 400, {
              error: { type: "invalid_request_error", code: "refund_failed", param: "charge" }
            })
            const replayOf = (key: string) =>
              Effect.map(idempotency.begin(tenant, key, "fp"), (begun) =>
                begun._tag === "Replay" ? begun.response : begun._tag
              )
            expect(yield* replayOf("ok")).toEqual({
              outcome: "succeeded",
              body: { id: "ch_1", object: "charge" }
            })
            expect(yield* replayOf("declined")).toEqual({ outcome: "failed", record: "charge" })
            expect(yield* replayOf("refused")).toEqual({ outcome: "failed", record: "refund" })
            // Written now, read back the same.
            yield* idempotency.begin(tenant, "new", "fp")
            yield* idempotency.complete(tenant, "new", { outcome: "failed", record: "refund" })
            expect(yield* replayOf("new")).toEqual({ outcome: "failed", record: "refund" })
          })
      )

      it.effect(
        "processor credentials are sealed, bound to their row: moved to another account or mode they do not open",
        () =>
          Effect.gen(function* () {
            const sql = yield* PgClient.PgClient
            const accounts = yield* AccountRepository
            const configs = yield* ProcessorConfigRepository
            yield* accounts.createAccount({ id: "acct_pc1", name: "pc1", created: 1 })
            yield* accounts.createAccount({ id: "acct_pc2", name: "pc2", created: 1 })
            const secretKey = "sk_test_0123456789abcdefghijklmnop"
            const victim = { accountId: "acct_pc1", livemode: false }
            const thief = { accountId: "acct_pc2", livemode: false }
            const save = { processor: "stripe", surcharge: false, at: 1 }
            yield* configs.save(victim, { ...save, credentials: { secretKey } })
            yield* configs.save(thief, { ...save, credentials: { secretKey: "sk_test_mine" } })
            const rows = yield* sql<{ credentials_ciphertext: string }>`
              SELECT credentials_ciphertext FROM processor_configs WHERE account_id = 'acct_pc1'`
            expect(JSON.stringify(rows)).not.toContain(secretKey)
            expect(rows[0]!.credentials_ciphertext).toMatch(/^v1\./)
            // Copy the victim's sealed credentials into the other account's row, then into the
            // victim's own live-mode row: neither opens.
            yield* sql`UPDATE processor_configs SET credentials_ciphertext = ${rows[0]!.credentials_ciphertext}
              WHERE account_id = 'acct_pc2'`
            const moved = yield* Effect.either(configs.open(thief))
            expect(moved._tag === "Left" && moved.left._tag).toBe("StorageError")
            yield* sql`INSERT INTO processor_configs
              (account_id, livemode, processor, credentials_ciphertext, surcharge, revision, created, updated)
              SELECT account_id, true, processor, credentials_ciphertext, surcharge, revision, created, updated
              FROM processor_configs WHERE account_id = 'acct_pc1'`
            const otherMode = yield* Effect.either(configs.open({ ...victim, livemode: true }))
            expect(otherMode._tag === "Left" && otherMode.left._tag).toBe("StorageError")
            // Relabelled as another processor, they do not open either.
            yield* sql`UPDATE processor_configs SET processor = 'adyen'
              WHERE account_id = 'acct_pc1' AND livemode = false`
            const relabelled = yield* Effect.either(configs.open(victim))
            expect(relabelled._tag === "Left" && relabelled.left._tag).toBe("StorageError")
          })
      )

      it.effect(
        "held processor credentials are sealed, bound to their change: moved to another change or account they do not open",
        () =>
          Effect.gen(function* () {
            const sql = yield* PgClient.PgClient
            const accounts = yield* AccountRepository
            const configs = yield* ProcessorConfigRepository
            yield* accounts.createAccount({ id: "acct_hc1", name: "hc1", created: 1 })
            yield* accounts.createAccount({ id: "acct_hc2", name: "hc2", created: 1 })
            const secretKey = "sk_live_held0123456789abcdefghijklmnop"
            const victim = { accountId: "acct_hc1", livemode: true }
            const thief = { accountId: "acct_hc2", livemode: true }
            const request = {
              action: "save" as const,
              processor: "stripe",
              surcharge: false,
              requestedBy: "key_a",
              at: 1,
              expected: null
            }
            yield* configs.request(victim, {
              ...request,
              id: "pcc_hc1",
              credentials: { secretKey }
            })
            yield* configs.request(thief, {
              ...request,
              id: "pcc_hc2",
              credentials: { secretKey: "sk_live_mine" }
            })
            const rows = yield* sql<{ credentials_ciphertext: string }>`
              SELECT credentials_ciphertext FROM pending_processor_config_changes
              WHERE account_id = 'acct_hc1'`
            expect(
              JSON.stringify(yield* sql`SELECT * FROM pending_processor_config_changes`)
            ).not.toContain(secretKey)
            expect(rows[0]!.credentials_ciphertext).toMatch(/^v1\./)
            // The victim's sealed credentials copied into the other account's held change do
            // not open, nor as a configuration of the victim's own.
            yield* sql`UPDATE pending_processor_config_changes
              SET credentials_ciphertext = ${rows[0]!.credentials_ciphertext}
              WHERE account_id = 'acct_hc2'`
            const moved = yield* Effect.either(configs.pending(thief))
            expect(moved._tag === "Left" && moved.left._tag).toBe("StorageError")
            yield* sql`INSERT INTO processor_configs
              (account_id, livemode, processor, credentials_ciphertext, surcharge, revision, created, updated)
              VALUES ('acct_hc1', true, 'stripe', ${rows[0]!.credentials_ciphertext}, false, 'r', 1, 1)`
            const asConfig = yield* Effect.either(configs.open(victim))
            expect(asConfig._tag === "Left" && asConfig.left._tag).toBe("StorageError")
          })
      )

      it.effect(
        "distributable by account: every primary key and unique index leads with account_id",
        () =>
          Effect.gen(function* () {
            const sql = yield* PgClient.PgClient
            // Tables allowed to be keyed otherwise, each with why it needs no account:
            const exceptions = new Map([
              // The migrator's own bookkeeping: one row per schema change, no tenant data,
              // the same on every node (a reference table in a distributed PostgreSQL).
              ["levy_migrations", "levy_migrations_pkey"],
              // The ruleset releases the servers have run: one row per release, no tenant data.
              ["ruleset_releases", "ruleset_releases_pkey"]
            ])
            const keys = yield* sql<{
              table: string
              index: string
              primary: boolean
              first: string | null
            }>`SELECT t.relname AS table, i.relname AS index, x.indisprimary AS primary,
                (SELECT a.attname FROM pg_attribute a
                  WHERE a.attrelid = t.oid AND a.attnum = x.indkey[0]) AS first
              FROM pg_index x
              JOIN pg_class i ON i.oid = x.indexrelid
              JOIN pg_class t ON t.oid = x.indrelid
              JOIN pg_namespace n ON n.oid = t.relnamespace
              WHERE n.nspname = current_schema() AND (x.indisprimary OR x.indisunique)
              ORDER BY t.relname, i.relname`
            const tables = new Set(keys.map((k) => k.table))
            // Every table has a primary key, and the check saw every table Levy has.
            for (const table of tables) {
              expect(
                keys.some((k) => k.table === table && k.primary),
                table
              ).toBe(true)
            }
            expect([...tables]).toEqual(
              expect.arrayContaining([
                "accounts",
                "api_keys",
                "charges",
                "disputes",
                "events",
                "fee_config_changes",
                "fee_configs",
                "idempotency_records",
                "processor_configs",
                "processor_notifications",
                "refunds",
                "ruleset_notices",
                "ruleset_releases",
                "webhook_deliveries",
                "webhook_delivery_attempts",
                "webhook_endpoints"
              ])
            )
            expect(keys.map((k) => k.index)).toEqual(
              expect.arrayContaining(["charges_idempotency_key", "fee_config_changes_one_pending"])
            )
            const offenders = keys
              .filter((k) => k.first !== "account_id")
              .map((k) => [k.table, k.index])
            expect(offenders).toEqual([...exceptions.entries()])
          })
      )

      it.effect(
        "a row whose JSON does not decode by its column's schema is a StorageError naming the column, never a wrong value",
        () =>
          Effect.gen(function* () {
            const sql = yield* PgClient.PgClient
            const accounts = yield* AccountRepository
            const charges = yield* ChargeRepository
            yield* accounts.createAccount({ id: "acct_json", name: "json", created: 1 })
            const tenant = { accountId: "acct_json", livemode: false }
            const charge = {
              id: "ch_json",
              ...tenant,
              created: 1,
              amount: 1000,
              convenienceFee: 32,
              totalAmount: 1032,
              currency: "usd",
              status: "succeeded" as const,
              customer: null,
              description: null,
              metadata: { order: "42" },
              region: null,
              cardType: null,
              feeBreakdown: { percentage: 29, flatFee: 3, adjustment: 0 },
              compliance: { compliant: true, rulesetVersion: "2025.1", rules: ["US-NY"] },
              failureCode: null,
              failureMessage: null,
              details: { source: "tok_visa" }
            }
            yield* charges.insert(charge)
            // What was written reads back whole, extra fields of the JSON columns included.
            expect(yield* charges.get(tenant, "ch_json")).toMatchObject({
              metadata: charge.metadata,
              feeBreakdown: charge.feeBreakdown,
              compliance: charge.compliance,
              details: charge.details
            })
            const failure = (column: string) =>
              Effect.map(Effect.flip(charges.get(tenant, "ch_json")), (e) => {
                expect(e._tag).toBe("StorageError")
                expect(e.message).toContain(`charges row ch_json does not decode: column ${column}`)
              })
            yield* sql`UPDATE charges SET metadata = '{"order": 42}' WHERE id = 'ch_json'`
            yield* failure("metadata")
            yield* sql`UPDATE charges SET metadata = '{}', fee_breakdown = '{"percentage": "29"}'
              WHERE id = 'ch_json'`
            yield* failure("fee_breakdown")
            yield* sql`UPDATE charges SET fee_breakdown = '{"percentage": 29, "flatFee": 3}',
              compliance = '[true]' WHERE id = 'ch_json'`
            yield* failure("compliance")
            yield* sql`UPDATE charges SET compliance = NULL, details = '"tok_visa"' WHERE id = 'ch_json'`
            yield* failure("details")
            // Lists decode every row the same way.
            const listed = yield* Effect.flip(charges.list(tenant, {}))
            expect(listed.message).toContain("column details")
          })
      )

      // Two transactions at once: the embedded store has one connection, so only PostgreSQL.
      if (store.name === "postgres")
        it.effect(
          "a resend of an event the fan-out holds waits for it instead of deadlocking with it",
          () =>
            Effect.gen(function* () {
              const sql = yield* PgClient.PgClient
              const [tenant] = yield* freshTenants
              const endpoint = yield* (yield* WebhookEndpointRepository).create({
                id: `we_${tenant.accountId}`,
                accountId: tenant.accountId,
                livemode: false,
                url: "http://127.0.0.1:9/hook",
                enabledEvents: ["*"],
                status: "enabled",
                description: null,
                created: 1_760_000_000,
                secret: "whsec_dev_fan_out"
              })
              const event = yield* (yield* EventRepository).insert({
                id: `evt_${tenant.accountId}`,
                ...tenant,
                type: "charge.succeeded",
                data: { object: { id: "ch_1" } },
                request: null,
                created: 1_760_000_000
              })
              const deliveries = yield* WebhookDeliveryRepository
              const locked = yield* Deferred.make<void>()
              const resendStarted = yield* Deferred.make<void>()
              // The fan-out's order: the event locked first, then its deliveries written.
              const fanOut = sql
                .withTransaction(
                  Effect.gen(function* () {
                    yield* sql`SELECT 1 FROM events WHERE account_id = ${tenant.accountId} AND id = ${event.id} FOR UPDATE`
                    yield* Deferred.succeed(locked, undefined)
                    yield* Deferred.await(resendStarted)
                    // Long enough for the resend to reach whatever lock it waits on.
                    yield* Effect.sleep("300 millis")
                    yield* sql`INSERT INTO webhook_deliveries (id, account_id, livemode, endpoint_id, event_id,
                      status, attempts, next_attempt_at_ms, lease_owner, lease_expires_at_ms, created)
                    VALUES (${`wd_${tenant.accountId}`}, ${tenant.accountId}, false, ${endpoint.id}, ${event.id},
                      'pending', 0, 0, NULL, NULL, 1760000000)
                    ON CONFLICT (account_id, endpoint_id, event_id) DO NOTHING`
                  })
                )
                .pipe(Effect.fork)
              const fan = yield* fanOut
              yield* Deferred.await(locked)
              const resend = yield* deliveries
                .redeliver(tenant, event.id, [endpoint.id])
                .pipe(Effect.either, Effect.fork)
              yield* Deferred.succeed(resendStarted, undefined)
              const fanned = yield* Fiber.join(fan).pipe(Effect.either)
              const resent = yield* Fiber.join(resend)
              // Neither side was chosen as a deadlock's victim (40P01), and one delivery exists.
              expect(Either.isRight(fanned), String(Either.isLeft(fanned) && fanned.left)).toBe(
                true
              )
              expect(Either.isRight(resent), String(Either.isLeft(resent) && resent.left)).toBe(
                true
              )
              const rows =
                yield* sql`SELECT id FROM webhook_deliveries WHERE event_id = ${event.id}`
              expect(rows).toHaveLength(1)
            })
        )

      it.effect(
        "every list is an index range scan on (account_id, livemode, created DESC, id DESC)",
        () =>
          Effect.flatMap(PgClient.PgClient, (sql) =>
            sql.withTransaction(
              Effect.gen(function* () {
                // One connection for the whole check, and the setting dies with the transaction.
                yield* sql`SET LOCAL enable_seqscan = off`
                const plan = (query: string) =>
                  Effect.map(sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${query}`), (rows) =>
                    rows.map((r) => r["QUERY PLAN"]).join("\n")
                  )
                const page = yield* plan(
                  `SELECT * FROM charges WHERE account_id = 'a' AND livemode = false AND (created, id) < ((SELECT created FROM charges WHERE account_id = 'a' AND livemode = false AND id = 'ch_x'), 'ch_x')
           ORDER BY created DESC, id DESC LIMIT 11`
                )
                expect(page).toContain("charges_list")
                // The cursor is an index condition (a range scan), not a filter over rows.
                expect(page).toMatch(/Index Cond: .*ROW\(created, id\) < ROW\(/)
                expect(page).not.toMatch(/Sort/)
                const byCustomer = yield* plan(
                  `SELECT * FROM charges WHERE account_id = 'a' AND livemode = false AND customer = 'c'
           ORDER BY created DESC, id DESC LIMIT 11`
                )
                expect(byCustomer).toContain("charges_by_customer")
                expect(byCustomer).not.toMatch(/Sort/)
                // The regions an account charged in (RulesetNoticeRepository.chargedRegions): one
                // index probe per region, never a scan of the account's charges.
                // ANALYZE: without it PostgreSQL 15 does not print the recursive step's subplan.
                const regions = yield* plan(
                  `(ANALYZE, VERBOSE) WITH RECURSIVE found (region) AS (
             (SELECT region FROM charges WHERE account_id = 'a' AND livemode = false
               AND region IS NOT NULL ORDER BY region LIMIT 1)
             UNION ALL
             SELECT (SELECT c.region FROM charges c WHERE c.account_id = 'a' AND c.livemode = false
                 AND c.region IS NOT NULL AND c.region > found.region ORDER BY c.region LIMIT 1)
             FROM found WHERE found.region IS NOT NULL)
           SELECT region FROM found WHERE region IS NOT NULL`
                )
                expect(regions.match(/charges_by_region/g)).toHaveLength(2)
                expect(regions).toMatch(/Index Cond: .*region > found_1\.region/)
                expect(regions).not.toMatch(/Sort|Seq Scan/)
              })
            )
          )
      )
    }
  )
}

describe("embedded store", () => {
  layer(Layer.merge(Ids.layer, SecretBox.layerRandom), {
    excludeTestServices: true,
    timeout: 60_000
  })("data directory", (it) => {
    it.scoped(
      "layerFromEnv without DATABASE_URL: embedded in LEVY_DATA_DIR/data, key beside it",
      () =>
        Effect.gen(function* () {
          // LEVY_DATA_DIR is the directory `levy --data-dir` names, the same layout.
          const root = yield* temporaryDirectory
          const env = ConfigProvider.fromMap(new Map([["LEVY_DATA_DIR", root]]))
          const account = yield* Effect.scoped(
            Effect.flatMap(Layer.build(Storage.layerFromEnv), (ctx) =>
              Effect.provide(
                Effect.flatMap(AccountRepository, (accounts) =>
                  accounts.createAccount({ id: "acct_env", name: "env", created: 1 })
                ),
                ctx
              )
            )
          ).pipe(Effect.withConfigProvider(env))
          expect(account.id).toBe("acct_env")
          expect(existsSync(join(root, "data", "PG_VERSION"))).toBe(true)
          expect(existsSync(join(root, "secret.key"))).toBe(true)
          expect(existsSync(join(root, "data", "secret.key"))).toBe(false)
          expect(statSync(join(root, "secret.key")).mode & 0o777).toBe(0o600)
          // Already migrated by the layer: `levy migrate` applies nothing.
          expect(yield* Storage.migrateFromEnv.pipe(Effect.withConfigProvider(env))).toEqual([])
        })
    )

    it.scoped("persists across restarts", () =>
      Effect.gen(function* () {
        const dir = join(yield* temporaryDirectory, "data")
        const open = Layer.build(Storage.layerEmbedded({ dataDir: dir }))
        yield* Effect.scoped(
          Effect.flatMap(open, (ctx) =>
            Effect.flatMap(Effect.provide(AccountRepository, ctx), (accounts) =>
              accounts.createAccount({ id: "acct_persisted", name: "kept", created: 7 })
            )
          )
        )
        const again = yield* Effect.scoped(
          Effect.flatMap(open, (ctx) =>
            Effect.flatMap(Effect.provide(AccountRepository, ctx), (accounts) =>
              accounts.getAccount("acct_persisted")
            )
          )
        )
        expect(again).toEqual({ id: "acct_persisted", name: "kept", created: 7 })
      })
    )
  })
})

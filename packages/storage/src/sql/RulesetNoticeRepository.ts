/** Notices of ruleset changes, on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import {
  RulesetNoticeRepository,
  type RulesetNoticeRepositoryService
} from "../RulesetNoticeRepository.js"
import { DuplicateRecord } from "../StorageError.js"
import * as SqlSupport from "./SqlSupport.js"
import { accounts, rulesetNotices, rulesetReleases } from "./Tables.js"

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const service: RulesetNoticeRepositoryService = {
    accounts: (after, limit) =>
      sql`SELECT ${accounts.select(sql)} FROM accounts
        WHERE ${after === null ? sql`true` : sql`account_id > ${after}`}
        ORDER BY account_id LIMIT ${limit}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(accounts.decodeAll)
      ),
    // A skip scan over charges_by_region: one index probe per distinct region, however many
    // charges the tenant has.
    chargedRegions: (tenant) =>
      sql<{ region: string }>`WITH RECURSIVE found (region) AS (
          (SELECT region FROM charges
            WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
              AND region IS NOT NULL
            ORDER BY region LIMIT 1)
          UNION ALL
          SELECT (SELECT c.region FROM charges c
              WHERE c.account_id = ${tenant.accountId} AND c.livemode = ${tenant.livemode}
                AND c.region IS NOT NULL AND c.region > found.region
              ORDER BY c.region LIMIT 1)
          FROM found WHERE found.region IS NOT NULL
        )
        SELECT region FROM found WHERE region IS NOT NULL`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => rows.map((r) => r.region))
      ),
    announced: (tenant, changeId) =>
      sql<{ region: string }>`SELECT region FROM ruleset_notices
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode}
          AND change_id = ${changeId}`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => rows.map((r) => r.region))
      ),
    // A row another transaction holds makes this one wait for it; once it commits, the row is
    // there and nothing is inserted for it: fewer rows back than notices means announced already.
    record: (notices) =>
      notices.length === 0
        ? Effect.void
        : Effect.gen(function* () {
            const rows =
              yield* sql`INSERT INTO ruleset_notices ${rulesetNotices.insert(sql, notices)}
              ON CONFLICT DO NOTHING RETURNING region`
            if (rows.length < notices.length) {
              const first = notices[0]!
              return yield* new DuplicateRecord({
                entity: "ruleset_notice",
                id: `${first.changeId}/${first.region}`
              })
            }
          }).pipe(sql.withTransaction, SqlSupport.orStorageError),
    releasesSeen: (version, now) =>
      Effect.gen(function* () {
        yield* sql`INSERT INTO ruleset_releases ${rulesetReleases.insert(sql, { version, firstSeen: now })}
          ON CONFLICT DO NOTHING`
        return yield* sql`SELECT ${rulesetReleases.select(sql)} FROM ruleset_releases`.pipe(
          Effect.flatMap(rulesetReleases.decodeAll)
        )
      }).pipe(SqlSupport.orStorageError)
  }
  return service
})

export const layer = Layer.effect(RulesetNoticeRepository, make)

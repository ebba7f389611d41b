/** Webhook endpoints on PostgreSQL and the embedded store. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import { SecretBox, type SecretBoxService } from "../SecretBox.js"
import { LimitReached, StorageError } from "../StorageError.js"
import type { Tenant } from "../Tenant.js"
import {
  MAX_ENDPOINTS,
  type StoredWebhookEndpoint,
  sealContext,
  strip,
  subscribes,
  validSealed,
  type WebhookEndpoint,
  WebhookEndpointRepository,
  type WebhookEndpointRepositoryService,
  WRONG_KEY
} from "../WebhookEndpointRepository.js"
import * as SqlSupport from "./SqlSupport.js"
import { webhookEndpoints } from "./Tables.js"

const visible = ({
  secretCiphertext: _,
  previousSecretCiphertext: __,
  previousSecretExpiresAtMs: ___,
  ...endpoint
}: StoredWebhookEndpoint): WebhookEndpoint => endpoint

const previousOf = (e: StoredWebhookEndpoint) =>
  e.previousSecretCiphertext === null || e.previousSecretExpiresAtMs === null
    ? null
    : { sealed: e.previousSecretCiphertext, expiresAtMs: e.previousSecretExpiresAtMs }

/**
 * Opens one stored secret with `box`: a process whose key cannot would fail every delivery
 * and every roll of the secrets others sealed, so it refuses to start instead, saying why.
 */
const checkKey = (sql: PgClient.PgClient, box: SecretBoxService) =>
  sql`SELECT ${webhookEndpoints.select(sql)} FROM webhook_endpoints LIMIT 1`.pipe(
    SqlSupport.orStorageError,
    Effect.flatMap(SqlSupport.maybeOne(webhookEndpoints)),
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.void,
        onSome: (e) =>
          box.open(e.secretCiphertext, sealContext(e.accountId, e.id)).pipe(
            Effect.mapError((cause) => new StorageError({ message: WRONG_KEY, cause })),
            Effect.asVoid
          )
      })
    )
  )

export const make = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const box = yield* SecretBox
  yield* checkKey(sql, box)
  const columns = webhookEndpoints.select(sql)
  const one = (id: string) => SqlSupport.one(webhookEndpoints, "webhook_endpoint", id)
  const select = (tenant: Tenant, id: string) =>
    sql`SELECT ${columns} FROM webhook_endpoints
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`.pipe(
      SqlSupport.orStorageError,
      Effect.flatMap(one(id))
    )
  const service: WebhookEndpointRepositoryService = {
    create: (e) => {
      const stored: StoredWebhookEndpoint = {
        ...strip(e),
        secretCiphertext: box.seal(e.secret, sealContext(e.accountId, e.id)),
        previousSecretCiphertext: null,
        previousSecretExpiresAtMs: null
      }
      return Effect.gen(function* () {
        // Creates of one account and mode take turns (a lock held to the end of the
        // transaction), so two at once cannot both see room for one more.
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`webhook_endpoints/${e.accountId}/${e.livemode}`}, 0))`
        const [row] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_endpoints
          WHERE account_id = ${e.accountId} AND livemode = ${e.livemode}`
        if ((row?.n ?? 0) >= MAX_ENDPOINTS) {
          return yield* new LimitReached({ entity: "webhook_endpoint", limit: MAX_ENDPOINTS })
        }
        yield* sql`INSERT INTO webhook_endpoints ${webhookEndpoints.insert(sql, stored)}`
        return strip(e)
      }).pipe(sql.withTransaction, SqlSupport.orDuplicate("webhook_endpoint", e.id))
    },
    get: (tenant, id) => Effect.map(select(tenant, id), visible),
    list: (tenant, request) =>
      SqlSupport.list(sql, {
        table: webhookEndpoints,
        entity: "webhook_endpoint",
        tenant,
        request
      }).pipe(Effect.map((page) => ({ data: page.data.map(visible), hasMore: page.hasMore }))),
    update: (tenant, id, patch) =>
      sql`UPDATE webhook_endpoints SET
          url = COALESCE(${patch.url ?? null}, url),
          enabled_events = COALESCE(${patch.enabledEvents === undefined ? null : SqlSupport.json(patch.enabledEvents)}, enabled_events),
          status = COALESCE(${patch.status ?? null}, status),
          description = ${patch.description === undefined ? sql`description` : patch.description}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING ${columns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(one(id)),
        Effect.map(visible)
      ),
    remove: (tenant, id) =>
      sql`DELETE FROM webhook_endpoints
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING ${columns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(one(id)),
        Effect.map(visible)
      ),
    secret: (tenant, id) =>
      Effect.flatMap(select(tenant, id), (e) =>
        box.open(e.secretCiphertext, sealContext(e.accountId, e.id))
      ),
    secrets: (tenant, id, nowMs) =>
      Effect.flatMap(select(tenant, id), (e) =>
        Effect.forEach(validSealed(e.secretCiphertext, previousOf(e), nowMs), (sealed) =>
          box.open(sealed, sealContext(e.accountId, e.id))
        )
      ),
    // One statement: the right-hand sides read the row as it was, so the old current
    // secret becomes the previous one atomically.
    rollSecret: (tenant, id, roll) =>
      sql`UPDATE webhook_endpoints SET
          previous_secret_ciphertext = secret_ciphertext,
          previous_secret_expires_at_ms = ${roll.previousExpiresAtMs},
          secret_ciphertext = ${box.seal(roll.secret, sealContext(tenant.accountId, id))}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING ${columns}`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(one(id)),
        Effect.map(visible)
      ),
    subscribedTo: (tenant, type) =>
      sql`SELECT ${columns} FROM webhook_endpoints
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND status = 'enabled'
        ORDER BY created, id`.pipe(
        SqlSupport.orStorageError,
        Effect.flatMap(webhookEndpoints.decodeAll),
        Effect.map((rows) => rows.map(visible).filter((e) => subscribes(e, type)))
      )
  }
  return service
})

export const layer = Layer.effect(WebhookEndpointRepository, make)

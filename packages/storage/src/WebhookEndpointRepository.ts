/**
 * Webhook endpoints. Signing secrets are stored sealed by `SecretBox` (never in plain
 * text) and read back only through `secret` / `secrets`, for signing. An endpoint holds its
 * current secret and, after a roll, the previous one with an expiry: until then deliveries
 * are signed with both so receivers can switch over (docs/design.md §8).
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import * as MemoryStore from "./memory/MemoryStore.js"
import type * as Page from "./Page.js"
import { SecretBox, type SecretBoxService } from "./SecretBox.js"
import { DuplicateRecord, RecordNotFound, StorageError } from "./StorageError.js"
import * as SqlSupport from "./sql/SqlSupport.js"
import type { Tenant } from "./Tenant.js"

/** An endpoint as returned: without its secret. */
export interface WebhookEndpoint {
  readonly id: string
  readonly accountId: string
  readonly livemode: boolean
  readonly url: string
  /** Event types, or `["*"]` for all. */
  readonly enabledEvents: ReadonlyArray<string>
  readonly status: "enabled" | "disabled"
  readonly description: string | null
  readonly created: number
}

/** A new endpoint with its plain signing secret (sealed before it is stored). */
export interface NewWebhookEndpoint extends WebhookEndpoint {
  readonly secret: string
}

/** A roll: the new plain secret, and until when (Unix milliseconds) the replaced one stays valid. */
export interface SecretRoll {
  readonly secret: string
  readonly previousExpiresAtMs: number
}

/** What an update may change. */
export interface WebhookEndpointPatch {
  readonly url?: string | undefined
  readonly enabledEvents?: ReadonlyArray<string> | undefined
  readonly status?: "enabled" | "disabled" | undefined
  readonly description?: string | null | undefined
}

/** Webhook endpoints. */
export interface WebhookEndpointRepositoryService {
  readonly create: (
    endpoint: NewWebhookEndpoint
  ) => Effect.Effect<WebhookEndpoint, DuplicateRecord | StorageError>
  readonly get: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<WebhookEndpoint, RecordNotFound | StorageError>
  readonly list: (
    tenant: Tenant,
    request: Page.PageRequest
  ) => Effect.Effect<Page.Page<WebhookEndpoint>, RecordNotFound | StorageError>
  readonly update: (
    tenant: Tenant,
    id: string,
    patch: WebhookEndpointPatch
  ) => Effect.Effect<WebhookEndpoint, RecordNotFound | StorageError>
  /** Deletes the endpoint and its deliveries. */
  readonly remove: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<WebhookEndpoint, RecordNotFound | StorageError>
  /** The plain current signing secret. */
  readonly secret: (
    tenant: Tenant,
    id: string
  ) => Effect.Effect<string, RecordNotFound | StorageError>
  /**
   * Every secret valid at `nowMs` (Unix milliseconds), to sign a delivery with: the current
   * one first, then the one it replaced while that has not expired.
   */
  readonly secrets: (
    tenant: Tenant,
    id: string,
    nowMs: number
  ) => Effect.Effect<ReadonlyArray<string>, RecordNotFound | StorageError>
  /** Makes `roll.secret` current; the replaced secret stays valid until `roll.previousExpiresAtMs`. */
  readonly rollSecret: (
    tenant: Tenant,
    id: string,
    roll: SecretRoll
  ) => Effect.Effect<WebhookEndpoint, RecordNotFound | StorageError>
  /** Enabled endpoints that subscribe to `type` (or to `*`). */
  readonly subscribedTo: (
    tenant: Tenant,
    type: string
  ) => Effect.Effect<ReadonlyArray<WebhookEndpoint>, StorageError>
}

/** The additional data a secret is sealed with: its row. */
const sealContext = (accountId: string, id: string) => `webhook_endpoint:${accountId}:${id}`

/** A sealed secret replaced by a roll, valid until `expiresAtMs`. */
interface Previous {
  readonly sealed: string
  readonly expiresAtMs: number
}

/** The sealed secrets valid at `nowMs`, current first. */
const validSealed = (current: string, previous: Previous | null, nowMs: number) =>
  previous !== null && nowMs < previous.expiresAtMs ? [current, previous.sealed] : [current]

const subscribes = (e: WebhookEndpoint, type: string) =>
  e.status === "enabled" && (e.enabledEvents.includes("*") || e.enabledEvents.includes(type))

interface Row {
  account_id: string
  id: string
  livemode: boolean
  url: string
  enabled_events: ReadonlyArray<string>
  status: WebhookEndpoint["status"]
  description: string | null
  secret_ciphertext: string
  previous_secret_ciphertext: string | null
  previous_secret_expires_at_ms: number | null
  created: number
}

const previousOfRow = (r: Row): Previous | null =>
  r.previous_secret_ciphertext === null || r.previous_secret_expires_at_ms === null
    ? null
    : { sealed: r.previous_secret_ciphertext, expiresAtMs: r.previous_secret_expires_at_ms }

const fromRow = (r: Row): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  livemode: r.livemode,
  url: r.url,
  enabledEvents: r.enabled_events,
  status: r.status,
  description: r.description,
  created: r.created
})

const strip = ({ secret: _, ...endpoint }: NewWebhookEndpoint): WebhookEndpoint => endpoint

/** Why a process must not start with a key that cannot open the secrets stored here. */
export const WRONG_KEY =
  "The secret key cannot open the webhook signing secrets stored in this database: another process sealed them with a different key. " +
  "Set LEVY_SECRET_KEY (base64, 32 bytes) to the key those processes use, the same on every host (without it each host makes its own secret.key)."

/**
 * Opens one stored secret with `box`: a process whose key cannot would fail every delivery
 * and every roll of the secrets others sealed, so it refuses to start instead, saying why.
 */
const checkKey = (sql: PgClient.PgClient, box: SecretBoxService) =>
  sql<Pick<Row, "account_id" | "id" | "secret_ciphertext">>`SELECT account_id, id, secret_ciphertext
    FROM webhook_endpoints LIMIT 1`.pipe(
    SqlSupport.orStorageError,
    Effect.flatMap((rows): Effect.Effect<void, StorageError> => {
      const row = rows[0]
      if (row === undefined) return Effect.void
      return box.open(row.secret_ciphertext, sealContext(row.account_id, row.id)).pipe(
        Effect.mapError((cause) => new StorageError({ message: WRONG_KEY, cause })),
        Effect.asVoid
      )
    })
  )

/** The SQL implementation. */
export const makeSql = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const box = yield* SecretBox
  yield* checkKey(sql, box)
  const one = (id: string) => (rows: ReadonlyArray<Row>) =>
    rows[0]
      ? Effect.succeed(rows[0])
      : Effect.fail(new RecordNotFound({ entity: "webhook_endpoint", id }))
  const select = (tenant: Tenant, id: string) =>
    sql<Row>`SELECT * FROM webhook_endpoints
      WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}`.pipe(
      SqlSupport.orStorageError,
      Effect.flatMap(one(id))
    )
  const service: WebhookEndpointRepositoryService = {
    create: (e) =>
      sql`INSERT INTO webhook_endpoints (account_id, id, livemode, url, enabled_events, status, description,
          secret_ciphertext, created)
        VALUES (${e.accountId}, ${e.id}, ${e.livemode}, ${e.url}, ${SqlSupport.json(e.enabledEvents)}, ${e.status},
          ${e.description}, ${box.seal(e.secret, sealContext(e.accountId, e.id))}, ${e.created})`.pipe(
        SqlSupport.orDuplicate("webhook_endpoint", e.id),
        Effect.as(strip(e))
      ),
    get: (tenant, id) => Effect.map(select(tenant, id), fromRow),
    list: (tenant, request) =>
      SqlSupport.listRaw(sql, {
        table: "webhook_endpoints",
        entity: "webhook_endpoint",
        tenant,
        request,
        decode: fromRow
      }),
    update: (tenant, id, patch) =>
      sql<Row>`UPDATE webhook_endpoints SET
          url = COALESCE(${patch.url ?? null}, url),
          enabled_events = COALESCE(${patch.enabledEvents === undefined ? null : SqlSupport.json(patch.enabledEvents)}, enabled_events),
          status = COALESCE(${patch.status ?? null}, status),
          description = ${patch.description === undefined ? sql`description` : patch.description}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING *`.pipe(SqlSupport.orStorageError, Effect.flatMap(one(id)), Effect.map(fromRow)),
    remove: (tenant, id) =>
      sql<Row>`DELETE FROM webhook_endpoints
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING *`.pipe(SqlSupport.orStorageError, Effect.flatMap(one(id)), Effect.map(fromRow)),
    secret: (tenant, id) =>
      Effect.flatMap(select(tenant, id), (r) =>
        box.open(r.secret_ciphertext, sealContext(r.account_id, r.id))
      ),
    secrets: (tenant, id, nowMs) =>
      Effect.flatMap(select(tenant, id), (r) =>
        Effect.forEach(validSealed(r.secret_ciphertext, previousOfRow(r), nowMs), (sealed) =>
          box.open(sealed, sealContext(r.account_id, r.id))
        )
      ),
    // One statement: the right-hand sides read the row as it was, so the old current
    // secret becomes the previous one atomically.
    rollSecret: (tenant, id, roll) =>
      sql<Row>`UPDATE webhook_endpoints SET
          previous_secret_ciphertext = secret_ciphertext,
          previous_secret_expires_at_ms = ${roll.previousExpiresAtMs},
          secret_ciphertext = ${box.seal(roll.secret, sealContext(tenant.accountId, id))}
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND id = ${id}
        RETURNING *`.pipe(SqlSupport.orStorageError, Effect.flatMap(one(id)), Effect.map(fromRow)),
    subscribedTo: (tenant, type) =>
      sql<Row>`SELECT * FROM webhook_endpoints
        WHERE account_id = ${tenant.accountId} AND livemode = ${tenant.livemode} AND status = 'enabled'
        ORDER BY created, id`.pipe(
        SqlSupport.orStorageError,
        Effect.map((rows) => rows.map(fromRow).filter((e) => subscribes(e, type)))
      )
  }
  return service
})

const TABLE = "webhook_endpoints"
const DELIVERIES = "webhook_deliveries"
const ATTEMPTS = "webhook_delivery_attempts"

interface Stored extends WebhookEndpoint {
  readonly sealed: string
  readonly previous: Previous | null
}

/** The in-memory implementation. */
export const makeMemory = Effect.gen(function* () {
  const store = yield* MemoryStore.MemoryStore
  const box = yield* SecretBox
  const endpoints = store.table<Stored>(TABLE)
  const key = (accountId: string, id: string) => `${accountId}/${id}`
  const find = (tenant: Tenant, id: string): Effect.Effect<Stored, RecordNotFound> => {
    const e = endpoints.get(key(tenant.accountId, id))
    return e && e.livemode === tenant.livemode
      ? Effect.succeed(e)
      : Effect.fail(new RecordNotFound({ entity: "webhook_endpoint", id }))
  }
  const visible = ({ sealed: _, previous: __, ...e }: Stored): WebhookEndpoint => e
  const service: WebhookEndpointRepositoryService = {
    create: (e) =>
      store.write((w) => {
        if (endpoints.has(key(e.accountId, e.id))) {
          return Effect.fail(new DuplicateRecord({ entity: "webhook_endpoint", id: e.id }))
        }
        const stored: Stored = {
          ...strip(e),
          sealed: box.seal(e.secret, sealContext(e.accountId, e.id)),
          previous: null
        }
        w.put(TABLE, key(e.accountId, e.id), stored)
        return Effect.succeed(strip(e))
      }),
    get: (tenant, id) => Effect.map(Effect.flatten(store.read(() => find(tenant, id))), visible),
    list: (tenant, request) =>
      Effect.map(
        MemoryStore.list<Stored>(store, TABLE, "webhook_endpoint", tenant, request, () => true),
        (page) => ({ data: page.data.map(visible), hasMore: page.hasMore })
      ),
    update: (tenant, id, patch) =>
      store.write((w) =>
        Effect.map(find(tenant, id), (e) => {
          const updated: Stored = {
            ...e,
            ...(patch.url !== undefined ? { url: patch.url } : {}),
            ...(patch.enabledEvents !== undefined ? { enabledEvents: patch.enabledEvents } : {}),
            ...(patch.status !== undefined ? { status: patch.status } : {}),
            ...(patch.description !== undefined ? { description: patch.description } : {})
          }
          w.put(TABLE, key(tenant.accountId, id), updated)
          return visible(updated)
        })
      ),
    remove: (tenant, id) =>
      store.write((w) =>
        Effect.map(find(tenant, id), (e) => {
          w.remove(TABLE, key(tenant.accountId, id))
          // Cascade, as the foreign keys do in SQL.
          const gone = new Set<string>()
          for (const [k, d] of store.table<{ accountId: string; id: string; endpointId: string }>(
            DELIVERIES
          )) {
            if (d.accountId === tenant.accountId && d.endpointId === id) {
              gone.add(d.id)
              w.remove(DELIVERIES, k)
            }
          }
          for (const [k, a] of store.table<{ accountId: string; deliveryId: string }>(ATTEMPTS)) {
            if (a.accountId === tenant.accountId && gone.has(a.deliveryId)) w.remove(ATTEMPTS, k)
          }
          return visible(e)
        })
      ),
    secret: (tenant, id) =>
      Effect.flatMap(Effect.flatten(store.read(() => find(tenant, id))), (e) =>
        box.open(e.sealed, sealContext(e.accountId, e.id))
      ),
    secrets: (tenant, id, nowMs) =>
      Effect.flatMap(Effect.flatten(store.read(() => find(tenant, id))), (e) =>
        Effect.forEach(validSealed(e.sealed, e.previous, nowMs), (sealed) =>
          box.open(sealed, sealContext(e.accountId, e.id))
        )
      ),
    rollSecret: (tenant, id, roll) =>
      store.write((w) =>
        Effect.map(find(tenant, id), (e) => {
          const rolled: Stored = {
            ...e,
            sealed: box.seal(roll.secret, sealContext(e.accountId, e.id)),
            previous: { sealed: e.sealed, expiresAtMs: roll.previousExpiresAtMs }
          }
          w.put(TABLE, key(tenant.accountId, id), rolled)
          return visible(rolled)
        })
      ),
    subscribedTo: (tenant, type) =>
      store.read(() =>
        [...endpoints.values()]
          .filter(
            (e) =>
              e.accountId === tenant.accountId &&
              e.livemode === tenant.livemode &&
              subscribes(e, type)
          )
          .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1))
          .map(visible)
      )
  }
  return service
})

/** Webhook endpoints, as a service. */
export class WebhookEndpointRepository extends Context.Tag(
  "@levy/storage/WebhookEndpointRepository"
)<WebhookEndpointRepository, WebhookEndpointRepositoryService>() {
  static readonly layerSql = Layer.effect(WebhookEndpointRepository, makeSql)
  static readonly layerMemory = Layer.effect(WebhookEndpointRepository, makeMemory)
}
